import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simulateSetup } from "../simulation/simulate.ts";
import { cutter, feed, NO_PART, operation, rapid } from "../simulation/test-support.ts";
import type { Box3, Move, Operation, OperationKind } from "../types.ts";
import { engagementTarget, engagementWarnings, withEngagement } from "./engagement-targets.ts";

const stock: Box3 = { min: [0, 0, -20], max: [60, 40, 0] };
const endMill = cutter("flat", 10);

/** A slot into the block, then a pass beside it `step` mm over, as operations of `kind` with a stepover of 4 mm. */
function slotAndStep(kind: OperationKind, step: number): Operation[] {
  const pass = (y: number, x0: number, x1: number): Move[] => [
    rapid(x0, y, 5),
    feed(x0, y, -3),
    feed(x1, y, -3),
    rapid(x1, y, 5),
  ];
  return [operation(endMill, pass(20, 10, 50)), operation(endMill, pass(20 + step, 15, 45))].map((o) => ({
    ...o,
    kind,
    parameters: { ...o.parameters, stepover_mm: 4 },
  }));
}

/** The operations as the planner keeps them: with what the simulation measured. */
function measured(operations: Operation[]): Operation[] {
  const result = simulateSetup({ stock, part: NO_PART, operations });
  const engagement = Object.fromEntries(
    result.operations.flatMap((o) => (o.engagement === null ? [] : [[o.operation_id, o.engagement]])),
  );
  return withEngagement(operations, engagement);
}

describe("engagement targets", () => {
  it("aims roughing and rest roughing at their stepover, and nothing else at anything", () => {
    const [op] = slotAndStep("roughing", 1);
    assert.ok(op);
    assert.equal(engagementTarget(op), 4);
    assert.equal(engagementTarget({ ...op, kind: "rest_roughing" }), 4);
    for (const kind of ["face_milling", "floor_finishing", "wall_finishing", "helical_boring"] as const)
      assert.equal(engagementTarget({ ...op, kind }), null, kind);
  });

  it("warns of a roughing slotting at full width, with its figures, and not of one stepping over within its target", () => {
    const [slotting, stepping] = measured(slotAndStep("roughing", 4));
    assert.ok(slotting && stepping);
    const warnings = engagementWarnings("+Z", [slotting, stepping]);
    assert.deepEqual(
      warnings.map((w) => w.details),
      [{ operation_id: slotting.id, setup: "+Z", p99_mm: 10, p99_pct: 100, max_mm: 10, target_mm: 4 }],
    );
    assert.match(warnings[0]?.message ?? "", /^setup \+Z: .*99 % of its length cut engages up to 10 mm radially/);
    // the 4 mm step reads 4 mm, to the cells' resolution: within its target
    assert.ok(stepping.engagement !== undefined && stepping.engagement.radial_p99_mm <= 4);
  });

  it("warns only past the margin and what the cells resolve, outside the slots the part makes", () => {
    const [op] = slotAndStep("rest_roughing", 1);
    assert.ok(op);
    const small = { ...op, parameters: { ...op.parameters, stepover_mm: 0.4 } };
    const reading = (p99: number) => ({
      radial_max_mm: 1,
      radial_p99_mm: p99,
      radial_max_pct: 100,
      radial_p99_pct: p99 * 100,
      angle_max_deg: 180,
      angle_p99_deg: 90,
      axial_max_mm: 1,
      cutting_length_mm: 100,
      resolution_mm: 0.071,
    });
    // 0.44 mm (10 % over) and 0.071 mm the cells cannot tell apart
    const [within, over] = [0.5, 0.52].map((p99) => withEngagement([small], { [small.id]: reading(p99) })[0]);
    assert.ok(within && over);
    assert.deepEqual(engagementWarnings("+Z", [within]), []);
    assert.equal(engagementWarnings("+Z", [over]).length, 1);
    // full width over 1 % of the length, all of it in a slot the part makes: outside it, 0.4 mm
    const slotted = withEngagement([small], {
      [small.id]: { ...reading(1), feature_slot_pct: 3, radial_p99_beside_slots_mm: 0.4 },
    })[0];
    assert.ok(slotted);
    assert.deepEqual(engagementWarnings("+Z", [slotted]), []);
  });

  it("leaves facing at full width unwarned", () => {
    assert.deepEqual(engagementWarnings("+Z", measured(slotAndStep("face_milling", 4))), []);
  });
});
