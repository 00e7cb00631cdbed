/**
 * NIST STC-06 planned whole: its +Z setup's 3D finishing ball leaves rest at the top dome's sharp
 * foot, and the plan carries a pencil finishing with a smaller ball there, kept by the
 * verification like every other operation.
 *
 * Heavy: STC-06 plans in 60 to 120 s.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { tessellate } from "../geometry/tessellate.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { meshBounds } from "../mesh/bounds.ts";
import { planCam } from "./plan.ts";
import { aluminiumInput, fixtureBrep } from "./test-support.ts";
import type { Box3 } from "./types.ts";

const oc = await loadOpenCascade();

describe("pencil finishing in a plan", () => {
  it("follows NIST STC-06's +Z 3D finishing with a smaller ball, kept by the verification", () => {
    const bytes = fixtureBrep(oc, "nist_stc_06_asme1_ap242-e3.stp");
    const bounds = meshBounds(withOcctScope((scope) => tessellate(oc, readBrep(oc, bytes, scope).solid, 0).mesh));
    const stock: Box3 = {
      min: [bounds.min[0] - 2, bounds.min[1] - 2, bounds.min[2] - 8],
      max: [bounds.max[0] + 2, bounds.max[1] + 2, bounds.max[2] + 2],
    };
    const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
    const plan = planCam(oc, aluminiumInput(bytes, stock, machine), { progress: () => {}, cancelled: () => false });
    const top = plan.setups.find((s) => s.name === "+Z");
    assert.ok(top, plan.setups.map((s) => s.name).join(", "));
    const surfaces = top.operations.filter((op) => op.kind === "surface_finishing");
    const pencil = surfaces.find((op) => op.name.startsWith("Pencil finishing with "));
    const finishing = surfaces.find((op) => op !== pencil);
    assert.ok(finishing && pencil, surfaces.map((op) => op.name).join("; "));
    assert.equal(pencil.tool.kind, "ball");
    assert.ok(pencil.tool.diameter <= finishing.tool.diameter / 2, `${pencil.tool.name} after ${finishing.tool.name}`);
    assert.ok(top.operations.indexOf(pencil) > top.operations.indexOf(finishing), "after the 3D finishing");
    assert.equal(top.verification.gouges, 0);
    assert.equal(
      plan.unmachined.filter((u) => u.code === "operation_dropped" && u.message.includes("Pencil")).length,
      0,
      "not dropped",
    );
  });
});
