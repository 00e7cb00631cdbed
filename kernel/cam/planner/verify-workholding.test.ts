/**
 * The verification with the workholding (issue 35): partC (its STL) in its stock from +Z, held
 * 5 mm deep in the test vise. An operation that runs along the stock's side into the fixed jaw
 * is dropped and named; the same pass above the jaws is kept. The planner's thread and the
 * simulation thread agree, and a setup without fixtures verifies as before.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TEST_VISE } from "../../workholding/test-support.ts";
import { viseLayout } from "../../workholding/vise-geometry.ts";
import { boxToFrame, setupFrame } from "../frames.ts";
import { PART_C_STOCK, partCFrom } from "../milling/test-support.ts";
import type { Judgement, OperationCheck, SimulatedSetup, VerifiedSetup } from "../plan-types.ts";
import { fixtureBoxes } from "../simulation/fixtures.ts";
import { cutter, feed, operation, rapid, zigzag } from "../simulation/test-support.ts";
import type { Move, Operation } from "../types.ts";
import { InlineChecks } from "./verify.ts";
import { ThreadedChecks } from "./verify-thread.ts";

const UP: [number, number, number] = [0, 0, 1];
// x 0..91.6, y 0..50.7, z -31.6..0; the jaws' top at -26.6, the fixed jaw at y 50.7..70.7
const stock = boxToFrame(setupFrame(UP, PART_C_STOCK), PART_C_STOCK);
const layout = viseLayout(TEST_VISE, stock, 5);
const plain: SimulatedSetup = { name: "+Z", stock, soup: partCFrom(UP), holes: [] };
const held: SimulatedSetup = {
  ...plain,
  fixtures: fixtureBoxes({ ...layout, jaws: [layout.jaws.fixed, layout.jaws.moving], clamps: [] }),
};
const endMill = cutter("flat", 10);

/** Along the stock's +y side at z, the tool's edge on the stock's face: over the fixed jaw. */
const alongTheSide = (z: number): Move[] => {
  const y = stock.max[1] + 5;
  return [rapid(20, y, 5), feed(20, y, z), feed(70, y, z), rapid(70, y, 5)];
};
/** 0.3 mm off the stock's top (partC's top is 0.6 mm below it). */
const facing = operation(endMill, [rapid(5, 5, 5), ...zigzag(5, 85, [5, 13, 21, 29, 37, 45], -0.3), rapid(5, 45, 5)]);
const intoTheJaw = operation(endMill, alongTheSide(-29));
const aboveTheJaw = operation(endMill, alongTheSide(-20));
const submissions = [facing, intoTheJaw, aboveTheJaw];

function run(checks: OperationCheck, operations: Operation[]): { verdicts: string[]; result: VerifiedSetup } {
  try {
    for (const operation of operations) checks.submit(operation, false);
    const verdicts: string[] = [];
    for (let judgement: Judgement | null = checks.next(true); judgement !== null; judgement = checks.next(true))
      verdicts.push(judgement.verdict);
    return { verdicts, result: checks.result() };
  } finally {
    checks.close();
  }
}

describe("verification with the workholding", () => {
  it("names the boxes as the summary orders them", () => {
    assert.deepEqual(
      held.fixtures?.map((f) => f.name),
      ["fixed jaw", "moving jaw", "parallel 1", "parallel 2"],
    );
    assert.deepEqual(
      fixtureBoxes({ jaws: [], supports: [], clamps: [stock, stock] }).map((f) => f.name),
      ["clamp 1", "clamp 2"],
    );
  });

  it("drops the operation that comes into a jaw, naming the body, the box and the first position, and keeps the one above it", () => {
    const { verdicts, result } = run(new InlineChecks(held, null), submissions);
    assert.deepEqual(verdicts, ["kept", "dropped", "kept"]);
    assert.deepEqual(result.operations, [facing, aboveTheJaw]);
    assert.equal(result.dropped.length, 1);
    const dropped = result.dropped[0];
    assert.equal(dropped?.code, "operation_dropped");
    // down into the jaw, along it and back up: 3 moves; 3.4 mm below the jaw's top plus 1 mm, at the
    // plunge's worst cell (within the tool's radius of x 20, inside the fixed jaw's clearance, y > 49.7)
    assert.match(
      dropped?.message ?? "",
      /^setup \+Z: test operation \d+ was dropped: 3 moves bring the cutter within 1 mm of the fixed jaw \(first at 1\d\.\d+, 5\d\.\d+, -29, 3\.4 mm deep\); what it would have cut is left$/,
    );
    assert.deepEqual(result.verification.workholding_collisions, 0, "a kept operation has none");
  });

  it("gives the same verdicts, drops and stock on the simulation thread", () => {
    const inline = run(new InlineChecks(held, null), submissions);
    const threaded = run(new ThreadedChecks(held, null), submissions);
    assert.deepEqual(threaded.verdicts, inline.verdicts);
    assert.deepEqual(threaded.result.operations, inline.result.operations);
    assert.deepEqual(threaded.result.dropped, inline.result.dropped);
    assert.deepEqual(threaded.result.verification, inline.result.verification);
    assert.deepEqual(threaded.result.field, inline.result.field);
  });

  it("changes nothing without fixtures: no count, and the kept operations' stock as with them", () => {
    for (const checks of [new InlineChecks(plain, null), new ThreadedChecks(plain, null)]) {
      const { verdicts, result } = run(checks, submissions);
      assert.deepEqual(verdicts, ["kept", "kept", "kept"], "nothing holds the stock: the pass into the jaw is air");
      assert.deepEqual(Object.keys(result.verification), [
        "gouges",
        "rapids_through_material",
        "holder_collisions",
        "material_left_mm3",
        "material_left_pct",
      ]);
    }
    const without = run(new InlineChecks(plain, null), [facing, aboveTheJaw]).result;
    const withFixtures = run(new InlineChecks(held, null), [facing, aboveTheJaw]).result;
    assert.deepEqual(withFixtures.field, without.field);
    assert.deepEqual(withFixtures.verification, { ...without.verification, workholding_collisions: 0 });
    assert.deepEqual(withFixtures.operations, without.operations);
    assert.deepEqual(withFixtures.dropped, without.dropped);
  });
});
