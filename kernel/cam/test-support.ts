/**
 * What the tests of whole plans share (plan-held.test.ts, plan-plate.test.ts, whole-blank.test.ts):
 * a fixture part as the planner reads it, its planning with a workholding or none, and the checks every
 * held plan must pass: each setup held, and no move of any kept operation within 1 mm of a jaw,
 * parallel, clamp or plate, as the verification said and as the fixture field says again.
 */
import assert from "node:assert/strict";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import type { OpenCascadeInstance } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { fixture } from "../geometry/test-support.ts";
import type { MachineArchetype } from "../machines/archetypes.ts";
import { starterLibrary } from "../tools/catalogue/starter-library.ts";
import type { Workholding } from "../workholding/schema.ts";
import { planCam } from "./plan.ts";
import type { PlanInput, PlanResult, WorkholdingSummary } from "./plan-types.ts";
import { fixtureBoxes, fixtureField, workholdingCollisions } from "./simulation/fixtures.ts";
import type { Box3 } from "./types.ts";

/** A fixture STEP part as the planner takes it: its solid as BREP bytes. */
export function fixtureBrep(oc: OpenCascadeInstance, name: string): Uint8Array {
  return withOcctScope((scope) => writeBrep(oc, readStep(oc, fixture(name), scope).solid));
}

/** The planning of a part in aluminium with the starter library, held by `workholding` (none: nothing holds it). */
export function aluminiumInput(
  bytes: Uint8Array,
  stock: Box3,
  machine: MachineArchetype,
  workholding?: Workholding,
): PlanInput {
  return {
    workpiece: { format: "step", bytes, bytes_format: "brep" },
    stock,
    machine,
    material_id: "aluminium-6061",
    library: starterLibrary(),
    options: { include_face_milling: true, sort_by_height: false },
    ...(workholding === undefined ? {} : { workholding }),
  };
}

/** The part planned as aluminiumInput has it. */
export function planHeld(
  oc: OpenCascadeInstance,
  bytes: Uint8Array,
  stock: Box3,
  machine: MachineArchetype,
  workholding: Workholding | undefined,
): PlanResult {
  return planCam(oc, aluminiumInput(bytes, stock, machine, workholding), {
    progress: () => {},
    cancelled: () => false,
  });
}

/**
 * Every setup held by a workholding of `type` (or of one of the types), at least 3 mm deep, and no move of its kept
 * operations within 1 mm of the workholding's boxes: the plan's verification says 0, and each
 * operation swept again over the boxes' own field finds none.
 */
export function assertHeldClear(
  plan: PlanResult,
  type: WorkholdingSummary["type"] | readonly WorkholdingSummary["type"][],
): void {
  const types: readonly WorkholdingSummary["type"][] = typeof type === "string" ? [type] : type;
  assert.ok(plan.setups.length > 0, "no setup was planned");
  for (const setup of plan.setups) {
    const held = setup.workholding;
    assert.ok(held, `setup ${setup.name} is held`);
    assert.ok(types.includes(held.type), `${setup.name}: ${held.type}`);
    assert.ok(held.grip_mm >= 3, setup.name);
    assert.equal(setup.verification.workholding_collisions, 0, setup.name);
    const field = fixtureField(
      fixtureBoxes(held).map((f) => f.box),
      1,
    );
    for (const operation of setup.operations) {
      const collisions = workholdingCollisions(operation, field);
      assert.equal(collisions.moves, 0, `${setup.name} ${operation.name}: ${JSON.stringify(collisions.worst)}`);
    }
  }
}
