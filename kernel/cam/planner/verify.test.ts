import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TEST_VISE } from "../../workholding/test-support.ts";
import { viseLayout } from "../../workholding/vise-geometry.ts";
import { boxToFrame, setupFrame } from "../frames.ts";
import { PART_C_STOCK, partCFrom } from "../milling/test-support.ts";
import { fixtureBoxes } from "../simulation/fixtures.ts";
import { boxesSoup, cutter, feed, operation, rapid, zigzag } from "../simulation/test-support.ts";
import type { Judgement, OperationCheck, SimulatedSetup, VerifiedSetup } from "../plan-types.ts";
import type { Box3, Move, Operation } from "../types.ts";
import { InlineChecks, verifySetup } from "./verify.ts";
import { runningSimulationThread, ThreadedChecks } from "./verify-thread.ts";

// a 60 x 40 x 20 block with a pocket 40 x 20 x 8 deep at x 10..50, y 10..30
const stock: Box3 = { min: [0, 0, -20], max: [60, 40, 0] };
const setup: SimulatedSetup = {
  name: "+Z",
  stock,
  soup: boxesSoup([
    { min: [0, 0, -20], max: [60, 40, -8] },
    { min: [0, 0, -8], max: [10, 40, 0] },
    { min: [50, 0, -8], max: [60, 40, 0] },
    { min: [10, 0, -8], max: [50, 10, 0] },
    { min: [10, 30, -8], max: [50, 40, 0] },
  ]),
  holes: [],
};
const endMill = cutter("flat", 10);

/** One level of the pocket at z, from a rapid above it. */
const level = (z: number): Move[] => [
  rapid(15, 15, 5),
  feed(15, 15, z),
  ...zigzag(15, 45, [15, 20, 25], z),
  rapid(45, 25, 5),
];

/** Everything submitted, every verdict read, and the setup's result. */
function run(
  checks: OperationCheck,
  submissions: { operation: Operation; speculative: boolean }[],
): { verdicts: string[]; result: VerifiedSetup } {
  try {
    for (const { operation, speculative } of submissions) checks.submit(operation, speculative);
    const verdicts: string[] = [];
    for (let judgement: Judgement | null = checks.next(true); judgement !== null; judgement = checks.next(true))
      verdicts.push(judgement.verdict);
    return { verdicts, result: checks.result() };
  } finally {
    checks.close();
  }
}

describe("speculative verification", () => {
  const first = operation(endMill, level(-4));
  const gouging = operation(endMill, level(-9));
  const madeOnTheGouge = operation(endMill, level(-8));
  const holeLike = operation(endMill, level(-6));
  const submissions = [
    { operation: first, speculative: true },
    // 1 mm into the pocket's floor: dropped
    { operation: gouging, speculative: true },
    // made on the stock the dropped one would have left: void, no verdict
    { operation: madeOnTheGouge, speculative: true },
    // made from the stock before any of them: judged whatever was dropped
    { operation: holeLike, speculative: false },
  ];

  it("voids the speculative operations after a dropped one and judges the others, in this thread", () => {
    const { verdicts, result } = run(new InlineChecks(setup, null), submissions);
    assert.deepEqual(verdicts, ["kept", "dropped", "kept"]);
    assert.deepEqual(result.operations, [first, holeLike]);
    assert.equal(result.dropped.length, 1);
    assert.match(result.dropped[0]?.message ?? "", /gouge the part/);
    // what the dropped one cut, 1 mm into the floor, is put back: the stock the kept ones leave
    const keptAlone = verifySetup(setup, [first, holeLike]);
    assert.deepEqual(result.field, keptAlone.field);
    assert.deepEqual(result.verification, keptAlone.verification);
  });

  it("gives the same verdicts and the same stock on the simulation thread", () => {
    const inline = run(new InlineChecks(setup, null), submissions);
    const threaded = run(new ThreadedChecks(setup, null), submissions);
    assert.deepEqual(threaded.verdicts, inline.verdicts);
    // the planner's own operations, not copies
    assert.equal(threaded.result.operations[1], holeLike);
    assert.deepEqual(threaded.result.operations, inline.result.operations);
    // the kept ones' engagement, none of the dropped one's: the first level slots into the block
    assert.deepEqual(Object.keys(inline.result.engagement), [first.id, holeLike.id]);
    assert.equal(inline.result.engagement[first.id]?.angle_max_deg, 180);
    assert.deepEqual(threaded.result.engagement, inline.result.engagement);
    assert.deepEqual(threaded.result.dropped, inline.result.dropped);
    assert.deepEqual(threaded.result.verification, inline.result.verification);
    assert.deepEqual(threaded.result.field, inline.result.field);
  });

  it("judges operations streamed in pieces as it judges them whole, voids one streamed on a dropped one and forgets a discarded one", () => {
    const inline = run(new InlineChecks(setup, null), submissions);
    const checks = new ThreadedChecks(setup, null);
    try {
      // as a roughing streams its levels: the moves so far, then the whole operation
      checks.stream({ ...first, moves: first.moves.slice(0, 3) }, true);
      checks.stream(first, true);
      checks.submit(first, true);
      checks.submit(gouging, true);
      checks.stream({ ...madeOnTheGouge, moves: madeOnTheGouge.moves.slice(0, 2) }, true);
      checks.submit(madeOnTheGouge, true);
      // a generator that made nothing in the end
      checks.stream({ ...operation(endMill, level(-2)), moves: level(-2).slice(0, 4) }, true);
      checks.discard();
      checks.submit(holeLike, false);
      const verdicts: string[] = [];
      for (let judgement = checks.next(true); judgement !== null; judgement = checks.next(true))
        verdicts.push(judgement.verdict);
      assert.deepEqual(verdicts, inline.verdicts);
      const result = checks.result();
      assert.deepEqual(result.operations, inline.result.operations);
      // nothing of the discarded one's moves is left in the stock either
      assert.deepEqual(result.field, verifySetup(setup, [first, holeLike]).field);
      assert.deepEqual(result.field, inline.result.field);
      assert.deepEqual(result.verification, inline.result.verification);
    } finally {
      checks.close();
    }
  });

  it("passes a failure of the simulation on to the planner", () => {
    const broken = new ThreadedChecks({ ...setup, stock: { min: [0, 0, 0], max: [0, 0, 0] } }, null);
    try {
      broken.submit(first, true);
      assert.throws(() => broken.next(true), /the stock simulation failed: the stock box is empty/);
    } finally {
      broken.close();
    }
  });

  it("fails the plan, not hangs it, when the simulation thread dies under it", async () => {
    const checks = new ThreadedChecks(setup, null, undefined, 300);
    try {
      checks.submit(first, true);
      assert.equal(checks.next(true)?.verdict, "kept");
      // as a thread out of memory goes: without a word
      await runningSimulationThread()?.terminate();
      checks.submit(holeLike, true);
      const started = performance.now();
      assert.throws(() => checks.next(true), /the stock simulation stopped: its thread did nothing for 0.3 s/);
      assert.ok(performance.now() - started < 5000);
    } finally {
      checks.close();
    }
    // the next setup gets a new thread
    assert.deepEqual(run(new ThreadedChecks(setup, null), submissions).verdicts, ["kept", "dropped", "kept"]);
  });
});

// The verification with the workholding (issue 35): partC (its STL) in its stock from +Z, held
// 5 mm deep in the test vise. An operation that runs along the stock's side into the fixed jaw is
// dropped and named; the same pass above the jaws is kept. The planner's thread and the
// simulation thread agree, and a setup without fixtures verifies as before.
const UP: [number, number, number] = [0, 0, 1];
// x 0..91.6, y 0..50.7, z -31.6..0; the jaws' top at -26.6, the fixed jaw at y 50.7..70.7
const heldStock = boxToFrame(setupFrame(UP, PART_C_STOCK), PART_C_STOCK);
const layout = viseLayout(TEST_VISE, heldStock, 5);
const plainSetup: SimulatedSetup = { name: "+Z", stock: heldStock, soup: partCFrom(UP), holes: [] };
const held: SimulatedSetup = {
  ...plainSetup,
  fixtures: fixtureBoxes({ ...layout, jaws: [layout.jaws.fixed, layout.jaws.moving], clamps: [] }),
};

/** Along the stock's +y side at z, the tool's edge on the stock's face: over the fixed jaw. */
const alongTheSide = (z: number): Move[] => {
  const y = heldStock.max[1] + 5;
  return [rapid(20, y, 5), feed(20, y, z), feed(70, y, z), rapid(70, y, 5)];
};
/** 0.3 mm off the stock's top (partC's top is 0.6 mm below it). */
const facing = operation(endMill, [rapid(5, 5, 5), ...zigzag(5, 85, [5, 13, 21, 29, 37, 45], -0.3), rapid(5, 45, 5)]);
const intoTheJaw = operation(endMill, alongTheSide(-29));
const aboveTheJaw = operation(endMill, alongTheSide(-20));
const heldSubmissions = [facing, intoTheJaw, aboveTheJaw];
/** Each operation made from the stock before it: judged whatever was dropped. */
const inOrder = (operations: Operation[]) => operations.map((operation) => ({ operation, speculative: false }));

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
    const { verdicts, result } = run(new InlineChecks(held, null), inOrder(heldSubmissions));
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
    const inline = run(new InlineChecks(held, null), inOrder(heldSubmissions));
    const threaded = run(new ThreadedChecks(held, null), inOrder(heldSubmissions));
    assert.deepEqual(threaded.verdicts, inline.verdicts);
    assert.deepEqual(threaded.result.operations, inline.result.operations);
    assert.deepEqual(threaded.result.dropped, inline.result.dropped);
    assert.deepEqual(threaded.result.verification, inline.result.verification);
    assert.deepEqual(threaded.result.field, inline.result.field);
  });

  it("changes nothing without fixtures: no count, and the kept operations' stock as with them", () => {
    for (const checks of [new InlineChecks(plainSetup, null), new ThreadedChecks(plainSetup, null)]) {
      const { verdicts, result } = run(checks, inOrder(heldSubmissions));
      assert.deepEqual(verdicts, ["kept", "kept", "kept"], "nothing holds the stock: the pass into the jaw is air");
      assert.deepEqual(Object.keys(result.verification), [
        "gouges",
        "rapids_through_material",
        "holder_collisions",
        "material_left_mm3",
        "material_left_pct",
      ]);
    }
    const without = run(new InlineChecks(plainSetup, null), inOrder([facing, aboveTheJaw])).result;
    const withFixtures = run(new InlineChecks(held, null), inOrder([facing, aboveTheJaw])).result;
    assert.deepEqual(withFixtures.field, without.field);
    assert.deepEqual(withFixtures.verification, { ...without.verification, workholding_collisions: 0 });
    assert.deepEqual(withFixtures.operations, without.operations);
    assert.deepEqual(withFixtures.dropped, without.dropped);
  });
});
