/**
 * The CAM planner, from the part to verified setups. It runs on a geometry thread
 * (geometry-pool/thread.ts) for the plan_cam task (tasks/automated_cam_planning.ts):
 *
 *   read the part, its features and setup directions          (planner/read-part.ts)  0 - 10 %
 *   leave out the setups the stock does not fit the machine in (planner/setup-part.ts)
 *   per setup: clamp it in the machine's vise, or the one given, else on its table (planner/hold-setup.ts)
 *              mill, make holes and chamfers                   (milling-, hole-operations.ts)
 *              simulating each operation as soon as it is     (verify.ts)          10 - 95 %
 *              made, dropping what violates
 *   leave out a setup without toolpaths, saying what it was for  (planner/no-toolpaths.ts)
 *   group operations into blocks, time the setups, list what is left              100 %
 *   number the job's tools once, the same T in every setup     (planner/tool-numbers.ts)
 *
 * Cancellation is checked between stages and between operations; a cancelled
 * plan throws PlanCancelled and keeps nothing. A plan that machines nothing at all is a failure
 * with the reasons (no tool fits, ...), not an empty success.
 */
import { randomUUID } from "node:crypto";
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { workOffsetName } from "../machines/work-offsets.ts";
import { defaultWorkholding, tableWorkholding } from "../workholding/defaults.ts";
import { EMPTY_LIBRARY } from "./planning-preconditions.ts";
import { setupMachiningTime } from "./machining-time.ts";
import { spindleLimitedWarnings } from "./planner/spindle-limited.ts";
import { queuedShadows, type ShadowSource } from "./milling/shadows.ts";
import { InProcessStock } from "./milling/stock.ts";
import type { Triangles } from "./milling/triangles.ts";
import { carriedTops, type ColumnTops } from "./simulation/carried-stock.ts";
import type { FixtureBox } from "./simulation/fixtures.ts";
import { removeBySetup, voxelStock } from "./simulation/voxel-stock.ts";
import {
  nearSurface,
  surfaceCovered,
  surfaceProximity,
  thickMaterialLeft,
  type ThickMaterial,
} from "./simulation/thick-material.ts";
import { cuttersFromLibrary } from "./tooling/cutter.ts";
import { mergeToolsMissing, type MissingTool } from "./tooling/missing.ts";
import {
  PlanCancelled,
  PlanError,
  type OperationCheck,
  type PlanHooks,
  type PlanInput,
  type PlanStep,
  type PlannedSetup,
  type PlanResult,
  type SetupLeftOut,
  type SimulatedSetup,
  type Unmachined,
  type VerifiedSetup,
  type WorkholdingSummary,
} from "./plan-types.ts";
import type { Move, Operation } from "./types.ts";
import { operationBlocks } from "./planner/blocks.ts";
import { engagementWarnings, withEngagement } from "./planner/engagement-targets.ts";
import { holeOperations } from "./planner/hole-operations.ts";
import { hasToolpaths, withoutToolpaths } from "./planner/no-toolpaths.ts";
import { carriedStock } from "./planner/carried-stock.ts";
import { millingOperations } from "./planner/milling-operations.ts";
import { isEndMill } from "./planner/milling-tools.ts";
import { partDesignFeedback } from "./planner/design-feedback.ts";
import { CUTTING_MESH_DEFLECTION_MM, readPart } from "./planner/read-part.ts";
import {
  completenessOf,
  DEFAULT_SURFACE_LIMIT_PCT,
  finishingTolerance,
  holesNotMade,
  type HoleMakers,
} from "./planner/completeness.ts";
import { sharpCorners } from "./planner/sharp-corners.ts";
import { jobToolNumbers } from "./planner/tool-numbers.ts";
import { gripsBlank, holdSetup } from "./planner/hold-setup.ts";
import { blankHolder, holdersOf } from "./planner/holders.ts";
import { WORKHOLDING_KEEP_OUT_MM } from "./planner/keep-out.ts";
import { holesNoSetupMakes, setupParts, type SetupPart } from "./planner/setup-part.ts";
import { exceedsTravelUnmachined } from "./planner/setups-left-out.ts";
import { InlineChecks, simulationCellSize, verifySetup } from "./planner/verify.ts";
import { ThreadedChecks } from "./planner/verify-thread.ts";
import { ThreadedShadows } from "./planner/shadow-thread.ts";

/** past these many setups the work offsets leave G54 to G59 (the many_setups warning) */
const PLAIN_WORK_OFFSETS = 6;

export function planCam(oc: OpenCascadeInstance, input: PlanInput, hooks: PlanHooks): PlanResult {
  let reported = 0;
  const report = (fraction: number) => {
    // a setup left out skips its share at once: progress still moves in steps of at most 10 %
    for (let step = reported + 0.1; step < fraction; step += 0.1) hooks.progress(step);
    hooks.progress(fraction);
    reported = fraction;
  };
  const checkpoint = (fraction: number) => {
    if (hooks.cancelled()) throw new PlanCancelled();
    report(fraction);
  };
  checkpoint(0);
  if (input.library.length === 0) throw new PlanError(EMPTY_LIBRARY.code, EMPTY_LIBRARY.message);
  const { cutters, skipped } = cuttersFromLibrary(input.library);
  if (cutters.length === 0) {
    throw new PlanError(
      "no_usable_tool",
      `none of the library's ${input.library.length} assemblies is a tool the planner can use: ${skipped.map((s) => s.message).join("; ")}`,
    );
  }

  const part = readPart(oc, input);
  checkpoint(0.1);
  const warnings = [...part.warnings, ...skipped.map((s) => ({ code: `assembly_${s.code}`, message: s.message }))];
  const unmachined: Unmachined[] = part.setups.unreachable_faces.map((face) => ({
    code: "face_unreachable",
    message: `face ${face.face} cannot be reached by a 3-axis tool from any setup direction: ${face.reason}`,
    features: [],
    faces: [face.face],
    volume_mm3: null,
  }));

  const holders = holdersOf(
    input.workholding === undefined ? defaultWorkholding(input.machine.product_id) : (input.workholding ?? undefined),
    tableWorkholding(input.machine.product_id),
  );
  const bandHolder = blankHolder(holders, input.stock);
  const fitting = setupParts(part, {
    stock: input.stock,
    endMills: cutters.filter(isEndMill),
    machine: input.machine,
    heldBandMm: bandHolder === undefined ? 0 : bandHolder.gripMm + WORKHOLDING_KEEP_OUT_MM,
    ...(holders.length === 0 ? {} : { gripsBlank: gripsBlank(holders) }),
  });
  const setups = fitting.setups;
  const setupsLeftOut: SetupLeftOut[] = [...fitting.leftOut];
  if (setups.length === 0 && setupsLeftOut.length > 0) {
    throw new PlanError(
      "part_exceeds_travel",
      `no setup fits the ${input.machine.name}: ${setupsLeftOut.map((s) => s.message).join("; ")}: choose a larger machine or smaller stock`,
    );
  }
  unmachined.push(...exceedsTravelUnmachined(setupsLeftOut));
  for (const feature of holesNoSetupMakes(part, setups)) {
    const hole = feature.hole as NonNullable<typeof feature.hole>;
    unmachined.push({
      code: "hole_unreachable",
      message: `${feature.class.replace("_", " ")} ${feature.id} (${round2(hole.diameter_mm)} mm, ${round2(hole.depth_mm)} mm deep) is reached whole from no setup direction: it is not drilled, end mills clear what they reach of it`,
      features: [feature.id],
      faces: feature.faces,
      volume_mm3: null,
    });
  }

  // what all setups together leave (simulation/voxel-stock.ts): each setup's own height field
  // sees only its side; material is left where it is thicker than the finishing tolerance
  // (simulation/thick-material.ts), not in the band the voxels see along every wall
  const acrossSetups = voxelStock(input.stock, part.soup);
  const tolerance = finishingTolerance(
    Math.max(...setups.map((s) => simulationCellSize(s.stock))),
    CUTTING_MESH_DEFLECTION_MM,
  );
  const near = nearSurface(acrossSetups, surfaceProximity(part.soup, input.stock, tolerance));
  const holeMakers: HoleMakers = new Map();
  // after the last setup kept: the plan's figure
  let latest: ThickMaterial | null = null;
  // tools the plan would have used had the library held them, each setup's, merged at the end
  const wanted: MissingTool[] = [];
  let counter = 0;
  const planned: PlannedSetup[] = [];
  setups.forEach((plain, i) => {
    const span = 0.85 / setups.length;
    const base = 0.1 + i * span;
    let setup: SetupPart & { fixtures?: FixtureBox[] } = plain;
    let workholding: WorkholdingSummary | null = null;
    if (holders.length > 0) {
      const held = holdSetup(plain, {
        holders,
        acrossSetups,
        thick: latest?.thick ?? null,
        toleranceMm: tolerance,
        features: part.recognition.features,
        earlier: planned.map((s) => s.name),
      });
      if ("leftOut" in held) {
        setupsLeftOut.push(held.leftOut);
        unmachined.push(held.unmachined);
        checkpoint(base + span);
        return;
      }
      setup = held.setup;
      workholding = held.summary;
      if (held.warning) warnings.push(held.warning);
    }
    const nextId = () => `s${setup.index}-op${counter++}`;
    // the setup's share of the progress: 80 % milling, 20 % holes, each with its simulation
    const within = (from: number, to: number) => (fraction: number) =>
      report(base + span * (from + (to - from) * fraction));
    // the setup starts from what the ones before it left (carried-stock.ts), not the whole box
    const carried = i === 0 ? null : carriedTops(acrossSetups, setup.frame);
    const start = carried === null ? new InProcessStock(setup.stock) : carriedStock(setup.stock, carried);
    // each operation is simulated while the next is made (planner/verify.ts: speculation): the
    // ones after a dropped one are made again without what it would have cut
    const verifier = (hooks.checks ?? threadedChecks)(setup, carried);
    let verified: VerifiedSetup;
    let own: Unmachined[];
    try {
      const stage = {
        cancelled: hooks.cancelled,
        progress: within(0, 0.8),
        step: (step: PlanStep) => hooks.step?.(step),
        shadows: hooks.shadows ?? threadedShadows,
      };
      const milling = millingOperations({
        setup,
        allFeatures: part.recognition.features,
        cutters,
        input,
        nextId,
        hooks: stage,
        verifier,
        start,
      });
      if (hooks.cancelled()) throw new PlanCancelled();
      checkpoint(base + span * 0.8);
      const generating = performance.now();
      const holes = holeOperations(setup, cutters, input, milling.stock, nextId);
      // made from the milling's final stock, not from each other's: none is void after a drop
      for (const operation of holes.operations) verifier.submit(operation, false);
      const verifying = performance.now();
      const toHoles = within(0.8, 1);
      let kept = 0;
      for (let n = 0; n < holes.operations.length; n++) {
        if (hooks.cancelled()) throw new PlanCancelled();
        toHoles(n / holes.operations.length);
        if (verifier.next(true)?.verdict === "kept") kept += 1;
      }
      hooks.step?.({
        setup: setup.name,
        kind: "holes",
        tool: null,
        generate_s: (verifying - generating) / 1000,
        verify_s: (performance.now() - verifying) / 1000,
        moves: holes.operations.reduce((n, o) => n + o.moves.length, 0),
        made: holes.operations.length,
        kept,
      });
      warnings.push(...milling.warnings, ...holes.warnings);
      for (const [feature, makers] of holes.makers)
        holeMakers.set(feature, [...(holeMakers.get(feature) ?? []), makers]);
      own = [...milling.unmachined, ...holes.unmachined];
      unmachined.push(...own);
      wanted.push(...milling.tools_missing, ...holes.tools_missing);
      verified = verifier.result();
    } finally {
      verifier.close();
    }
    if (input.options.sort_by_height) {
      // another order is another simulation: the kept operations again, highest first
      const sorted = verifySetup(setup, sortByHeight(verified.operations), {
        cellSize: verified.cellSize,
        cancelled: hooks.cancelled,
        carried,
      });
      verified = { ...sorted, dropped: [...verified.dropped, ...sorted.dropped] };
    }
    if (hooks.cancelled()) throw new PlanCancelled();
    unmachined.push(...verified.dropped);
    if (!hasToolpaths(verified.operations)) {
      const out = withoutToolpaths({
        setup,
        operations: verified.operations,
        dropped: verified.dropped,
        unmachined: own,
      });
      setupsLeftOut.push(out.setup);
      unmachined.push(out.unmachined);
      checkpoint(base + span);
      return;
    }
    removeBySetup(acrossSetups, setup.frame, verified.field);
    const left = thickMaterialLeft(acrossSetups, near);
    latest = left;
    checkpoint(base + span);
    const time = setupMachiningTime(verified.operations, input.machine);
    const operations = withEngagement(verified.operations, verified.engagement);
    warnings.push(...engagementWarnings(setup.name, operations));
    warnings.push(...spindleLimitedWarnings(setup.name, operations, time.operations, input.machine, input.material_id));
    // a CAM setup entity UUID: quote jobs key their setup costs by it (spec: setup_costs)
    const id = randomUUID();
    planned.push({
      id,
      name: setup.name,
      index: planned.length,
      direction: setup.direction,
      wcs: setup.frame,
      work_offset: workOffsetName(input.machine.postprocessor, planned.length),
      stock: setup.stock,
      machining_time_s: round1(time.total_s),
      blocks: operationBlocks(id, verified.operations),
      operations,
      // the job's numbers, given once every setup is planned (below)
      tools: [],
      ...(workholding === null ? {} : { workholding }),
      // material left: over the whole part after this setup and the ones before it
      verification: {
        ...verified.verification,
        material_left_mm3: round1(left.left_mm3),
        material_left_pct: round2(left.left_pct),
      },
    });
  });

  const numbered = jobToolNumbers({ setups: planned.map((s) => s.operations), library: input.library });
  planned.forEach((setup, i) => {
    setup.tools = numbered.setups[i] ?? [];
  });
  warnings.push(...numbered.warnings);

  if (planned.length > PLAIN_WORK_OFFSETS) {
    const name = (index: number) => workOffsetName(input.machine.postprocessor, index);
    warnings.push({
      code: "many_setups",
      message: `${planned.length} setups: work offsets beyond ${name(PLAIN_WORK_OFFSETS - 1)} are numbered ${name(PLAIN_WORK_OFFSETS)} onwards`,
    });
  }
  // facing alone does not make the part: a library that can do nothing else is refused
  const operationCount = planned.reduce(
    (sum, s) => sum + s.operations.filter((o) => o.kind !== "face_milling").length,
    0,
  );
  // a part held in no setup: that is why nothing is machined, whatever else is missing
  if (planned.length === 0 && setupsLeftOut.some((s) => s.reason === "workholding_unavailable")) {
    throw new PlanError(
      "workholding_unavailable",
      `${holders.length > 1 ? `neither the ${holders.map((h) => h.name).join(" nor the ")} hold the part in any setup` : `the ${holders[0]?.name} holds the part in no setup`}: ${setupsLeftOut
        .map((s) => s.message)
        .slice(0, 5)
        .join("; ")}`,
    );
  }
  if (operationCount === 0) {
    const reasons = unmachined.filter((u) => u.code !== "face_unreachable").map((u) => u.message);
    throw new PlanError(
      unmachined.some((u) => u.code === "no_tool_fits" || u.code === "tool_missing")
        ? "no_tool_fits"
        : "nothing_to_machine",
      reasons.length > 0
        ? `no operation could be planned: ${reasons.slice(0, 5).join("; ")}`
        : "the stock needs no machining to become the part",
    );
  }
  const left = latest ?? thickMaterialLeft(acrossSetups, near);
  if (left.left_mm3 > 0) {
    unmachined.push({
      code: "material_left",
      message: `${round1(left.left_mm3)} mm³ of the ${round1(left.removable_mm3)} mm³ to remove (${round2(left.left_pct)} %) is left thicker than ${tolerance} mm over the part after the last setup: sharp internal corners, regions no tool reaches, and cusps`,
      features: [],
      faces: [],
      volume_mm3: round1(left.left_mm3),
    });
  }
  // a sharp corner's fillet, and a voxel's reach either side of it, is not material left on the surface
  const corners = sharpCorners(part.analysis.edges, planned, Math.hypot(...acrossSetups.d) + tolerance);
  const covered = surfaceCovered(acrossSetups, left.thick, {
    soup: part.soup,
    tolerance_mm: tolerance,
    exclude: corners.zones,
  });
  const kept = new Set(planned.flatMap((s) => s.operations.map((o) => o.id)));
  const completeness = completenessOf({
    material: { ...left, surface_pct: covered.covered_pct },
    tolerance_mm: tolerance,
    surface_limit_pct: input.options.completeness_surface_limit_pct ?? DEFAULT_SURFACE_LIMIT_PCT,
    holes_not_made: holesNotMade(
      part.recognition.features.filter((f) => f.hole !== undefined).map((f) => f.id),
      holeMakers,
      kept,
    ),
    // a setup left out for the travel puts the faces no other setup reaches among these (setup-part.ts)
    faces_unreachable: part.setups.unreachable_faces.map((f) => f.face),
    operations_dropped: unmachined.filter((u) => u.code === "operation_dropped").length,
    // one record per tool type and size, its features merged (each an unmachined tool_missing entry too)
    tools_missing: mergeToolsMissing(wanted),
    setups_left_out: setupsLeftOut,
    sharp_corners: corners.corners,
  });
  report(1);
  return {
    machining_time_s: round1(planned.reduce((sum, s) => sum + s.machining_time_s, 0)),
    warnings: dedupe(warnings),
    unmachined,
    setups: planned,
    completeness,
    design_feedback: partDesignFeedback(part, input.material_id, cutters),
  };
}

const threadedChecks = (setup: SimulatedSetup, carried: ColumnTops | null): OperationCheck =>
  new ThreadedChecks(setup, carried);

/** The verification in the planner's own thread, one operation after another (tests, and where a second core is not to be used). */
export const inlineChecks = (setup: SimulatedSetup, carried: ColumnTops | null): OperationCheck =>
  new InlineChecks(setup, carried);

const threadedShadows = (triangles: Triangles): ShadowSource => new ThreadedShadows(triangles);

/** The part's shadows made in the planner's own thread as they are read (where a second core is not to be used). */
export const inlineShadows = queuedShadows;

/** Highest cutting first (stable): an operation's height is the highest z it feeds at. */
function sortByHeight(operations: readonly Operation[]): Operation[] {
  const height = (operation: Operation) => Math.max(...operation.moves.map(cutTop));
  return operations
    .map((operation, i) => ({ operation, i, top: height(operation) }))
    .sort((a, b) => b.top - a.top || a.i - b.i)
    .map((entry) => entry.operation);
}

function cutTop(move: Move): number {
  if (move.kind === "rapid") return -Infinity;
  if (move.kind === "drill") return move.top_z;
  return move.to[2];
}

function dedupe(warnings: { code: string; message: string }[]): { code: string; message: string }[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.code}\n${w.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
