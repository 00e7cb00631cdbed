/**
 * Planning with assemblies of the spec's fields only (holders of uuid, name, stacking_group and
 * manufacturer; tools of tool_type and CuttingDiameter, DepthOfCutMaximum, OverallLength): the
 * planner cuts with the geometry kernel/tools/assumed-geometry.ts assumes for them, and its stock
 * simulation checks the assumed holders against the part.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { roundedPocket } from "../features/recognition/test-parts.ts";
import { cut, makeBox } from "../features/test-support.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import type { Assembly } from "../tools/assembly.ts";
import { completeAssembly } from "../tools/completion.ts";
import { generateStandardRange } from "../tools/catalogue/standard-range.ts";
import { planCam } from "./plan.ts";
import { holderReach } from "./cutter-shape.ts";

const oc = await loadOpenCascade();
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const quiet = { progress: () => {}, cancelled: () => false };

/** A standard-range end mill's assembly cut down to the fields the spec shows. */
function specOnly(article: string): Assembly {
  const entry = generateStandardRange().find((e) => e.article_number === article);
  assert.ok(entry, article);
  const [holder, tool] = [entry.assembly.components[0], entry.assembly.components.at(-1)];
  assert.ok(holder?.component_type === "adaptive_item" && tool?.component_type === "parametric_cutting_tool");
  const { uuid, name, stacking_group, manufacturer } = holder.adaptive_item;
  const t = tool.parametric_cutting_tool;
  const { CuttingDiameter, DepthOfCutMaximum, OverallLength } = t.tool_parameters;
  return {
    uuid: entry.assembly.uuid,
    name: entry.assembly.name,
    components: [
      { component_type: "adaptive_item", adaptive_item: { uuid, name, stacking_group, manufacturer } },
      {
        component_type: "parametric_cutting_tool",
        parametric_cutting_tool: {
          uuid: t.uuid,
          name: t.name,
          tool_type: t.tool_type,
          manufacturer: t.manufacturer,
          flute_count: t.flute_count,
          tool_parameters: { CuttingDiameter, DepthOfCutMaximum, OverallLength },
        },
      },
    ],
  };
}

describe("planning with assemblies of the spec's fields only", () => {
  it("cuts with the assumed holders and stick-outs, and its simulation finds no collision with them", () => {
    // a pocket with 3.5 mm corners and a 3.2 mm slot beside it, in a 40 x 40 x 20 block
    const bytes = withOcctScope((scope) =>
      writeBrep(oc, cut(oc, scope, roundedPocket(oc, scope, 3.5), makeBox(oc, scope, [24, 3.2, 4], [8, 30, 16]))),
    );
    const library = ["SSR-EM3-1200-K-TA", "SSR-EM3-0600-K-TA", "SSR-EM3-0300-K-TA"].map(specOnly);
    const result = planCam(
      oc,
      {
        workpiece: { format: "step", bytes, bytes_format: "brep" },
        stock: { min: [0, 0, 0], max: [40, 40, 21] },
        machine,
        material_id: "aluminium-6061",
        library,
        options: { include_face_milling: true, sort_by_height: false },
      },
      quiet,
    );
    const expected = new Map(library.map((assembly) => [assembly.uuid, completeAssembly(assembly)]));
    let operations = 0;
    for (const setup of result.setups) {
      for (const operation of setup.operations) {
        const completion = expected.get(operation.tool.assembly_uuid);
        assert.ok(completion, operation.name);
        // the holder the collision checks carry is the assumed profile, nose first
        const profile = completion.holders[0]!.segments.map((s) => ({
          length: s.length_mm,
          lower_diameter: s.lower_diameter_mm,
          upper_diameter: s.upper_diameter_mm,
        })).reverse();
        assert.deepEqual(operation.tool.holder, profile, operation.name);
        assert.equal(operation.tool.stick_out, completion.tool!.tool_parameters.LengthBelowHolder, operation.name);
        assert.equal(
          operation.tool.stick_out,
          operation.tool.flute_length + 2,
          "the flutes and 2 mm out of the holder",
        );
        // no move takes the tip deeper below the stock top than the assumed holder lets it
        const stockTop = setup.stock.max[2];
        const deepest = Math.min(...operation.moves.flatMap((m) => ("to" in m ? [m.to[2]] : [])));
        assert.ok(
          stockTop - deepest <= holderReach(operation.tool) + 1e-6,
          `${operation.name}: ${stockTop - deepest} mm below the top, reach ${holderReach(operation.tool)}`,
        );
        operations += 1;
      }
      assert.deepEqual(
        [setup.verification.gouges, setup.verification.rapids_through_material, setup.verification.holder_collisions],
        [0, 0, 0],
        setup.name,
      );
    }
    assert.ok(operations > 0, "something was planned");
  });
});
