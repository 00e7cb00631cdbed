import assert from "node:assert/strict";
import { describe, it } from "node:test";
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
