/**
 * 3D finishing on a real part: NIST CTC-01 (curved faces) planned with the starter library in
 * aluminium, in the planning tests' stock (2 mm round the part, 5 above, 8 below): its curved
 * faces finished by a surface_finishing operation with a ball or bull-nose end mill, kept by
 * the verification with no gouge.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { tessellate } from "../geometry/tessellate.ts";
import { fixture } from "../geometry/test-support.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { fixtureBrep, planHeld } from "./test-support.ts";
import type { Box3 } from "./types.ts";

const NAME = "nist_ctc_01_asme1_ap242-e1.stp";
const oc = await loadOpenCascade();
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;

function stockAround(): Box3 {
  const mesh = withOcctScope((scope) =>
    tessellate(oc, readStep(oc, fixture(NAME), scope).solid, 400, { linearDeflectionMm: 0.1 }),
  );
  const b = mesh.bbox as NonNullable<typeof mesh.bbox>;
  return { min: [b.min[0] - 2, b.min[1] - 2, b.min[2] - 8], max: [b.max[0] + 2, b.max[1] + 2, b.max[2] + 5] };
}

describe("3D finishing of NIST CTC-01", () => {
  const plan = planHeld(oc, fixtureBrep(oc, NAME), stockAround(), machine, undefined);

  it("finishes its curved faces with a ball or bull-nose end mill, kept with no gouge", () => {
    const finishing = plan.setups.flatMap((s) => s.operations.filter((o) => o.kind === "surface_finishing"));
    assert.ok(finishing.length > 0, JSON.stringify(plan.warnings.map((w) => w.message)));
    for (const operation of finishing) {
      assert.ok(operation.tool.kind === "ball" || operation.tool.kind === "bull", operation.tool.name);
      assert.ok(operation.moves.length > 1000, `${operation.moves.length} moves`);
    }
    for (const setup of plan.setups) assert.equal(setup.verification.gouges, 0, setup.name);
  });
});
