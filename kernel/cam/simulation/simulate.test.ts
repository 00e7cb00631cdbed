import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Box3, Move } from "../types.ts";
import { TEST_VISE } from "../../workholding/test-support.ts";
import { viseLayout } from "../../workholding/vise-geometry.ts";
import { fixtureBoxes } from "./fixtures.ts";
import { heightAt } from "./height-field.ts";
import { SetupRun, simulateSetup } from "./simulate.ts";
import { boxesSoup, cutter, feed, near, NO_PART, operation, rapid, zigzag } from "./test-support.ts";

// a 60 x 40 x 20 block in its setup frame, and a part that is the block with a pocket 40 x 20
// x 8 deep at x 10..50, y 10..30
const stock: Box3 = { min: [0, 0, -20], max: [60, 40, 0] };
const pocketed = boxesSoup([
  { min: [0, 0, -20], max: [60, 40, -8] },
  { min: [0, 0, -8], max: [10, 40, 0] },
  { min: [50, 0, -8], max: [60, 40, 0] },
  { min: [10, 0, -8], max: [50, 10, 0] },
  { min: [10, 30, -8], max: [50, 40, 0] },
]);
const endMill = cutter("flat", 10);

/**
 * The pocket cleared by a 10 mm end mill in levels of `step` down to `depth`: zigzag, then
 * round the pocket to take the cusps the zigzag leaves at its ends.
 */
function pocketMoves(depth: number, step: number): Move[] {
  const moves: Move[] = [rapid(15, 15, 5)];
  for (let z = -step; z >= -depth - 1e-9; z -= step) {
    moves.push(
      feed(15, 15, z),
      ...zigzag(15, 45, [15, 20, 25], z),
      feed(45, 15, z),
      feed(15, 15, z),
      feed(15, 25, z),
      rapid(15, 25, 5),
      rapid(15, 15, 5),
    );
  }
  return moves;
}

describe("simulateSetup", () => {
  it("leaves exactly the four corners a 10 mm end mill cannot reach when it clears a pocket", () => {
    const result = simulateSetup({ stock, part: pocketed, operations: [operation(endMill, pocketMoves(8, 4))] });
    // each corner keeps a square of 5 mm less a quarter disc of 5 mm, 8 deep
    const corners = 4 * (25 - (Math.PI * 25) / 4) * 8;
    // the corners' arcs run through cells: a cell's width along their 31 mm, 8 deep
    near(result.total.material_left_mm3, corners, 4 * (Math.PI / 2) * 5 * 0.1 * 8, "material left");
    near(result.removable_mm3, 40 * 20 * 8, 1e-6, "removable volume");
    near(result.total.material_left_pct, (100 * result.total.material_left_mm3) / 6400, 1e-9, "percentage");
    assert.deepEqual(
      [result.total.gouges, result.total.rapids_through_material, result.total.holder_collisions],
      [0, 0, 0],
    );
    assert.equal(result.cells, 600 * 400);
  });

  it("leaves every removable millimetre when there are no moves, and nothing when the stock is the part", () => {
    const untouched = simulateSetup({ stock, part: pocketed, operations: [] });
    near(untouched.total.material_left_mm3, 6400, 1e-6, "untouched pocket");
    near(untouched.total.material_left_pct, 100, 1e-9, "untouched percentage");
    const solid = simulateSetup({ stock, part: boxesSoup([stock]), operations: [] });
    assert.equal(solid.removable_mm3, 0);
    assert.equal(solid.total.material_left_pct, 0);
  });

  it("catches a floor pass 0.05 mm into the part as one gouge and lets one 0.005 mm into it pass", () => {
    const retraced = [
      feed(15, 25, -8.05),
      feed(15, 20, -8.05),
      feed(45, 20, -8.05),
      feed(45, 15, -8.05),
      feed(15, 15, -8.05),
    ];
    const deep = operation(endMill, [
      ...pocketMoves(8, 4),
      feed(15, 15, -8.05),
      ...zigzag(15, 45, [15, 20, 25], -8.05),
      ...retraced,
    ]);
    const result = simulateSetup({ stock, part: pocketed, operations: [deep] });
    // the plunge and the five passes that go anywhere at -8.05 gouge, one count per move; going
    // back the same way cuts nothing new
    assert.equal(result.total.gouges, 6);
    const first = result.violations.find((v) => v.kind === "gouge");
    assert.ok(first);
    assert.equal(first.operation_id, deep.id);
    assert.equal(first.move_index, pocketMoves(8, 4).length);
    near(first.depth_mm, 0.05, 1e-5, "gouge depth");
    near(first.position[2], -8.05, 1e-5, "gouge z");

    const shallow = operation(endMill, [
      ...pocketMoves(8, 4),
      feed(15, 15, -8.005),
      ...zigzag(15, 45, [15, 20, 25], -8.005),
    ]);
    assert.equal(simulateSetup({ stock, part: pocketed, operations: [shallow] }).total.gouges, 0);
  });

  it("counts a gouged floor once: passes retracing it at the same depth (stored rounded up) add none", () => {
    // Float32 holds -8.04 as a hair above it: the retrace must not read that as material to cut
    assert.ok(Math.fround(-8.04) > -8.04);
    const pass = [feed(15, 15, -8.04), feed(45, 15, -8.04), feed(45, 25, -8.04)];
    const back = [feed(45, 15, -8.04), feed(15, 15, -8.04)];
    const result = simulateSetup({
      stock,
      part: pocketed,
      operations: [operation(endMill, [...pocketMoves(8, 4), ...pass, ...back, ...pass.slice(1)])],
    });
    assert.equal(result.total.gouges, 3);
  });

  it("catches a wall pass 0.3 mm into the part, and not the same pass touching the wall", () => {
    const wallPass = (offset: number) =>
      operation(endMill, [
        ...pocketMoves(8, 4),
        rapid(15, 25 + offset, 5),
        feed(15, 25 + offset, -8),
        feed(45, 25 + offset, -8),
      ]);
    const into = simulateSetup({ stock, part: pocketed, operations: [wallPass(0.3)] });
    // the plunge by the wall, and the pass along it
    assert.equal(into.total.gouges, 2);
    // seen from above, a wall gouge is as deep as the wall is high
    near(into.violations[0]?.depth_mm ?? NaN, 8, 1e-5, "wall gouge depth");
    assert.equal(simulateSetup({ stock, part: pocketed, operations: [wallPass(0)] }).total.gouges, 0);
  });

  it("catches a rapid through the stock and not a rapid above it or through the cleared pocket", () => {
    const moves = [
      ...pocketMoves(8, 4),
      rapid(15, 20, -6),
      rapid(45, 20, -6),
      rapid(45, 20, 1),
      rapid(-10, 20, 1),
      rapid(-10, 20, -2),
      rapid(70, 20, -2),
    ];
    const result = simulateSetup({ stock, part: pocketed, operations: [operation(endMill, moves)] });
    assert.equal(result.total.rapids_through_material, 1);
    const through = result.violations.find((v) => v.kind === "rapid_through_material");
    assert.equal(through?.move_index, moves.length - 1);
    near(through?.depth_mm ?? NaN, 2, 1e-6, "how far below the stock's top");
    // rapids never cut: the stock it went through is still there
    near(heightAt(result.field, 5, 20), 0, 0, "stock top after the rapid");
  });

  it("reports the holder of a short stick-out tool in a pocket deeper than its flutes, and not of a long one", () => {
    const short = cutter("flat", 10, {
      flute_length: 6,
      stick_out: 12,
      holder: [{ length: 30, lower_diameter: 30, upper_diameter: 30 }],
    });
    const long = { ...short, stick_out: 30 };
    const deepPocket = boxesSoup([
      { min: [0, 0, -20], max: [60, 40, -15] },
      { min: [0, 0, -15], max: [10, 40, 0] },
      { min: [50, 0, -15], max: [60, 40, 0] },
      { min: [10, 0, -15], max: [50, 10, 0] },
      { min: [10, 30, -15], max: [50, 40, 0] },
    ]);
    const hit = simulateSetup({ stock, part: deepPocket, operations: [operation(short, pocketMoves(15, 5))] });
    assert.ok(hit.total.holder_collisions > 0);
    const collision = hit.violations.find((v) => v.kind === "holder_collision");
    assert.equal(collision?.body, "holder");
    // the holder's face at -15 + 12 = -3 against the pocket's top at 0
    near(collision?.depth_mm ?? NaN, 3, 1e-6, "overlap");
    const clear = simulateSetup({ stock, part: deepPocket, operations: [operation(long, pocketMoves(15, 5))] });
    assert.equal(clear.total.holder_collisions, 0);
    assert.equal(clear.total.gouges, 0);
  });

  it("reports the shank of a tool fed sideways deeper than its flutes, and leaves the material it could not cut", () => {
    const stubby = cutter("flat", 10, { flute_length: 6, stick_out: 40 });
    const result = simulateSetup({
      stock,
      part: NO_PART,
      operations: [operation(stubby, [rapid(-10, 20, 5), rapid(-10, 20, -8), feed(70, 20, -8)])],
    });
    assert.equal(result.total.holder_collisions, 1);
    const collision = result.violations[0];
    assert.equal(collision?.body, "shank");
    near(collision?.depth_mm ?? NaN, 2, 1e-6, "shank overlap");
    near(heightAt(result.field, 30, 20), 0, 0, "material above the flutes");
  });

  it("counts a shank rubbing the stock on every one of a polyline's short moves that reaches it, to the last", () => {
    const stubby = cutter("flat", 10, { flute_length: 6, stick_out: 40 });
    // 0.5 mm moves along y = 20 at -8 from x = -10 to 70: the shank (radius 5, 6 above the tip)
    // reaches cell centres of the stock (x 0.05 to 59.95) from the move at x -5 to the one at 64.5
    const moves: Move[] = [rapid(-10, 20, 5), rapid(-10, 20, -8)];
    for (let k = 1; k <= 160; k++) moves.push(feed(-10 + 0.5 * k, 20, -8));
    const result = simulateSetup({ stock, part: NO_PART, operations: [operation(stubby, moves)] });
    assert.equal(result.total.holder_collisions, 140);
    assert.equal(result.total.gouges, 0);
  });

  it("plunges a ball and a drill and leaves their profiles: r - sqrt(r² - d²) and d / tan(59°) above the tip", () => {
    const ball = cutter("ball", 10),
      drill = cutter("drill", 8);
    const result = simulateSetup({
      stock,
      part: NO_PART,
      operations: [
        operation(ball, [rapid(20.05, 20.05, 5), feed(20.05, 20.05, -6)]),
        operation(drill, [rapid(40.05, 20.05, 5), feed(40.05, 20.05, -10)]),
      ],
    });
    const f = result.field;
    near(heightAt(f, 20.05, 20.05), -6, 1e-6, "ball tip");
    near(heightAt(f, 23.05, 20.05), -6 + 5 - 4, 1e-5, "ball at 3 mm");
    near(heightAt(f, 20.05, 24.55), -6 + 5 - Math.sqrt(25 - 4.5 * 4.5), 1e-5, "ball at 4.5 mm");
    near(heightAt(f, 25.15, 20.05), 0, 0, "beyond the ball");
    near(heightAt(f, 40.05, 20.05), -10, 1e-6, "drill point");
    near(heightAt(f, 42.05, 20.05), -10 + 2 / Math.tan((59 * Math.PI) / 180), 1e-5, "drill at 2 mm");
    // a removed volume to compare: the ball's 6 mm deep: cylinder 1 mm plus a hemisphere
    // (the drill's cone is 2.4 mm tall: a cylinder above and a cone)
    const cone = (Math.PI * 16 * (4 / Math.tan((59 * Math.PI) / 180))) / 3;
    const drillVolume = Math.PI * 16 * (10 - 4 / Math.tan((59 * Math.PI) / 180)) + cone;
    const ballVolume = Math.PI * 25 * 1 + (2 / 3) * Math.PI * 125;
    near(
      result.removable_mm3 - result.total.material_left_mm3,
      ballVolume + drillVolume,
      0.02 * (ballVolume + drillVolume),
      "removed volume",
    );
  });

  it("sweeps a ball down a ramp to its capsule: r √(1 + k²) below the centre line, not r", () => {
    const result = simulateSetup({
      stock,
      part: NO_PART,
      operations: [
        operation(cutter("ball", 10), [rapid(10.05, 20.05, 5), feed(10.05, 20.05, 0), feed(50.05, 20.05, -4)]),
      ],
    });
    // at x = 30.05 the centre is at -2 + 5; the slope k is 0.1
    near(heightAt(result.field, 30.05, 20.05), -2 + 5 - 5 * Math.sqrt(1.01), 1e-5, "ramp floor");
  });

  it("sweeps a drill down a ramp to the lower envelope of its cone (found numerically)", () => {
    const result = simulateSetup({
      stock,
      part: NO_PART,
      operations: [
        operation(cutter("drill", 8), [rapid(10.05, 20.05, 5), feed(10.05, 20.05, 0), feed(50.05, 20.05, -4)]),
      ],
    });
    const c = 1 / Math.tan((59 * Math.PI) / 180),
      k = 0.1;
    near(heightAt(result.field, 30.05, 20.05), -2, 1e-5, "on the centre line");
    // off it by e: min over s of -k s + c sqrt(s² + e²) = e sqrt(c² - k²)
    near(heightAt(result.field, 30.05, 21.55), -2 + 1.5 * Math.sqrt(c * c - k * k), 1e-4, "1.5 mm off the centre line");
  });

  it("expands a peck drilling cycle: every hole to its depth, no rapid through material, nothing between the holes", () => {
    const drill = cutter("drill", 6);
    const cycle: Move = {
      kind: "drill",
      cycle: "peck",
      at: [
        [10.05, 10.05],
        [30.05, 10.05],
        [50.05, 30.05],
      ],
      retract_z: 2,
      top_z: 0,
      bottom_z: -12,
      peck_mm: 3,
      dwell_s: 0,
      feed: 200,
    };
    const result = simulateSetup({
      stock,
      part: NO_PART,
      operations: [operation(drill, [cycle, rapid(50.05, 30.05, 5)])],
    });
    for (const [x, y] of [
      [10.05, 10.05],
      [30.05, 10.05],
      [50.05, 30.05],
    ] as const) {
      near(heightAt(result.field, x, y), -12, 1e-6, `hole at ${x}, ${y}`);
      near(
        heightAt(result.field, x + 2, y),
        -12 + 2 / Math.tan((59 * Math.PI) / 180),
        1e-5,
        `hole wall near ${x}, ${y}`,
      );
    }
    near(heightAt(result.field, 20.05, 10.05), 0, 0, "between the holes");
    assert.equal(result.total.rapids_through_material, 0);
    const lowR = simulateSetup({ stock, part: NO_PART, operations: [operation(drill, [{ ...cycle, retract_z: -1 }])] });
    // with the R plane in the material the rapid down to it goes through (once per cycle)
    assert.equal(lowR.total.rapids_through_material, 1);
    assert.equal(lowR.violations[0]?.hole, 0);
  });

  it("pecks through a stock whose bottom is no float32 number without a rapid through material below it", () => {
    // a NIST part's stock bottom: float32 rounds it up, and an emptied column must read as empty
    const deep: Box3 = { min: [0, 0, -99.79000362354033], max: [60, 40, 0] };
    const drill = cutter("drill", 6);
    const through: Move = {
      kind: "drill",
      cycle: "peck",
      at: [[30.05, 20.05]],
      retract_z: 2,
      top_z: 0,
      bottom_z: -103,
      peck_mm: 3,
      dwell_s: 0,
      feed: 200,
    };
    const result = simulateSetup({
      stock: deep,
      part: NO_PART,
      operations: [operation(drill, [through, rapid(30.05, 20.05, 5)])],
    });
    assert.equal(result.total.rapids_through_material, 0);
    assert.ok(heightAt(result.field, 30.05, 20.05) <= deep.min[2] + 1e-5, "the hole is through");
  });

  it("bores a round hole of 11 mm with helical arcs of a 6 mm end mill, to within one cell", () => {
    const [cx, cy] = [30, 20];
    const moves: Move[] = [rapid(cx + 2.5, cy, 5), feed(cx + 2.5, cy, 0.5)];
    for (let z = -0.5; z >= -6; z -= 0.5)
      moves.push({ kind: "arc", to: [cx + 2.5, cy, z], centre: [cx, cy], clockwise: false, feed: 500 });
    moves.push({ kind: "arc", to: [cx + 2.5, cy, -6], centre: [cx, cy], clockwise: true, feed: 500 });
    const result = simulateSetup({ stock, part: NO_PART, operations: [operation(cutter("flat", 6), moves)] });
    const f = result.field;
    for (const angle of [0, 0.4, 1.3, 2.2, 3.6, 5]) {
      // walk out from the centre along a ray until the floor ends
      let r = 0;
      while (heightAt(f, cx + r * Math.cos(angle), cy + r * Math.sin(angle)) <= -6 + 1e-6) r += 0.01;
      near(2 * r, 11, 2 * Math.hypot(f.dx, f.dy), `diameter at ${angle} rad`);
    }
    near(heightAt(f, cx, cy), -6, 1e-6, "centre of the hole");
  });

  it("continues from an initial height field: a second run of the same pass cuts nothing more", () => {
    const first = simulateSetup({ stock, part: pocketed, operations: [operation(endMill, pocketMoves(8, 4))] });
    const again = simulateSetup({
      stock,
      part: pocketed,
      operations: [operation(endMill, pocketMoves(8, 4))],
      initial: first.field,
      partHeights: first.part,
    });
    assert.deepEqual(again.field.heights, first.field.heights);
    assert.notEqual(again.field.heights, first.field.heights);
    assert.throws(
      () => simulateSetup({ stock, part: pocketed, operations: [], initial: first.field, cellSize: 0.2 }),
      RangeError,
    );
  });

  it("gives the same result fed an operation's moves in pieces as fed them whole, gouges included", () => {
    const clearing = operation(endMill, pocketMoves(8, 4));
    // 0.05 mm into the pocket's floor
    const gouging = operation(endMill, [
      rapid(15, 15, 5),
      feed(15, 15, -8.05),
      ...zigzag(15, 45, [15, 25], -8.05),
      rapid(15, 25, 5),
    ]);
    const whole = simulateSetup({ stock, part: pocketed, operations: [clearing, gouging] });
    const run = new SetupRun({ stock, part: pocketed });
    for (const op of [clearing, gouging]) {
      run.begin(op);
      // nothing, then one move, then the rest in threes
      run.feed([]);
      run.feed(op.moves.slice(0, 1));
      for (let i = 1; i < op.moves.length; i += 3) run.feed(op.moves.slice(i, i + 3));
      run.end();
    }
    const pieces = run.result();
    assert.ok(whole.total.gouges > 0);
    assert.deepEqual(pieces.total, whole.total);
    assert.deepEqual(pieces.operations, whole.operations);
    assert.deepEqual(pieces.violations, whole.violations);
    assert.deepEqual(pieces.field.heights, whole.field.heights);
  });

  it("ends an operation unmeasured with the counts, violations and stock a measured end gives", () => {
    const gouging = operation(endMill, [
      rapid(15, 15, 5),
      feed(15, 15, -8.05),
      ...zigzag(15, 45, [15, 25], -8.05),
      rapid(15, 25, 5),
    ]);
    const measured = simulateSetup({ stock, part: pocketed, operations: [gouging] });
    const run = new SetupRun({ stock, part: pocketed });
    run.begin(gouging);
    run.feed(gouging.moves);
    const { counts, violations } = run.endUnmeasured();
    const { material_left_mm3, material_left_pct, ...measuredCounts } = measured.total;
    assert.deepEqual(counts, measuredCounts);
    assert.ok(counts.gouges > 0 && material_left_mm3 > 0 && material_left_pct > 0);
    assert.deepEqual(violations, measured.violations);
    assert.deepEqual(run.field.heights, measured.field.heights);
  });

  describe("with the workholding", () => {
    // the block held 5 mm deep in the test vise: the jaws' top at -15, the fixed jaw at y 40..60
    const layout = viseLayout(TEST_VISE, stock, 5);
    const fixtures = fixtureBoxes({
      jaws: [layout.jaws.fixed, layout.jaws.moving],
      supports: layout.supports,
      clamps: [],
    });
    const pocket = operation(endMill, pocketMoves(8, 4));
    // down beside the block's +y face, the tool's edge on it, 3 mm into the jaws' band
    const intoTheJaw = operation(endMill, [rapid(10, 45, 5), feed(10, 45, -18), feed(50, 45, -18), rapid(50, 45, 5)]);

    it("counts each move that comes within 1 mm of a box and names the box", () => {
      const result = simulateSetup({ stock, part: pocketed, operations: [pocket, intoTheJaw], fixtures });
      assert.equal(result.total.workholding_collisions, 3, "down, along and up");
      assert.deepEqual(
        result.operations.map((op) => op.workholding_collisions),
        [0, 3],
      );
      const first = result.violations.find((v) => v.kind === "workholding_collision");
      assert.equal(first?.fixture, "fixed jaw");
      assert.equal(first?.body, null, "the flutes");
      assert.equal(first?.move_index, 1);
      near(first?.depth_mm ?? 0, -15 + 1 - -18, 1e-6, "below the jaw's top plus the clearance");
      assert.ok(result.violations.every((v) => (v.kind === "workholding_collision") === (v.fixture !== undefined)));
    });

    it("changes nothing else: the stock, the other violations and counts are those of a run without it", () => {
      const operations = [pocket, intoTheJaw];
      const without = simulateSetup({ stock, part: pocketed, operations });
      const withIt = simulateSetup({ stock, part: pocketed, operations, fixtures });
      assert.deepEqual(Object.keys(without.total), [
        "gouges",
        "rapids_through_material",
        "holder_collisions",
        "material_left_mm3",
        "material_left_pct",
      ]);
      assert.deepEqual(withIt.field, without.field);
      assert.deepEqual(
        withIt.violations.filter((v) => v.kind !== "workholding_collision"),
        without.violations,
      );
      const { workholding_collisions: _total, ...total } = withIt.total;
      assert.deepEqual(total, without.total);
      assert.deepEqual(
        withIt.operations.map(({ workholding_collisions: _op, ...op }) => op),
        without.operations,
      );
    });
  });
});
