/**
 * The fixture parts other than partC.step planned end to end as a client sends them, through the
 * API on the service's geometry thread: partC as a mesh, and the NIST test parts. Their database
 * use is tasks/plan-cam-occt.test.ts's; their cost is planning, so the suite's second pass on a
 * real PostgreSQL server leaves this folder out (scripts/test.ts).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PlanCamResult } from "../../tasks/automated_cam_planning.ts";
import { catalogueAssembly } from "../support/planning.ts";
import { everydayTools, fixturePart, PlanningService } from "../support/planning-service.ts";

let service: PlanningService;

before(async () => {
  service = await PlanningService.start();
});
after(async () => {
  await service?.stop();
});

describe("the fixture parts planned through the API", () => {
  // what the vmc-850's vise, else its table, leaves unheld of each part with the walk-through
  // stock (2 mm around, 8 mm below), and the material left (% of the removable volume): FTC-10's
  // +X finds rounded lugs and no finished plane in its lowest 5 mm (the vise) or 10 mm (the
  // table's clamps); STC-06's -Z and -X find no pair of parallel finished faces there, and its
  // three chamfer setups stand tilted (a sine vise's work, not modelled). Planned unheld, STC-06
  // leaves 5.7 %: the rest of its 14.2 % is what those setups would cut.
  const held: Record<string, { leftOut: string[]; maxLeftPct: number }> = {
    "partC.stl": { leftOut: [], maxLeftPct: 10 },
    "nist_ftc_10_asme1_ap242-e2.stp": { leftOut: ["+X"], maxLeftPct: 10 },
    // too wide for the vise from above: +Z and -Z on the table, -Y in the vise
    "nist_ctc_01_asme1_ap242-e1.stp": { leftOut: [], maxLeftPct: 10 },
    "nist_stc_06_asme1_ap242-e3.stp": {
      leftOut: ["-X", "-Z", "feature 20 (chamfer)", "feature 21 (chamfer)", "feature 22 (chamfer)"],
      maxLeftPct: 15,
    },
  };

  // the other fixture parts, end to end as a client sends them: a mesh, and the NIST test parts
  for (const name of [
    "partC.stl",
    "nist_ftc_10_asme1_ap242-e2.stp",
    "nist_ctc_01_asme1_ap242-e1.stp",
    "nist_stc_06_asme1_ap242-e3.stp",
  ]) {
    it(`plans ${name} uploaded through the API: verified setups, the material left reported, the job saved, every setup's program run by rs274 as planned`, async () => {
      // the NIST parts are 250 to 400 mm long: the shop's 20 mm end mill roughs them; FTC-10's
      // long bores take a 7 mm drill
      const library = name.startsWith("nist")
        ? [...everydayTools(), catalogueAssembly("CentreCuttingEndMill", 20), catalogueAssembly("Drill", 7)]
        : everydayTools();
      const projectId = await service.stepProject(library, fixturePart(name));
      const task = await service.plan(projectId);
      assert.equal(task.status, "success", JSON.stringify(task.error));
      const result = task.result as PlanCamResult;
      assert.ok(result.setups.length >= 2, `setups: ${result.setups.map((s) => s.name).join(", ")}`);
      for (const setup of result.setups) {
        const v = setup.verification;
        assert.deepEqual(
          [v.gouges, v.rapids_through_material, v.holder_collisions, v.workholding_collisions],
          [0, 0, 0, 0],
          setup.name,
        );
        // the vise where it opens wide enough, else the machine's table
        assert.ok(setup.workholding, `setup ${setup.name} is held`);
      }
      const completeness = result.completeness;
      assert.ok(completeness, "the task result says how complete the plan is");
      const expected = held[name]!;
      const unheld = completeness.setups_left_out.filter((s) => s.reason === "workholding_unavailable");
      assert.deepEqual(
        unheld.map((s) => s.name).sort(),
        [...expected.leftOut].sort(),
        unheld.map((s) => s.message).join("\n"),
      );
      for (const out of unheld)
        assert.match(
          out.message,
          /the vise can hold.*the table's clamps can hold|tilted .* sine vise or an angle plate/,
          out.name,
        );
      assert.equal(
        completeness.reasons.some((r) => r.code === "workholding_unavailable"),
        unheld.length > 0,
        "completeness says why",
      );
      const left = result.setups.at(-1)?.verification.material_left_pct ?? 100;
      assert.ok(left < expected.maxLeftPct, `${left} % of the removable volume left`);
      assert.ok(result.unmachined.some((u) => u.code === "material_left"));
      const unreachable = result.unmachined.filter((u) => u.code === "face_unreachable").flatMap((u) => u.faces);
      assert.ok(
        unreachable.every((face) => completeness.faces_unreachable.includes(face)),
        "every face reported unreachable is in completeness",
      );
      assert.equal(completeness.status === "complete", completeness.reasons.length === 0);
      if (name.startsWith("nist_ftc")) {
        // its four 7 mm bores, 75 mm long and counterbored from both ends, are drilled and bored from +Z
        const kinds = result.setups.find((s) => s.name === "+Z")?.operations.map((o) => o.kind) ?? [];
        assert.ok(kinds.includes("drilling") && kinds.includes("helical_boring"), `+Z: ${kinds.join(", ")}`);
      }
      const current = await service.db.owner.query("select current_job_id from app_public.projects where id = $1", [
        projectId,
      ]);
      assert.equal(current.rows[0].current_job_id, result.job_id);
      await service.assertProgramsRun(projectId);
    });
  }
});
