/**
 * The planner end to end in the kernel, on real parts (MFCAD models and partC read by OCCT)
 * with libraries from the standard catalogue range: verified setups, tools only from the
 * library, work offsets where frames.ts says, and the refusals with their codes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { binaryStl, cubeCorners, fixture } from "../geometry/test-support.ts";
import { doubleCounterbore, roundedPocket } from "../features/recognition/test-parts.ts";
import { cut, makeBox, mfcadStep } from "../features/test-support.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { generateStandardRange } from "../tools/catalogue/standard-range.ts";
import { starterLibrary } from "../tools/catalogue/starter-library.ts";
import type { Assembly } from "../tools/assembly.ts";
import { inlineChecks, planCam } from "./plan.ts";
import { PlanCancelled, PlanError, type PlanInput, type PlanResult, type PlanStep } from "./plan-types.ts";
import { blockKindOf, blocksProblem } from "./planner/blocks.ts";
import { overTarget } from "./planner/engagement-targets.ts";
import type { Box3 } from "./types.ts";

const oc = await loadOpenCascade();
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const range = generateStandardRange();
const articles = (pattern: RegExp): Assembly[] =>
  range.filter((e) => pattern.test(e.article_number)).map((e) => e.assembly);

const shopLibrary = starterLibrary();

function brepOfStep(bytes: Uint8Array): Uint8Array {
  return withOcctScope((scope) => writeBrep(oc, readStep(oc, bytes, scope).solid));
}

function input(bytes: Uint8Array, stock: Box3, overrides: Partial<PlanInput> = {}): PlanInput {
  return {
    workpiece: { format: "step", bytes, bytes_format: "brep" },
    stock,
    machine,
    material_id: "aluminium-6061",
    library: shopLibrary,
    options: { include_face_milling: true, sort_by_height: false },
    ...overrides,
  };
}

const quiet = { progress: () => {}, cancelled: () => false };
// MFCAD models are 10 mm cubes at the origin; 1 mm of stock on top and around, and 7 mm below
// where the vise grips the blank (5 mm, 1.5 mm clear of the part)
const mfcadStock: Box3 = { min: [-1, -1, -7], max: [11, 11, 11] };
const mfcad = (model: string) => brepOfStep(mfcadStep(model));

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PlanError) return error.code;
    throw error;
  }
  assert.fail("the plan was not refused");
}

describe("the CAM planner", () => {
  it("plans an MFCAD part with verified setups: no gouge, rapid through material or collision, tools only from the library", () => {
    const progress: number[] = [];
    const steps: PlanStep[] = [];
    const result: PlanResult = planCam(oc, input(mfcad("0-1-5-7-11-23"), mfcadStock), {
      progress: (f) => progress.push(f),
      cancelled: () => false,
      step: (step) => steps.push(step),
    });
    assert.ok(result.setups.length >= 1);
    const library = new Set(shopLibrary.map((a) => a.uuid));
    for (const setup of result.setups) {
      assert.match(
        setup.id,
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        "a setup is a CAM entity with a UUID",
      );
      const v = setup.verification;
      assert.deepEqual([v.gouges, v.rapids_through_material, v.holder_collisions], [0, 0, 0], setup.name);
      assert.ok(setup.operations.length > 0, `${setup.name} has operations`);
      for (const operation of setup.operations)
        assert.ok(library.has(operation.tool.assembly_uuid), `${operation.name}: a library tool`);
      assert.ok(setup.machining_time_s > 0);
      // blocks: every operation in one block of its own stage, in the order the operations run
      assert.equal(blocksProblem(setup.blocks, setup.operations), null, setup.name);
      const kindOf = new Map(setup.operations.map((o) => [o.id, o.kind]));
      for (const block of setup.blocks)
        assert.ok(
          block.operation_ids.every((id) => blockKindOf(kindOf.get(id)!) === block.kind),
          block.name,
        );
    }
    assert.equal(result.setups[0]?.work_offset, "G54");
    // T numbers are the job's: 1, 2, ... in the order the job first uses its tools, in every setup
    const firstUse = [...new Set(result.setups.flatMap((s) => s.operations.map((o) => o.tool.assembly_uuid)))];
    for (const setup of result.setups)
      for (const tool of setup.tools) assert.equal(tool.number, firstUse.indexOf(tool.assembly_uuid) + 1, tool.name);
    // every step is reported, timed: what was kept is what the setups hold
    for (const setup of result.setups) {
      const own = steps.filter((step) => step.setup === setup.name);
      assert.equal(
        own.reduce((n, step) => n + step.kept, 0),
        setup.operations.length,
        `${setup.name}: steps ${JSON.stringify(own)}`,
      );
      assert.ok(own.every((step) => step.generate_s >= 0 && step.verify_s >= 0 && step.kept <= step.made));
      assert.equal(own.at(-1)?.kind, "holes");
    }
    assert.ok(Math.abs(result.machining_time_s - result.setups.reduce((sum, s) => sum + s.machining_time_s, 0)) < 0.2);
    // progress never goes back, ends at 1, and moves in steps of at most 10 %
    assert.deepEqual(
      progress,
      [...progress].sort((a, b) => a - b),
    );
    assert.equal(progress.at(-1), 1);
    assert.ok(
      progress.every((p, i) => i === 0 || p - (progress[i - 1] as number) <= 0.1 + 1e-9),
      `steps: ${progress.map((p) => p.toFixed(3)).join(" ")}`,
    );
  });

  it("puts the work offset at the stock's top corner: G54 from +Z is the stock's (min x, min y, max z)", () => {
    const result = planCam(oc, input(mfcad("0-5-19"), mfcadStock), quiet);
    const top = result.setups.find((s) => s.direction[2] === 1);
    assert.ok(top, `a +Z setup among ${result.setups.map((s) => s.name).join(", ")}`);
    assert.deepEqual(top.wcs, { origin: [-1, -1, 11], x_axis: [1, 0, 0], z_axis: [0, 0, 1] });
    // every move of the setup is inside the stock's box seen from the offset, or above it
    for (const operation of top.operations) {
      for (const move of operation.moves) {
        if (move.kind === "drill") continue;
        assert.ok(
          move.to[2] <= operation.clearance_z + 1e-9 && move.to[2] >= -18 - 1e-6,
          `${operation.name}: z ${move.to[2]}`,
        );
      }
    }
  });

  it("finishes partC with the starter library: its deep hexagonal passage from both ends, its slot's round end with a ball end mill, and says what is left", () => {
    const result = planCam(
      oc,
      input(brepOfStep(fixture("partC.step")), { min: [-2, -2, -8], max: [87.6, 46.7, 29] }),
      quiet,
    );
    const names = result.setups.map((s) => s.name);
    // the setup plan has -Y only; the 44.6 mm passage, 10 mm across, gets +Y too (setup-part.ts)
    assert.ok(names.includes("-Y") && names.includes("+Y"), names.join(", "));
    const last = result.setups.at(-1);
    assert.ok(last);
    assert.ok(last.verification.material_left_pct < 3, `material left ${last.verification.material_left_pct} %`);
    for (const setup of result.setups)
      assert.deepEqual(
        [setup.verification.gouges, setup.verification.rapids_through_material, setup.verification.holder_collisions],
        [0, 0, 0],
      );
    assert.ok(result.unmachined.some((u) => u.code === "material_left" && u.volume_mm3 !== null && u.volume_mm3 > 0));
    // how complete it is: every hole made, every face reached, the hexagonal passage's corners sharp
    const c = result.completeness;
    assert.deepEqual(
      [c.holes_not_made, c.faces_unreachable, c.operations_dropped],
      [[], [], 0],
      JSON.stringify(c.reasons),
    );
    assert.deepEqual([c.material_left.tolerance_mm, c.material_left.surface_limit_pct], [0.1, 0.5]);
    assert.equal(
      c.material_left.pct_of_removable,
      last.verification.material_left_pct,
      "the last setup's figure is the plan's",
    );
    assert.ok(
      c.sharp_corners.length > 0 &&
        c.sharp_corners.every(
          (corner) => corner.faces.length === 2 && corner.radius_left_mm >= 0.5 && corner.length_mm > 0,
        ),
    );
    // each rest tool finishing after the finisher, long-neck end mills below the long series'
    // reach, the slot's round end with a ball and the blind hole's flat bottom with an end mill
    // and the 1.73 mm hexagonal passage's -X end from -X took what is left from 11.2 % of the
    // surface (1,547 mm³) to 0.35 % (181 mm³)
    assert.ok(c.material_left.surface_pct <= 0.45 && c.material_left.volume_mm3 < 220, JSON.stringify(c.material_left));
    assert.equal(c.status, "complete", JSON.stringify(c.reasons));
    assert.deepEqual(c.reasons, []);
    const plusY = result.setups.find((s) => s.name === "+Y");
    assert.ok(
      plusY?.operations.some((o) => o.kind === "floor_finishing" && o.tool.kind === "ball" && o.tool.diameter === 2),
      "the 2 mm slot's round end, 1 mm in radius, with a 2 mm ball",
    );
    assert.ok(
      result.setups.some((s) => s.operations.some((o) => o.kind === "helical_boring" && o.features.includes(0))),
      "the flat-bottomed 3.8 mm hole bored to its bottom",
    );
    // every roughing of the first setup, cutting the blank, carries the engagement the simulation
    // measured (a later one may cut only air over what the setups before took: the stock it plans
    // on is never thinner than the truth); offset clearing enters its pockets at full width, and
    // each roughing whose p99 is over its stepover is a warning
    const isRoughing = (o: { kind: string }) => o.kind === "roughing" || o.kind === "rest_roughing";
    const first = result.setups[0]?.operations.filter(isRoughing) ?? [];
    assert.ok(first.length > 0 && first.every((o) => (o.engagement?.cutting_length_mm ?? 0) > 0));
    // (its ramps' and helices' flat passes are the entry, not measured: 158.5° at most beside them)
    assert.ok((first[0]?.engagement?.angle_max_deg ?? 0) > 150, JSON.stringify(first[0]?.engagement));
    const roughing = result.setups.flatMap((s) => s.operations).filter(isRoughing);
    const over = roughing.filter(
      (o) => o.engagement !== undefined && overTarget(o.parameters.stepover_mm, o.engagement),
    );
    // 21 of 39; 30 when the ramps' flat passes and thin stock on both walls of a narrow place
    // read as cutting at full width
    assert.ok(over.length > 0 && over.length <= 21, `${over.length} of ${roughing.length} over their target`);
    assert.deepEqual(
      result.warnings.filter((w) => w.code === "engagement_over_target").map((w) => w.details?.operation_id),
      over.map((o) => o.id),
    );
    // the starter library has every tool the plan would use: none is missing
    assert.deepEqual(c.tools_missing, []);
    assert.deepEqual(
      result.unmachined.filter((u) => u.code === "tool_missing").map((u) => u.message),
      [],
    );
  });

  it("says a plan is complete when what is left covers no more of the surface than the limit, and incomplete under a lower limit", () => {
    // a model every setup of which the vise holds, turned over included
    const part = mfcad("9-11-19");
    const byDefault = planCam(oc, input(part, mfcadStock), quiet).completeness;
    assert.equal(byDefault.status, "complete", JSON.stringify(byDefault));
    assert.ok(
      byDefault.material_left.surface_pct > 0 && byDefault.material_left.surface_pct <= 0.5,
      `${byDefault.material_left.surface_pct} %`,
    );
    const limit = byDefault.material_left.surface_pct / 2;
    const stricter = planCam(
      oc,
      input(part, mfcadStock, {
        options: { include_face_milling: true, sort_by_height: false, completeness_surface_limit_pct: limit },
      }),
      quiet,
    ).completeness;
    assert.equal(stricter.status, "incomplete");
    assert.deepEqual(
      stricter.reasons.map((r) => r.code),
      ["material_left"],
    );
    assert.equal(stricter.material_left.surface_limit_pct, limit);
    assert.match(stricter.reasons[0]!.message, new RegExp(`${stricter.material_left.surface_pct} %`));
  });

  it("says partC planned with one 10 mm end mill is incomplete: its holes not made, named by feature, and the tools missing by type and size", () => {
    const result = planCam(
      oc,
      input(
        brepOfStep(fixture("partC.step")),
        { min: [-2, -2, -8], max: [87.6, 46.7, 29] },
        { library: articles(/^SSR-EM3-1000-K-TA$/) },
      ),
      quiet,
    );
    const c = result.completeness;
    assert.equal(c.status, "incomplete");
    assert.ok(c.holes_not_made.length > 0, JSON.stringify(c));
    assert.ok(c.reasons.some((r) => r.code === "hole_not_made" && r.message.includes(String(c.holes_not_made[0]))));
    assert.ok(
      c.reasons.some((r) => r.code === "material_left"),
      "a 10 mm tool leaves the narrow passages",
    );
    assert.ok(c.material_left.surface_pct > 0.5);
    // each tool missing is an unmachined entry naming a type and a size, and a record of the features it was for
    const named = new Map<string, number[]>();
    for (const u of result.unmachined.filter((e) => e.code === "tool_missing")) {
      const match = /^Tool missing: (\w+) ([\d.]+) mm/.exec(u.message);
      assert.ok(match, u.message);
      const key = `${match[1]} ${match[2]}`;
      named.set(
        key,
        [...new Set([...(named.get(key) ?? []), ...u.features])].sort((a, b) => a - b),
      );
    }
    const expected = {
      // the blind 3.8 mm hole: no drill, and 10 mm is too large to bore it helically
      "Drill 3.8": [0],
      // the 1.73 mm hexagonal passages, the 2 mm pocket and slot, the 2.69 mm pocket, the 6.55 mm
      // passage; and a long-neck 6 mm one (30 mm reach) for the +Z walls deeper than the 10 mm reaches
      // (held in the vise, no setup asks a 6 mm one for the slot, 9)
      "CentreCuttingEndMill 1.5": [1, 3],
      "CentreCuttingEndMill 2": [7, 9],
      "CentreCuttingEndMill 2.5": [6],
      "CentreCuttingEndMill 6": [2, 5, 8, 10],
      // its sloped and curved faces: no ball or bull-nose end mill to finish them in 3D
      "BallEndMill 6": [],
    };
    assert.deepEqual(Object.fromEntries(named), expected);
    assert.deepEqual(
      Object.fromEntries(c.tools_missing.map((t) => [`${t.tool_type} ${t.diameter_mm}`, t.features])),
      expected,
      "one record per type and size",
    );
    const drill = c.tools_missing.find((t) => t.tool_type === "Drill");
    assert.equal(drill?.purpose, "drill 3.8 mm holes");
    assert.deepEqual(c.holes_not_made, [0]);
  });

  it("plans the same with the simulation on its own thread as in the planner's thread: the operations, their verdicts and what is left", () => {
    const partC = input(brepOfStep(fixture("partC.step")), { min: [-2, -2, -8], max: [87.6, 46.7, 29] });
    // setup ids are fresh UUIDs, and a remade operation takes the next operation id
    const comparable = (result: PlanResult) => ({
      ...result,
      // the warnings naming an operation by its id, without it (a remade operation takes the next id)
      warnings: result.warnings.map((w) =>
        w.details?.operation_id === undefined ? w : { ...w, message: "", details: { ...w.details, operation_id: "" } },
      ),
      setups: result.setups.map(({ id: _id, blocks, operations, ...setup }) => ({
        ...setup,
        blocks: blocks.map((block) => ({ kind: block.kind, name: block.name, operations: block.operation_ids.length })),
        operations: operations.map(({ id: _op, ...operation }) => operation),
      })),
    });
    const threaded = planCam(oc, partC, quiet);
    const inline = planCam(oc, partC, { ...quiet, checks: inlineChecks });
    assert.deepEqual(comparable(threaded), comparable(inline));
  });

  it("makes a through hole counterbored at both ends half from each end: each end's counterbore, and a bore drilled past the middle", () => {
    const bytes = withOcctScope((scope) => writeBrep(oc, doubleCounterbore(oc, scope)));
    // stock flush with the sides: the top skin and the hole are all there is to remove
    const result = planCam(oc, input(bytes, { min: [0, 0, 0], max: [30, 30, 41] }), quiet);
    assert.ok(
      !result.unmachined.some((u) => u.code === "hole_unreachable"),
      JSON.stringify(result.unmachined.map((u) => u.code)),
    );
    for (const name of ["+Z", "-Z"]) {
      const setup = result.setups.find((s) => s.name === name);
      assert.ok(setup, `no ${name} setup: ${result.setups.map((s) => s.name).join(", ")}`);
      const kinds = setup.operations.map((o) => `${o.kind} ${o.tool.diameter}`);
      assert.ok(kinds.includes("drilling 6"), `${name}: ${kinds.join(", ")}`);
      assert.ok(
        setup.operations.some((o) => o.kind === "helical_boring"),
        `${name}: no counterbore: ${kinds.join(", ")}`,
      );
      assert.deepEqual(
        [setup.verification.gouges, setup.verification.rapids_through_material, setup.verification.holder_collisions],
        [0, 0, 0],
      );
    }
    // the 6 mm bore and both 10 mm counterbores are gone: what is left is cusps and the drill's tolerance
    const last = result.setups.at(-1);
    assert.ok(
      last && last.verification.material_left_pct < 1,
      `material left ${last?.verification.material_left_pct} %`,
    );
  });

  it("finishes with the largest end mill the rounded corners allow, and reports the narrow slot and sharp corners against the smallest that ran", () => {
    // a pocket with 3.5 mm corners, and beside it a blind slot 3.2 mm wide with sharp ends
    const bytes = withOcctScope((scope) =>
      writeBrep(oc, cut(oc, scope, roundedPocket(oc, scope, 3.5), makeBox(oc, scope, [24, 3.2, 4], [8, 30, 16]))),
    );
    const library = articles(/^SSR-EM3-(1200|0600|0300)-K-TA$/);
    const result = planCam(oc, input(bytes, { min: [0, 0, 0], max: [40, 40, 21] }, { library }), quiet);
    const top = result.setups.find((s) => s.name === "+Z");
    assert.ok(top, result.setups.map((s) => s.name).join(", "));
    // the 3 mm end mill after it has no wall to take: the 6 mm one finished every wall it reaches,
    // and the slot holds more stock than a finishing pass takes (reported); running the walls
    // the 6 mm finished, its 430 moves cut nothing
    const finishing = top.operations.filter((o) => o.kind === "wall_finishing").map((o) => o.tool.diameter);
    assert.deepEqual(finishing, [6]);
    assert.ok(
      result.unmachined.some((u) => /wall finishing with End mill Ø3 .* of wall skipped: more than/.test(u.message)),
      JSON.stringify(result.unmachined.map((u) => u.message)),
    );
    assert.deepEqual(
      [top.verification.gouges, top.verification.rapids_through_material, top.verification.holder_collisions],
      [0, 0, 0],
    );
    // the slot's ends are sharp: reported against the 6 mm end mill, the smallest that went into
    // them (the 3 mm one, planned after it, found no stock it could take and made nothing)
    assert.ok(!top.operations.some((o) => o.tool.diameter === 3), top.operations.map((o) => o.name).join(", "));
    const corners = result.unmachined.filter((u) => u.code === "internal_corners_left");
    assert.ok(
      corners.length > 0 && corners.every((u) => / 6 mm end mill/.test(u.message)),
      JSON.stringify(corners.map((u) => u.message)),
    );
  });

  it("refuses an empty library, a library of only a face mill, a stock beyond the machine's travel and an open part, each with its code", () => {
    const part = mfcad("0-5-19");
    assert.equal(
      refusal(() => planCam(oc, input(part, mfcadStock, { library: [] }), quiet)),
      "empty_library",
    );
    assert.equal(
      refusal(() => planCam(oc, input(part, mfcadStock, { library: articles(/^SSR-FM90-125-Z08$/) }), quiet)),
      "no_tool_fits",
    );
    assert.equal(
      refusal(() => planCam(oc, input(part, { min: [-1, -1, 0], max: [2000, 11, 11] }), quiet)),
      "part_exceeds_travel",
    );
    // a cube without its two +Z triangles (numbers 18 to 35 of cubeCorners)
    const corners = cubeCorners(10);
    const open = binaryStl([...corners.slice(0, 18), ...corners.slice(36)]);
    assert.equal(
      refusal(() =>
        planCam(oc, input(open, mfcadStock, { workpiece: { format: "stl", bytes: open, bytes_format: "stl" } }), quiet),
      ),
      "part_not_closed",
    );
  });

  it("leaves out the setups the stock does not fit the machine in, plans the others, and reports what only the left-out ones reach", () => {
    // a stock flush with the part's bottom, 12 x 12 x 11: from +Z and -Z it is 11 high, from the sides 12 deep
    const flush: Box3 = { min: [-1, -1, 0], max: [11, 11, 11] };
    const short = { ...machine, travel_z_mm: 11.5 };
    const part = mfcad("0-1-5-7-11-23");
    const result = planCam(oc, input(part, flush, { machine: short }), quiet);
    assert.ok(
      result.setups.some((s) => s.name === "+Z") && !result.setups.some((s) => s.name === "+Y"),
      `the part's +Y setup is left out: ${result.setups.map((s) => s.name).join(", ")}`,
    );
    const [left, ...more] = result.unmachined.filter((u) => u.code === "setup_exceeds_travel");
    assert.equal(more.length, 0);
    assert.match(
      left?.message ?? "",
      /^setup \+Y: the stock is 12 mm along the tool axis, the VMC 850 \(Fanuc 0i-MF\)'s Z travel is 11\.5 mm: the setup is left out/,
    );
    assert.ok(left!.features.length > 0 && left!.faces.length > 0, JSON.stringify(left));
    const unreachable = new Set(result.unmachined.filter((u) => u.code === "face_unreachable").flatMap((u) => u.faces));
    for (const face of left!.faces) assert.ok(unreachable.has(face), `face ${face} is reported unreachable`);
    const made = new Set(result.setups.flatMap((s) => s.operations.flatMap((o) => o.features)));
    for (const feature of left!.features)
      assert.ok(!made.has(feature), `feature ${feature} is listed as lost and machined nowhere`);
    // with the whole travel the +Y setup makes those features
    const full = planCam(oc, input(part, flush), quiet);
    assert.ok(full.setups.some((s) => s.name === "+Y"));
    assert.ok(!full.unmachined.some((u) => u.code === "setup_exceeds_travel"));
    // no setup fits: the plan is refused
    assert.equal(
      refusal(() => planCam(oc, input(part, flush, { machine: { ...machine, travel_z_mm: 5 } }), quiet)),
      "part_exceeds_travel",
    );
  });

  it("stops with PlanCancelled at its next check once cancelled", () => {
    let checks = 0;
    assert.throws(
      () => planCam(oc, input(mfcad("0-5-19"), mfcadStock), { progress: () => {}, cancelled: () => ++checks > 3 }),
      (error: unknown) => error instanceof PlanCancelled,
    );
  });
});
