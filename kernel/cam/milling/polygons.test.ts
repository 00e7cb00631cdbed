import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { seededRandom } from "../../seeded-random.ts";
import {
  area,
  clipToRect,
  COARSE_TOLERANCE_MM,
  contains,
  difference,
  differenceAll,
  disk,
  intersection,
  isEmpty,
  offset,
  offsetCovering,
  open,
  outlastsOpening,
  pathOf,
  rectangle,
  sweepCleared,
  union,
  type Path64,
  type Paths64,
} from "./polygons.ts";

describe("offsetting a region", () => {
  // a hole touching the square at its corner of greatest y and least x, the point Clipper reads
  // a region's winding from
  const square = pathOf([
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
  ]);
  const hole = pathOf([
    [0, 10],
    [2, 8],
    [1, 8],
  ]);

  it("grows a region whose hole touches its outer loop at the point its winding is read from, whatever the loops' order", () => {
    const holeFirst = offset([hole, square], 0.3);
    const squareFirst = offset([square, hole], 0.3);
    // the square grown by 0.3 mm with round corners, less the hole shrunk
    assert.ok(area(holeFirst) > 112 && area(holeFirst) < 113, `${area(holeFirst)} mm²`);
    assert.equal(area(holeFirst), area(squareFirst));
  });

  it("shrinks it the same way", () => {
    assert.equal(area(offset([hole, square], -0.3)), area(offset([square, hole], -0.3)));
    assert.ok(area(offset([hole, square], -0.3)) < 99 - 9);
  });
});

describe("growing material where more is harmless (offsetCovering)", () => {
  // material as clearing leaves it: a block with a 10 mm tool's passes swept out of it (concave
  // arcs), and an island with round corners (convex ones, which simplifying cuts into)
  const passes = [
    pathOf([
      [-5, 12],
      [20, 12],
      [24, 16],
      [24, 30],
    ]),
    pathOf([
      [40, -5],
      [40, 8],
      [34, 14],
    ]),
  ];
  const island = offset(rectangle([60, 0], [64, 3]), 6);
  const material = [...difference(rectangle([0, 0], [50, 30]), sweepCleared(passes, 5)), ...island];

  it("covers the exact offset, but for the chords' own error", () => {
    for (const mm of [2, 4.975, 8]) {
      const covering = offsetCovering(material, mm, 0.01);
      const uncovered = difference(offset(material, mm), covering);
      // what is left is thinner than the coarse arcs' error on each side
      assert.ok(
        isEmpty(offset(uncovered, -COARSE_TOLERANCE_MM)),
        `growing by ${mm} mm: ${area(uncovered)} mm² uncovered`,
      );
    }
  });

  it("exceeds it by at most twice the slack", () => {
    const covering = offsetCovering(material, 4.975, 0.01);
    assert.ok(isEmpty(difference(covering, offset(material, 4.975 + 2 * 0.01 + 1e-4))));
    assert.ok(area(covering) > area(offset(material, 4.975)));
  });
});

describe("whether a region outlasts an opening", () => {
  it("answers as opening it and testing what is left, on 300 seeded slivers, necks and blocks round twice the width", () => {
    const random = seededRandom(7);
    let kept = 0;
    for (let k = 0; k < 300; k += 1) {
      // strips 0.03 to 0.07 mm wide at any angle, some with a block on one end
      const width = 0.03 + 0.04 * random();
      const angle = Math.PI * random();
      const [c, s] = [Math.cos(angle), Math.sin(angle)];
      const strip = sweepCleared(
        [
          pathOf([
            [0, 0],
            [3 * c, 3 * s],
          ]),
        ],
        width / 2,
      );
      const region =
        random() < 0.3
          ? [...strip, ...rectangle([3 * c, 3 * s], [3 * c + 0.05 + 0.05 * random(), 3 * s + 0.06])]
          : strip;
      const expected = !isEmpty(open(region, 0.025), 1e-6);
      assert.equal(outlastsOpening(region, 0.025), expected, `strip ${k}: ${width} mm wide`);
      if (expected) kept += 1;
    }
    assert.ok(kept > 50 && kept < 250, `${kept} of 300 outlast the opening`);
  });
});

describe("clipping a region to a rectangle", () => {
  it("keeps all of a hole whose only edge across the rectangle runs by a corner (clipper2-ts 2.0.1 dropped a corner and half the hole)", () => {
    // a stock layer of NIST FTC-10's +Y setup: the stock's rectangle with this hole (clockwise)
    const xy = [
      218439, 20317, 216375, 212559, 208681, 215444, 208681, 389530, 200988, 392415, 201107, 424014, 208681, 426078,
      208681, 596317, 212528, 599202, 212528, 707886, 216375, 710771, 218094, 783622, 1035573, 783749, 1037637, 710771,
      1041460, 708253, 1041483, 687688, 1049154, 685170, 1049177, 576119, 1053000, 573601, 1053023, 522258, 1056847,
      519740, 1056870, 468397, 1085720, 468397, 1085720, 519373, 1093413, 522258, 1097260, 627095, 1101106, 629980,
      1101225, 654846, 1104953, 656910, 1105969, 733168, 1419418, 733855, 1433843, 468397, 1453053, 465879, 1453076,
      392415, 1449229, 389530, 1445264, 306956, 1435171, 301067, 1422303, 301044, 1422303, 123111, 1406916, 120226,
      1405197, 85847, 1175503, 86068, 1174193, 120226, 1162676, 122744, 1162653, 231795, 1154983, 234313, 1154960,
      297197, 1140883, 297664, 1139573, 304892, 1060717, 304892, 1059701, 297884, 1049177, 297197, 1049177, 215444,
      1041483, 212559, 1035918, 20444, 219260, 20198,
    ];
    const hole: Path64 = [];
    for (let i = 0; i < xy.length; i += 2) hole.push({ x: xy[i] as number, y: xy[i + 1] as number });
    const layer: Paths64 = [
      [
        { x: 1637716, y: 787716 },
        { x: -2886, y: 787716 },
        { x: -2886, y: -2886 },
        { x: 1637716, y: -2886 },
      ],
      hole,
    ];
    const rect = { left: 1401962, top: 310793, right: 1445486, bottom: 361016 };
    const box = [
      [
        { x: rect.left, y: rect.top },
        { x: rect.right, y: rect.top },
        { x: rect.right, y: rect.bottom },
        { x: rect.left, y: rect.bottom },
      ],
    ];
    const clipped = clipToRect(layer, rect);
    // what a boolean gives: the rectangle less the hole, a sliver at one corner
    const exact = intersection(layer, box);
    assert.ok(Math.abs(area(clipped) - area(exact)) < 1e-6, `clipped ${area(clipped)} mm², exact ${area(exact)} mm²`);
    assert.ok(area(exact) < 0.01);
    // a point of the hole inside the rectangle is not in the layer, whole or clipped
    assert.equal(contains(layer, [142.6352, 35.1424]), false);
    assert.equal(contains(clipped, [142.6352, 35.1424]), false);
  });

  it("leaves out loops wholly beside the rectangle and gives nothing for an empty rectangle", () => {
    const square = (x: number): Path64 =>
      pathOf([
        [x, 0],
        [x + 1, 0],
        [x + 1, 1],
        [x, 1],
      ]);
    const clipped = clipToRect([square(0), square(10)], { left: 5000, top: 2000, right: 20000, bottom: 8000 });
    // of the first square, x 0.5 to 1 and y 0.2 to 0.8 mm; of the second, nothing
    assert.ok(Math.abs(area(clipped) - 0.5 * 0.6) < 1e-9, `${area(clipped)}`);
    assert.deepEqual(clipToRect([square(0)], { left: 0, top: 0, right: 0, bottom: 5000 }), []);
  });
});

describe("a region less several others at once (differenceAll)", () => {
  it("takes their union off, where they overlap and where one covers another's hole", () => {
    const subject = rectangle([0, 0], [100, 60]);
    // a frame whose hole (30 x 20) a block fills, a disk across the frame's edge, a block beside
    const frame = difference(rectangle([10, 10], [60, 50]), rectangle([25, 20], [55, 40]));
    const clips = [frame, rectangle([20, 15], [58, 45]), disk([60, 30], 12), rectangle([80, 5], [95, 55])];
    const one = differenceAll(subject, clips);
    const twoSteps = difference(subject, union(...clips));
    assert.ok(Math.abs(area(one) - area(twoSteps)) < 1e-6, `${area(one)} against ${area(twoSteps)} mm²`);
    assert.ok(isEmpty(difference(one, twoSteps), 1e-9) && isEmpty(difference(twoSteps, one), 1e-9));
    // the frame's hole is filled by the block: nothing is left in it
    assert.ok(!contains(one, [40, 30]));
    assert.ok(contains(one, [5, 5]) && contains(one, [75, 30]));
  });
});
