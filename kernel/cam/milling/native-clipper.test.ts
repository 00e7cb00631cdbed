import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { booleanOp, clipOpenPaths, inflate, nativeHeapBytes, outersWithHoles } from "./native-clipper.ts";
import { area, bounds, disk, pathLength, pathOf, rectangle, SCALE } from "./polygons.ts";

const square = (min: number, max: number) => rectangle([min, min], [max, max]);

describe("Clipper2's C++ build", () => {
  it("unites, subtracts and intersects two overlapping squares to their exact areas", () => {
    const a = square(0, 10);
    const b = square(5, 15);
    assert.equal(area(booleanOp("union", a, b)), 175);
    assert.equal(area(booleanOp("difference", a, b)), 75);
    assert.equal(area(booleanOp("intersection", a, b)), 25);
  });

  it("gives negative coordinates back exactly, and refuses a point beyond ±2^31 units", () => {
    const a = rectangle([-12.3456, -7.0001], [-2.5, 3.25]);
    const back = booleanOp("union", a, []);
    assert.deepEqual(bounds(back), bounds(a));
    assert.equal(area(back), area(a));
    assert.throws(
      () =>
        booleanOp(
          "union",
          [
            [
              { x: 2 ** 31, y: 0 },
              { x: 0, y: 1 },
              { x: 0, y: 0 },
            ],
          ],
          [],
        ),
      RangeError,
    );
  });

  it("copies a long loop and a short one after it exactly, and refuses a bad point in a later loop of a region (the words the points cross in are reused)", () => {
    const long = disk([0, 0], 200, 0.00001);
    assert.ok((long[0]?.length ?? 0) > 5000);
    const negative = rectangle([-300, -300], [-290, -295]);
    const back = booleanOp("union", [...long, ...negative], []);
    assert.equal(area(back), area(long) + 50);
    assert.deepEqual(bounds(booleanOp("union", negative, [])), bounds(negative));
    assert.throws(
      () =>
        booleanOp(
          "union",
          [
            ...negative,
            [
              { x: 0, y: 0 },
              { x: -(2 ** 31), y: 1 },
              { x: 0, y: 1 },
            ],
          ],
          [],
        ),
      RangeError,
    );
    assert.throws(
      () =>
        inflate(
          [
            ...negative,
            [
              { x: 0, y: 0 },
              { x: Number.NaN, y: 1 },
              { x: 0, y: 1 },
            ],
          ],
          SCALE,
          "polygon",
          SCALE / 1000,
        ),
      RangeError,
    );
  });

  it("grows a square by 2 mm with round corners to within the arc tolerance of 100 + 80 + 4π mm²", () => {
    const grown = inflate(square(0, 10), 2 * SCALE, "polygon", 0.001 * SCALE);
    const exact = 100 + 4 * 10 * 2 + Math.PI * 4;
    const a = area(grown);
    assert.ok(a <= exact && a > exact - 0.001 * 60, `area ${a} against ${exact}`);
  });

  it("sweeps an open 10 mm line with a 1 mm disk into a stadium", () => {
    const swept = inflate(
      [
        pathOf([
          [0, 0],
          [10, 0],
        ]),
      ],
      SCALE,
      "round",
      0.001 * SCALE,
    );
    const exact = 10 * 2 + Math.PI;
    assert.ok(Math.abs(area(swept) - exact) < 0.01, `area ${area(swept)}`);
  });

  it("cuts an open line to what lies inside and outside a square", () => {
    const line = [
      pathOf([
        [-5, 5],
        [15, 5],
      ]),
    ];
    const inside = clipOpenPaths(line, square(0, 10), "inside");
    const outside = clipOpenPaths(line, square(0, 10), "outside");
    assert.equal(
      inside.reduce((sum, p) => sum + pathLength(p), 0),
      10,
    );
    assert.equal(
      outside.reduce((sum, p) => sum + pathLength(p), 0),
      10,
    );
    assert.equal(outside.length, 2);
  });

  it("splits a frame with an island in its hole into two pieces: the frame with its hole, and the island", () => {
    const frame = booleanOp("difference", square(0, 30), square(5, 25));
    const pieces = outersWithHoles(booleanOp("union", frame, square(10, 20)));
    assert.equal(pieces.length, 2);
    const sizes = pieces.map((piece) => piece.length).sort();
    assert.deepEqual(sizes, [1, 2]);
    const areas = pieces.map((piece) => area(piece)).sort((x, y) => x - y);
    assert.deepEqual(areas, [100, 900 - 400]);
  });

  it("frees what it made, refused calls included: 2,000 more rounds of calls on 1,200-vertex disks (over 100 MB if kept) leave the WASM heap as large as it was", () => {
    const a = disk([0, 0], 30, 0.0001);
    const b = disk([10, 0], 30, 0.0001);
    assert.ok((a[0]?.length ?? 0) > 1000);
    const far = [
      [
        { x: 2 ** 31, y: 0 },
        { x: 0, y: 1 },
        { x: 0, y: 0 },
      ],
    ];
    const round = (): void => {
      booleanOp("union", a, b);
      inflate(a, 2 * SCALE, "polygon", 0.003 * SCALE);
      clipOpenPaths(
        [
          pathOf([
            [-40, 0],
            [40, 0],
          ]),
        ],
        a,
        "inside",
      );
      outersWithHoles(a);
      // refused after the first region was copied in: that copy is freed too
      assert.throws(() => booleanOp("union", a, far), RangeError);
      assert.throws(
        () =>
          clipOpenPaths(
            [
              pathOf([
                [-40, 0],
                [40, 0],
              ]),
            ],
            far,
            "inside",
          ),
        RangeError,
      );
    };
    for (let i = 0; i < 200; i += 1) round();
    const before = nativeHeapBytes();
    for (let i = 0; i < 2000; i += 1) round();
    assert.equal(nativeHeapBytes(), before);
  });
});
