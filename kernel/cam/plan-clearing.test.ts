/**
 * Auto clearing per region on a real part: partC (read by OCCT) with the starter library, its
 * roughings' regions and the clearing chosen for each (planner/region-clearing.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { fixture } from "../geometry/test-support.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { starterLibrary } from "../tools/catalogue/starter-library.ts";
import { operationTime } from "./machining-time.ts";
import { planCam } from "./plan.ts";
import type { PlanInput } from "./plan-types.ts";

const oc = await loadOpenCascade();
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const bytes = withOcctScope((scope) => writeBrep(oc, readStep(oc, fixture("partC.step"), scope).solid));
const input: PlanInput = {
  workpiece: { format: "step", bytes, bytes_format: "brep" },
  stock: { min: [-2, -2, -8], max: [87.6, 46.7, 29] },
  machine,
  material_id: "aluminium-6061",
  library: starterLibrary(),
  options: { include_face_milling: true, sort_by_height: false },
};
const quiet = { progress: () => {}, cancelled: () => false };

describe("auto clearing per region on partC", () => {
  const result = planCam(oc, input, quiet);
  const roughings = result.setups.flatMap((s) =>
    s.operations.filter((o) => o.kind === "roughing").map((o) => ({ setup: s.name, operation: o })),
  );

  it("roughs from +Z and -Z offset, whole: its levels there predict adaptive cannot be faster", () => {
    // the 16 mm end mill cuts the same levels at the same load either way; made per region,
    // adaptive took 107 and 187 s in the closed pockets against offset's 54 and 93
    const fromZ = roughings.filter((r) => r.setup === "+Z" || r.setup === "-Z");
    assert.equal(fromZ.length, 2, roughings.map((r) => r.setup).join(", "));
    for (const { operation } of fromZ) {
      assert.match(operation.name, /^Roughing with/);
      assert.equal(operation.clearing_regions, undefined);
    }
  });

  it("roughs the sides as one region each, most of them adaptive: nothing closed to choose apart", () => {
    const sides = roughings.filter((r) => r.setup.endsWith("X") || r.setup.endsWith("Y"));
    assert.equal(sides.length, 4, roughings.map((r) => r.setup).join(", "));
    for (const { operation } of sides) {
      assert.equal(operation.clearing_regions, undefined);
      assert.ok(operationTime(operation, machine).total_s > 0);
    }
    // -Y's offset passes, fed for their chip, took 22.2 s against adaptive's 22.8: offset there
    const adaptive = sides.filter((r) => /^Adaptive roughing with/.test(r.operation.name)).map((r) => r.setup);
    assert.deepEqual(adaptive.sort(), ["+X", "+Y", "-X"]);
  });
});
