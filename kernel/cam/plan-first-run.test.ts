/**
 * The README's first run in the kernel: partC.step in the README's stock (2 mm round, 8 mm
 * below, 5 mm above) with a new user's default library and the 6 mm end mill the README adds.
 * No end mill of that library reaches the stock's whole depth, and the finishing tool was then
 * picked from an empty list (the planner failed on the README's own steps).
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { fixture } from "../geometry/test-support.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { generateStandardRange } from "../tools/catalogue/standard-range.ts";
import { starterLibrary } from "../tools/catalogue/starter-library.ts";
import { planCam } from "./plan.ts";

const oc = await loadOpenCascade();

describe("the README's first run", () => {
  it("plans partC with the starter library and a second 6 mm end mill: every setup verified, completeness stated", () => {
    const bytes = withOcctScope((scope) => writeBrep(oc, readStep(oc, fixture("partC.step"), scope).solid));
    const sixMm = generateStandardRange().find((e) => e.tool_type === "CentreCuttingEndMill" && e.diameter_mm === 6);
    assert.ok(sixMm);
    const library = [...starterLibrary(), { ...sixMm.assembly, uuid: randomUUID() }];
    const result = planCam(
      oc,
      {
        workpiece: { format: "step", bytes, bytes_format: "brep" },
        stock: { min: [-2, -2, -8], max: [87.52, 46.62, 32.53] },
        machine: findMachineArchetype("vmc-850-fanuc") as MachineArchetype,
        material_id: "aluminium-6061",
        library,
        options: { include_face_milling: true, sort_by_height: false },
      },
      { progress: () => {}, cancelled: () => false },
    );
    assert.ok(result.setups.length >= 2, result.setups.map((s) => s.name).join(", "));
    for (const setup of result.setups) {
      assert.ok(setup.operations.length > 0, `${setup.name} has toolpaths`);
      assert.deepEqual(
        [setup.verification.gouges, setup.verification.rapids_through_material, setup.verification.holder_collisions],
        [0, 0, 0],
        setup.name,
      );
    }
    assert.ok(["complete", "incomplete"].includes(result.completeness.status));
    assert.deepEqual(result.completeness.holes_not_made, [], JSON.stringify(result.completeness.reasons));
  });
});
