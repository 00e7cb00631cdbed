import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { fakeCompleteness, fakePlanResult, FAKE_DRILL_UUID } from "../../test/support/fake-plan.ts";
import { setupMachiningTime } from "../cam/machining-time.ts";
import { operationBlocks } from "../cam/planner/blocks.ts";
import { findMachineArchetype } from "../machines/archetypes.ts";
import {
  camPlanOf,
  decodeCamPlan,
  encodeCamPlan,
  PLAN_DOCUMENT_VERSION,
  PlanFormatError,
  summarisePlan,
  type CamPlan,
} from "./plan.ts";

const MACHINE = findMachineArchetype("vmc-850-fanuc")!;
const OPTIONS = { include_face_milling: true, sort_by_height: false };

/** The plan as a version 2 writer stored it: the same document without completeness. */
function asVersion2(plan: CamPlan): Buffer {
  const { completeness: _completeness, ...rest } = plan;
  return gzipSync(Buffer.from(JSON.stringify({ ...rest, version: 2 }), "utf8"));
}

/** The plan as a version 1 writer stored it: without completeness and without blocks. */
function asVersion1(plan: CamPlan): Buffer {
  const { completeness: _completeness, ...rest } = plan;
  const setups = plan.setups.map(({ blocks: _blocks, ...setup }) => setup);
  return gzipSync(Buffer.from(JSON.stringify({ ...rest, version: 1, setups }), "utf8"));
}

describe("the plan a job keeps", () => {
  it("times each operation as it runs in its setup, so operations and tool changes add up to the setup's time", () => {
    const result = fakePlanResult();
    const plan = camPlanOf(result, OPTIONS, MACHINE);
    for (const [i, setup] of plan.setups.entries()) {
      const expected = setupMachiningTime(result.setups[i]!.operations, MACHINE);
      assert.deepEqual(
        setup.operations.map((op) => op.machining_time_s),
        expected.operations.map((t) => t.total_s),
      );
      const sum = setup.operations.reduce((total, op) => total + op.machining_time_s, 0) + expected.tool_change_s;
      assert.ok(Math.abs(sum - expected.total_s) < 1e-9);
      assert.ok(setup.operations.every((op) => op.machining_time_s > 0));
    }
    // the planner's own figures are kept as they are
    assert.equal(plan.machining_time_s, result.machining_time_s);
    assert.deepEqual(
      plan.setups.map((s) => s.machining_time_s),
      result.setups.map((s) => s.machining_time_s),
    );
  });

  it("summarises a plan as the task result shows it: setups without moves, operations with their tool number and time", () => {
    const plan = camPlanOf(fakePlanResult(), OPTIONS, MACHINE);
    const summary = summarisePlan(plan);
    assert.equal(summary.setups.length, 2);
    const setup = summary.setups[0]!;
    assert.deepEqual(Object.keys(setup).sort(), [
      "blocks",
      "direction",
      "id",
      "index",
      "machining_time_s",
      "name",
      "operations",
      "tools",
      "verification",
      "wcs",
      "work_offset",
      "work_offset_origin",
      "workholding",
    ]);
    assert.deepEqual(Object.keys(setup.wcs).sort(), ["origin", "x_axis", "z_axis"]);
    assert.deepEqual(
      setup.operations.map((op) => [op.id, op.kind, op.tool_number]),
      [
        ["s0-op0", "face_milling", 1],
        ["s0-op1", "roughing", 1],
        ["s0-op2", "drilling", 2],
      ],
    );
    assert.ok(setup.operations.every((op) => op.machining_time_s > 0));
    assert.deepEqual(
      setup.blocks.map((block) => [block.id, block.name, block.kind, block.operation_ids]),
      plan.setups[0]!.blocks.map((block) => [block.id, block.name, block.kind, block.operation_ids]),
    );
    assert.deepEqual(
      setup.blocks.map((block) => [block.name, block.operation_ids]),
      [
        ["Facing", ["s0-op0"]],
        ["Roughing", ["s0-op1"]],
        ["Holes", ["s0-op2"]],
      ],
    );
    assert.deepEqual(Object.keys(setup.blocks[0]!).sort(), ["id", "kind", "name", "operation_ids"]);
    assert.equal(setup.tools.find((t) => t.number === 2)?.assembly_uuid, FAKE_DRILL_UUID);
    assert.equal(summary.machining_time_s, plan.machining_time_s);
    assert.ok(!JSON.stringify(summary).includes('"moves"'));
  });

  it("summarises each setup's workholding: null for a plan made without one, as planned for one made with one", () => {
    const without = camPlanOf(fakePlanResult(), OPTIONS, MACHINE);
    assert.ok(
      without.setups.every((setup) => !("workholding" in setup)),
      "nothing added to the stored plan",
    );
    assert.deepEqual(
      summarisePlan(without).setups.map((setup) => setup.workholding),
      [null, null],
    );
    const held = camPlanOf(fakePlanResult({ workholding: "vise" }), OPTIONS, MACHINE);
    const summary = summarisePlan(held);
    assert.deepEqual(
      summary.setups.map((setup) => setup.workholding),
      held.setups.map((setup) => setup.workholding),
    );
    assert.equal(summary.setups[0]!.workholding?.type, "vise");
    assert.deepEqual(decodeCamPlan(encodeCamPlan(held)), held, "version 3 carries it and reads it back");
  });

  it("stores a plan as gzip JSON that reads back equal, the same plan as the same bytes, and 100k moves in a small blob", (t) => {
    const plan = camPlanOf(fakePlanResult({ moves: 100_000 }), OPTIONS, MACHINE);
    let started = performance.now();
    const bytes = encodeCamPlan(plan);
    const encodeMs = performance.now() - started;
    started = performance.now();
    assert.deepEqual(decodeCamPlan(bytes), plan);
    const decodeMs = performance.now() - started;
    assert.ok(encodeCamPlan(plan).equals(bytes));
    const json = Buffer.byteLength(JSON.stringify(plan));
    t.diagnostic(
      `200k moves: ${(json / 1e6).toFixed(1)} MB JSON, ${(bytes.length / 1e6).toFixed(2)} MB gzip; encode ${encodeMs.toFixed(0)} ms, decode ${decodeMs.toFixed(0)} ms`,
    );
    assert.ok(bytes.length < json / 5, "compresses at least fivefold");
  });

  it("stores each setup's blocks and the plan's completeness as version 3 and reads them back as they were, not derived again", () => {
    const incomplete = fakeCompleteness({
      status: "incomplete",
      holes_not_made: [7],
      reasons: [{ code: "hole_not_made", message: "1 hole is not made (feature 7)" }],
    });
    const plan = camPlanOf(
      fakePlanResult({ completeness: incomplete }),
      { ...OPTIONS, completeness_surface_limit_pct: 2 },
      MACHINE,
    );
    assert.equal(plan.version, 3);
    assert.equal(PLAN_DOCUMENT_VERSION, 3);
    assert.deepEqual(decodeCamPlan(encodeCamPlan(plan)).completeness, incomplete);
    assert.equal(decodeCamPlan(encodeCamPlan(plan)).options.completeness_surface_limit_pct, 2);
    assert.deepEqual(summarisePlan(plan).completeness, incomplete, "the task result's summary carries it");
    // blocks another grouping would not give: they must come back from the document itself
    const regrouped: CamPlan = {
      ...plan,
      setups: plan.setups.map((setup) => ({
        ...setup,
        blocks: [
          {
            id: "7c1e5b0a-2d4f-4a8e-9b3c-6f1d2e4a8c90",
            name: "Everything",
            index: 0,
            kind: "roughing" as const,
            operation_ids: setup.operations.map((op) => op.id),
          },
        ],
      })),
    };
    const back = decodeCamPlan(encodeCamPlan(regrouped));
    assert.deepEqual(back, regrouped);
    assert.deepEqual(
      back.setups.map((s) => s.blocks[0]!.name),
      ["Everything", "Everything"],
    );
  });

  it("reads a version 2 plan (no completeness) with completeness null: not measured, not guessed", () => {
    const plan = camPlanOf(fakePlanResult(), OPTIONS, MACHINE);
    const back = decodeCamPlan(asVersion2(plan));
    assert.equal(back.version, PLAN_DOCUMENT_VERSION);
    assert.equal(back.completeness, null);
    assert.deepEqual({ ...back, completeness: plan.completeness }, plan, "everything else as it was");
    assert.equal(summarisePlan(back).completeness, null);
    // read, never written: a version 3 document has it
    assert.throws(() => encodeCamPlan({ ...plan, completeness: undefined } as unknown as CamPlan), /completeness/);
  });

  it("reads a version 1 plan (no blocks) as the current version, with the blocks the planner would have given, the same each time", () => {
    const plan = camPlanOf(fakePlanResult(), OPTIONS, MACHINE);
    const bytes = asVersion1(plan);
    const back = decodeCamPlan(bytes);
    assert.equal(back.version, PLAN_DOCUMENT_VERSION);
    assert.equal(back.completeness, null);
    for (const setup of back.setups) assert.deepEqual(setup.blocks, operationBlocks(setup.id, setup.operations));
    assert.deepEqual(
      back,
      { ...plan, completeness: null },
      "the version 1 document is the current one without its blocks and completeness",
    );
    assert.deepEqual(decodeCamPlan(bytes), back, "derived block ids do not change from one read to the next");
    assert.deepEqual(summarisePlan(back), { ...summarisePlan(plan), completeness: null });
    // read, never written: a version 1 document is not what a writer stores
    assert.throws(() => encodeCamPlan({ ...back, version: 1 } as unknown as CamPlan), /version/);
  });

  it("refuses blocks that do not group the setup's operations: one left out, one twice, out of order", () => {
    const plan = camPlanOf(fakePlanResult(), OPTIONS, MACHINE);
    const setup = plan.setups[0]!;
    const [facing, roughing, holes] = [setup.blocks[0]!, setup.blocks[1]!, setup.blocks[2]!];
    const wrongs = [
      [facing, roughing],
      [facing, { ...roughing, operation_ids: [...roughing.operation_ids, facing.operation_ids[0]!] }, holes],
      [roughing, facing, holes].map((block, index) => ({ ...block, index })),
    ];
    for (const blocks of wrongs) {
      const wrong = { ...plan, setups: [{ ...setup, blocks }, ...plan.setups.slice(1)] };
      assert.throws(() => encodeCamPlan(wrong), /blocks do not group the operations/);
      const result = fakePlanResult();
      assert.throws(
        () => camPlanOf({ ...result, setups: [{ ...result.setups[0]!, blocks }] }, OPTIONS, MACHINE),
        PlanFormatError,
      );
    }
  });

  it("refuses to store a plan that would not read back (NaN, a missing field, a zero feed), and to read what is not a plan", () => {
    const result = fakePlanResult();
    const plan = camPlanOf(result, OPTIONS, MACHINE);
    const op = result.setups[0]!.operations[1]!;
    const stalled = {
      ...result,
      setups: [
        {
          ...result.setups[0]!,
          operations: [
            { ...op, moves: [{ kind: "linear" as const, to: [1, 1, 1] as [number, number, number], feed: 0 }] },
          ],
        },
      ],
    };
    assert.throws(() => camPlanOf(stalled, OPTIONS, MACHINE), PlanFormatError);
    assert.throws(() => encodeCamPlan({ ...plan, machining_time_s: Number.NaN }), PlanFormatError);
    const { setups: _setups, ...withoutSetups } = plan;
    assert.throws(() => encodeCamPlan(withoutSetups as typeof plan), /setups/);
    assert.throws(() => decodeCamPlan(Buffer.from("plain text")), /not gzip/);
  });
});
