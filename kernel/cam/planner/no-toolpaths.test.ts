/**
 * A setup without toolpaths is left out of the plan and reported: a block with a pocket in its
 * top and a 6 mm blind hole in its +X side, planned with a library whose only tool is a 10 mm end
 * mill, which can neither drill the hole nor bore it. The +X setup is there for the hole alone.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pocketOnTop } from "../../features/recognition/test-parts.ts";
import { cut, makeCylinder } from "../../features/test-support.ts";
import { writeBrep } from "../../geometry/brep.ts";
import { withOcctScope } from "../../geometry/occt-scope.ts";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { camPlanOf } from "../../job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { postSetup } from "../../post/index.ts";
import { generateStandardRange } from "../../tools/catalogue/standard-range.ts";
import { inlineChecks, inlineShadows, planCam } from "../plan.ts";
import type { PlanInput } from "../plan-types.ts";
import { cutter, operation } from "../simulation/test-support.ts";
import { hasToolpaths, withoutToolpaths, type SetupOutcome } from "./no-toolpaths.ts";

const oc = await loadOpenCascade();
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;

describe("a setup without toolpaths", () => {
  it("is left out: the work offsets run on without it, every program posts, and what it was for is reported", () => {
    const bytes = withOcctScope((scope) =>
      writeBrep(oc, cut(oc, scope, pocketOnTop(oc, scope), makeCylinder(oc, scope, [25, 20, 10], [1, 0, 0], 3, 20))),
    );
    const library = generateStandardRange()
      .filter((e) => e.article_number === "SSR-EM3-1000-K-TA")
      .map((e) => e.assembly);
    assert.equal(library.length, 1);
    const options = { include_face_milling: true, sort_by_height: false };
    // the stock is the part's box: the +X side has nothing to mill, only the hole (and the -Z
    // setup for the band the vise's jaws held has no end mill reaching its 20 mm walls)
    const input: PlanInput = {
      workpiece: { format: "step", bytes, bytes_format: "brep" },
      stock: { min: [0, 0, 0], max: [40, 40, 20] },
      machine,
      material_id: "aluminium-6061",
      library,
      options,
    };
    const result = planCam(oc, input, {
      progress: () => {},
      cancelled: () => false,
      checks: inlineChecks,
      shadows: inlineShadows,
    });

    assert.deepEqual(
      result.setups.map((s) => `${s.index} ${s.name} ${s.work_offset}`),
      ["0 +Z G54"],
    );
    for (const setup of result.setups) assert.ok(hasToolpaths(setup.operations), setup.name);
    const plan = camPlanOf(result, options, machine);
    for (const setup of plan.setups)
      assert.ok([...postSetup(plan, setup.index, "fanuc", { project: "p" }).lines].length > 0);

    // the drill the library lacks, named
    const hole = result.unmachined.find((u) => u.code === "tool_missing" && u.message.includes("Drill"));
    assert.ok(hole, JSON.stringify(result.unmachined.map((u) => u.code)));
    const out = result.unmachined.filter((u) => u.code === "setup_left_out");
    assert.deepEqual(
      out.map((u) => u.message.slice(0, 9)),
      ["setup -Z ", "setup +X "],
      JSON.stringify(out),
    );
    const entry = out[1] as (typeof out)[number];
    assert.match(
      entry.message,
      /^setup \+X is left out: it has no toolpath\. It was there for feature \d+ \(blind hole\)/,
    );
    assert.match(
      entry.message,
      /no tool of the library could make them: Tool missing: Drill 6 mm to drill 6 mm holes \(feature \d+\)\. The library has no drill for feature \d+/,
    );
    assert.deepEqual(entry.features, hole.features);
    assert.ok(
      entry.faces.length > 0 && hole.faces.every((face) => entry.faces.includes(face)),
      `faces ${entry.faces} against the hole's ${hole.faces}`,
    );
  });

  it("says why nothing was made: every operation dropped, no tool, or nothing left to cut", () => {
    const setup: SetupOutcome["setup"] = {
      name: "B",
      direction: [0.6, 0, 0.8],
      features: [],
      faces: [7],
      focus: [7, 8],
      addedFor: null,
    };
    const dropped = {
      code: "operation_dropped",
      message: "setup B: Roughing was dropped",
      features: [],
      faces: [],
      volume_mm3: null,
    };
    const drops = withoutToolpaths({ setup, operations: [], dropped: [dropped, dropped], unmachined: [] });
    assert.match(
      drops.setup.message,
      /It was there for faces 7, 8; the verification dropped all 2 operations made for it/,
    );
    assert.deepEqual(
      [drops.setup.reason, drops.setup.faces, drops.unmachined.code],
      ["no_toolpaths", [7, 8], "setup_left_out"],
    );
    const none = withoutToolpaths({
      setup: { ...setup, faces: [], focus: null, addedFor: "the stock below the part" },
      operations: [],
      dropped: [],
      unmachined: [],
    });
    assert.match(none.setup.message, /It was there for the stock below the part; nothing was left for it to cut/);
    // an operation without a move is no toolpath either
    assert.equal(hasToolpaths([operation(cutter("flat", 10), [])]), false);
    assert.equal(
      hasToolpaths([
        operation(cutter("flat", 10), []),
        operation(cutter("flat", 10), [{ kind: "linear", to: [0, 0, -1], feed: 500 }]),
      ]),
      true,
    );
  });
});
