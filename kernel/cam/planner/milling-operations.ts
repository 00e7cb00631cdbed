/**
 * The milling of one setup, in the order a shop runs it: facing (when asked), roughing with the
 * largest end mill, rest roughing with smaller ones down to the finishing tool, then floor and
 * wall finishing, then 3D finishing of sloped and curved faces (surface-finishing-step.ts). Each generator reads the stock the earlier ones left (milling/stock.ts).
 *
 * Tools, from the project's library only (a long-neck end mill, trading flutes for reach, only
 * follows the stubbier one of its diameter where that one does not reach: longerReach):
 * - roughing: the largest flat end mill that reaches the setup's depth (else the longest
 *   reaching), no wider than a third of the stock's narrower side (a larger one only faces);
 * - finishing: the largest flat end mill reaching the walls whose radius fits the tightest rounded
 *   internal corner of the setup (with no corner known, the largest up to SHARP_CORNER_TOOL_MM);
 * - rest roughing: the tools in between, each at most REST_RATIO of the one before, down to the
 *   smallest useful one, which fits the narrowest feature and the tightest corner (a sharp one,
 *   radius 0, which no end mill cuts: up to SHARP_CORNER_TOOL_MM). Each rest tool smaller than
 *   the finisher also finishes after it, largest first, where the tools before left stock
 *   (corners, narrow places, walls below their reach); corners tighter than the smallest are
 *   reported unmachined.
 *
 * A tilted setup mills round its focus only (setup-part.ts): every generator gets the rectangles
 * round the focus faces (`focus`), and the tool centre stays over them (regions.ts: workWindows).
 */
import type { Feature } from "../../features/recognition/types.ts";
import type { ShadowSource } from "../milling/shadows.ts";
import { createSlicer, type PartSlicer } from "../milling/slicer.ts";
import type { Triangles } from "../milling/triangles.ts";
import { faceMilling } from "../milling/face-milling.ts";
import { floorFinishing, wallFinishing } from "../milling/finishing.ts";
import type { MillingOutcome, MillingRequest } from "../milling/operation.ts";
import { restRoughing, roughing } from "../milling/roughing.ts";
import { troughFinishing, type Trough } from "../milling/troughs.ts";
import { SCALE, type Rect64 } from "../milling/polygons.ts";
import { mergeOverlapping } from "../milling/regions.ts";
import { InProcessStock } from "../milling/stock.ts";
import { airFeed, cuttingParametersFor, ROUGHING_ALLOWANCE } from "../tooling/feeds.ts";
import { missingEndMill, toolMissingEntry, type MissingTool } from "../tooling/missing.ts";
import { mm, selectEndMill, selectFaceMill, type FeatureRef } from "../tooling/select.ts";
import { wallReach } from "../cutter-shape.ts";
import type { Cutter, Operation, OperationKind, Vec3 } from "../types.ts";
import type { AdaptiveCut } from "../milling/adaptive/parameters.ts";
import type { OperationCheck, PlanInput, PlanStep, Unmachined } from "../plan-types.ts";
import { clearingsToTry, fastest } from "./clearing-choice.ts";
import { holePlugs, mergeSoups } from "./hole-plugs.ts";
import { surfaceFinishingStep } from "./surface-finishing-step.ts";
import { boxSoup, inBand } from "./keep-out.ts";
import type { SetupPart } from "./setup-part.ts";

/** a rest tool is at most this fraction of the diameter of the tool before it (the smallest useful one always runs) */
export const REST_RATIO = 0.65;
/**
 * Sharp internal corners (radius 0) are left by every end mill and reported; tools smaller than
 * this only add planning and machining time for the sliver of corner they take (a 1 mm end mill
 * at 1 mm stepdown took a quarter of a NIST part's planning for 0.05 mm² per corner and mm of
 * depth). Narrow features still get the narrower tool they need.
 */
export const SHARP_CORNER_TOOL_MM = 3;
/**
 * When auto makes both clearings for a roughing, adaptive may take this many times offset's
 * planning time (at least MIN_BUDGET_MS's), else it is not made: unbounded, NIST CTC-01's -Z
 * roughing (a 20 mm end mill over the plate) took 207 s to make both ways, and the part's plan
 * 297 s against 114 s offset only; at three times, 107 s against 48 s. Once offset's time keeps
 * the plan near the aim of 1.5 times offset's planning.
 */
const ADAPTIVE_BUDGET = 1;
const MIN_BUDGET_MS = 1000;
/** the roughing tool is at most this fraction of the stock's narrower side */
export const ROUGHING_SHARE_OF_STOCK = 1 / 3;
/**
 * How many made operations may wait for their verdict while the next is made. Two: a roughing's
 * simulation (seconds on a NIST part) outlasts making the floor finishing after it, and the wall
 * finishing can be made meanwhile too. Each more is what a drop throws away (a drop voids the
 * speculative ones after it). NIST CTC-01, which drops nothing, planned in 21.6 s at one and
 * 19.6 s at three.
 */
const SPECULATION_DEPTH = 2;

const MILLED_CLASSES = new Set<string>([
  "rectangular_pocket",
  "triangular_pocket",
  "6sides_pocket",
  "circular_end_pocket",
  "rectangular_blind_slot",
  "vertical_circular_end_blind_slot",
  "horizontal_circular_end_blind_slot",
  "rectangular_through_slot",
  "triangular_through_slot",
  "circular_through_slot",
  "rectangular_passage",
  "triangular_passage",
  "6sides_passage",
  "rectangular_through_step",
  "2sides_through_step",
  "slanted_through_step",
  "rectangular_blind_step",
  "triangular_blind_step",
  "circular_blind_step",
]);

export interface DraftOperations {
  operations: Operation[];
  unmachined: Unmachined[];
  warnings: { code: string; message: string }[];
  /** tools the plan would have used had the library held them (each also an unmachined entry where something is left) */
  tools_missing: MissingTool[];
}

export interface MillingDraft extends DraftOperations {
  /** the stock as the milling leaves it */
  stock: InProcessStock;
}

const END_MILLS = new Set(["CentreCuttingEndMill", "NonCentreCuttingEndMill"]);
/** The cutters that mill: flat end mills (centre-cutting or not) */
export const isEndMill = (c: Cutter): boolean => c.kind === "flat" && END_MILLS.has(c.tool_type);

/** How far a stage is (0..1), and whether to stop: the plan's hooks seen from inside one stage. */
export interface StageHooks {
  progress(fraction: number): void;
  cancelled(): boolean;
  step?(step: PlanStep): void;
  /** where the slicer's shadows are made (plan-types.ts: PlanHooks.shadows); default: as they are read */
  shadows?(triangles: Triangles): ShadowSource;
}

const NO_HOOKS: StageHooks = { progress: () => {}, cancelled: () => false };

/** What one setup's milling works from. */
export interface MillingJob {
  setup: SetupPart;
  /** every feature of the part: tools are sized for those this side sees too */
  allFeatures: readonly Feature[];
  /** the project's library */
  cutters: readonly Cutter[];
  input: PlanInput;
  nextId: () => string;
  /** default: no progress, never cancelled */
  hooks?: StageHooks;
  /** simulates each operation and keeps or drops it; default: none, every operation made is kept */
  verifier?: OperationCheck | null;
  /** the stock as the setups before left it (carried-stock.ts); default: the whole box */
  start?: InProcessStock;
}

/**
 * The setup's milling. With `verifier`, each operation is simulated (verify.ts) and only a kept
 * one's cleared stock goes to the generators after it: a dropped roughing's stock is still there
 * for the rest tools. `operations` are then the kept ones only.
 *
 * The next operations are made while the simulation judges the ones before (up to
 * SPECULATION_DEPTH of them), on the stock those leave if kept; a roughing's moves go to the
 * simulation level by level as they are made. A drop takes the planning back to
 * the step after the dropped one, on the stock before it: what was made since is made again. So
 * the operations are the ones a step-by-step planning makes, and the verifier sees them on the
 * same stock.
 */
export function millingOperations(job: MillingJob): MillingDraft {
  const { setup } = job;
  const hooks = job.hooks ?? NO_HOOKS;
  const part = mergeSoups(setup.soup, holePlugs(setup.holes));
  // the workholding's boxes, after the part's triangles: solids the tools keep out of, no part
  const keepOut = setup.keepOut ?? [];
  const slicer =
    keepOut.length === 0
      ? createSlicer(part, hooks.shadows)
      : createSlicer(mergeSoups(part, boxSoup(keepOut)), hooks.shadows, part.indices.length / 3);
  try {
    return millWith(slicer, {
      ...job,
      hooks,
      verifier: job.verifier ?? null,
      start: job.start ?? new InProcessStock(setup.stock),
    });
  } finally {
    slicer.close();
  }
}

function millWith(slicer: PartSlicer, job: Required<MillingJob>): MillingDraft {
  const { setup, allFeatures, cutters, input, nextId, hooks, verifier, start } = job;
  let stock = start;
  const draft: MillingDraft = { operations: [], unmachined: [], warnings: [], tools_missing: [], stock };
  const toolMissing = (tool: MissingTool, where: { features: number[]; faces: number[] }, why: string): void => {
    draft.unmachined.push(toolMissingEntry(tool, where, why));
    draft.tools_missing.push(tool);
  };
  const endMills = cutters.filter(isEndMill);
  const milled = setup.features.filter((f) => MILLED_CLASSES.has(f.class));
  // tools are sized for every milled feature this side sees, also those another setup makes:
  // the slicer mills all the geometry the setup can reach, not only its own features
  const seen = sizingFeatures(setup, milled, allFeatures);
  const depth = setup.stock.max[2] - slicer.bottom_z;

  // the generators to run, in order; each takes up to seconds, so progress moves after each
  const steps: {
    kind: OperationKind;
    tool: Cutter;
    generate: (request: MillingRequest) => MillingOutcome;
    name?: string;
  }[] = [];
  // a tilted setup mills round its own faces only: facing its top, a corner of the stock, is no part of that
  if (input.options.include_face_milling && setup.focus === null && stock.highest() > slicer.top_z + 1e-3) {
    const width = Math.min(setup.stock.max[0] - setup.stock.min[0], setup.stock.max[1] - setup.stock.min[1]);
    const mill = selectFaceMill(cutters, { feature: { id: -1, class: "stock" }, width_mm: width });
    if (mill.ok)
      steps.push({
        kind: "face_milling",
        tool: mill.cutter,
        generate: faceMilling,
        name: `Facing the stock's top with ${mill.cutter.name}`,
      });
    else
      draft.warnings.push({ code: "facing_skipped", message: `setup ${setup.name}: facing skipped: ${mill.message}` });
  }
  if (endMills.length === 0) {
    const why = `setup ${setup.name}: the library has no flat end mill: nothing is milled`;
    for (const tool of endMillsWanted(setup, milled, seen))
      toolMissing(tool, { features: milled.map((f) => f.id), faces: [] }, why);
  } else {
    // the tools a shop mills with; a long-neck one follows its stubbier sibling where that one does not reach
    const stubby = stubbyEndMills(endMills);
    const rougher = roughingTool(stubby, setup, depth);
    // the deepest wall to finish: the deepest feature seen, below the stock's top
    const above = setup.stock.max[2] - slicer.top_z;
    const finishDepth = seen.length > 0 ? Math.max(...seen.map((f) => f.depth_mm ?? 0)) + above : depth;
    const finishers = endMills.filter((c) => c.diameter <= rougher.diameter);
    const finisher = finishingTool(
      stubby.filter((c) => c.diameter <= rougher.diameter),
      seen,
      finishDepth,
    );
    if (!finishers.some((c) => wallReach(c) >= finishDepth - 1e-9)) {
      // an end mill of at most the chosen one's size that reaches, if the range makes one
      const wanted = missingEndMill({
        at_most_mm: finisher.diameter,
        reach_mm: finishDepth,
        purpose: `finish walls ${mm(finishDepth)} mm deep`,
        features: seen.map(refOf),
      });
      const why = `setup ${setup.name}: no end mill of the library reaches ${round(finishDepth)} mm deep; walls below ${round(wallReach(finisher))} mm are left`;
      const where = { features: seen.map((f) => f.id), faces: [] };
      if (wanted !== null) toolMissing(wanted, where, why);
      else draft.unmachined.push({ code: "no_tool_fits", message: why, ...where, volume_mm3: null });
    }
    const rest = restTools(stubby, rougher, smallestUseful(stubby, seen));
    const reaching = (tool: Cutter): Cutter[] => [tool, ...longerReach(endMills, tool, finishDepth)];
    const finishing = (tool: Cutter): typeof steps =>
      reaching(tool).flatMap((t) => [
        { kind: "floor_finishing" as const, tool: t, generate: floorFinishing },
        { kind: "wall_finishing" as const, tool: t, generate: wallFinishing },
      ]);
    steps.push({ kind: "roughing", tool: rougher, generate: roughing });
    for (const tool of rest)
      for (const t of reaching(tool)) steps.push({ kind: "rest_roughing", tool: t, generate: restRoughing });
    steps.push(...finishing(finisher));
    // what the finisher cannot reach (corners, narrow places, depths below its flutes) each
    // smaller rest tool finishes in turn, where stock is left: a rest tool's roughing allowance
    // is nobody's to take otherwise
    const restFinishers = rest.filter((tool) => tool.diameter < finisher.diameter);
    for (const tool of restFinishers) steps.push(...finishing(tool));
    const cornerTool = restFinishers.at(-1) ?? null;
    // sloped and curved faces: a ball or bull-nose end mill over them in 3D, once the walls and floors round them are done
    const keepOutSoup = boxSoup(setup.keepOut ?? []);
    const surface = surfaceFinishingStep(
      setup,
      mergeSoups(setup.soup, holePlugs(setup.holes), keepOutSoup),
      cutters,
      input.options.scallop_mm,
    );
    if (surface?.step) steps.push({ kind: "surface_finishing", ...surface.step });
    if (surface?.warning) draft.warnings.push({ code: "surface_finishing", message: surface.warning });
    if (surface?.missing)
      toolMissing(surface.missing, { features: [], faces: setup.surfaces.faces }, surface.warning ?? "");
    // troughs across the tool axis: the roundest ball end mill that fits them, last (it changes no stock the others read)
    const ball = troughBall(cutters, setup.troughs);
    if (ball !== null)
      steps.push({
        kind: "floor_finishing",
        tool: ball,
        generate: (request) => troughFinishing(request, setup.troughs),
      });
    const smaller = smallerEndMillsWanted(endMills, seen, cornerTool ?? finisher, setup.name);
    for (const { tool, why } of smaller) toolMissing(tool, { features: tool.features, faces: [] }, why);
    const wanted = new Set(smaller.flatMap((s) => s.tool.features));
    const corners = cornersLeft(
      seen.filter((f) => !wanted.has(f.id)),
      cornerTool ?? finisher,
      setup.name,
    );
    if (corners !== null) draft.unmachined.push(corners);
  }

  const focus = setup.focus === null ? null : focusRects(setup, setup.focus);
  const keepOut = setup.keepOut ?? [];
  // the regions skipped beside the workholding: the clamped band, reported once for the setup
  const band = { regions: 0, lowest: Infinity };
  // steps made and submitted, whose verdict is not yet taken: each with the stock it was made on
  const open: {
    index: number;
    stock: InProcessStock;
    outcome: MillingOutcome;
    clamps: { code: string; message: string }[];
    generate_s: number;
  }[] = [];
  const record = (entry: (typeof open)[number], kept: boolean, verify_s: number): void => {
    const { outcome } = entry;
    const step = steps[entry.index] as (typeof steps)[number];
    hooks.step?.({
      setup: setup.name,
      kind: step.kind,
      tool: step.tool.name,
      generate_s: entry.generate_s,
      verify_s,
      moves: outcome.operation?.moves.length ?? 0,
      made: outcome.operation === null ? 0 : 1,
      kept: kept ? 1 : 0,
    });
    for (const clamp of entry.clamps) draft.warnings.push({ code: `feeds_${clamp.code}`, message: clamp.message });
    for (const region of outcome.skipped) {
      if (keepOut.length > 0 && inBand(region.at, region.z, step.tool.diameter / 2, keepOut)) {
        band.regions += 1;
        band.lowest = Math.min(band.lowest, region.z);
        continue;
      }
      draft.unmachined.push({
        code: "region_not_reached",
        message: `setup ${setup.name}: ${step.kind.replace(/_/g, " ")} with ${step.tool.name} left a region of ${round(region.area_mm2)} mm² at z ${round(region.z)} (${round(region.at[0])}, ${round(region.at[1])}): ${region.reason}`,
        features: [],
        faces: [],
        volume_mm3: null,
      });
    }
    if (kept && outcome.operation !== null) draft.operations.push(outcome.operation);
    hooks.progress((entry.index + 1) / steps.length);
  };
  let next = 0;
  /** Takes the verdicts there are, waiting while more than `keep` steps are open; after a drop, the planning goes back to the step after it. */
  const settle = (keep: number): void => {
    for (let entry = open[0]; entry !== undefined; entry = open[0]) {
      const wait = open.length > keep;
      let kept = false;
      let verify_s = 0;
      if (entry.outcome.operation !== null && verifier !== null) {
        const judgement = verifier.next(wait);
        if (judgement === null) return;
        kept = judgement.verdict === "kept";
        verify_s = judgement.seconds;
      } else {
        kept = entry.outcome.operation !== null;
      }
      open.shift();
      record(entry, kept, verify_s);
      if (!kept && entry.outcome.operation !== null) {
        // the steps made since were made on the stock it would have left
        stock = entry.stock;
        next = entry.index + 1;
        open.length = 0;
        return;
      }
    }
  };

  while (next < steps.length) {
    // a cancelled plan stops before the next generator; plan.ts throws
    if (hooks.cancelled()) break;
    const index = next++;
    const step = steps[index] as (typeof steps)[number];
    const { parameters, clamps } = cuttingParametersFor(
      step.tool,
      input.material_id,
      input.machine,
      step.kind,
      step.kind === "rest_roughing" ? { allowance_xy_mm: restAllowance(step.tool) } : {},
    );
    const clearings = clearingsToTry(
      { kind: step.kind, tool: step.tool, parameters },
      { clearing: input.options.clearing, max_feed_mm_min: input.machine.max_feed_mm_min },
      { part: slicer, stock },
    );
    const generating = performance.now();
    // a roughing's levels go to the simulation as they are made; of two clearings the first's
    // (offset, mostly kept), the other's whole if it is kept instead
    const onMoves = verifier === null ? undefined : (operation: Operation) => verifier.stream(operation, true);
    const id = nextId();
    // a second clearing may take ADAPTIVE_BUDGET times the first's planning time, else it is not made
    let stopAt: number | undefined;
    const make = (adaptive: AdaptiveCut | null, index: number): MillingOutcome => {
      const started = performance.now();
      const outcome = step.generate({
        part: slicer,
        stock,
        tool: step.tool,
        parameters: adaptive?.parameters ?? parameters,
        ...(adaptive === null ? {} : { adaptive: adaptive.load }),
        id,
        features: milled.map((f) => f.id),
        ...(index === 0 && onMoves !== undefined ? { onMoves } : {}),
        ...(input.options.rapid_clearance_mm === undefined
          ? {}
          : { rapid_clearance_mm: input.options.rapid_clearance_mm }),
        air_feed_mm_min: airFeed((adaptive?.parameters ?? parameters).feed_mm_min, input.machine),
        ...(step.name ? { name: step.name } : {}),
        ...(focus === null ? {} : { focus }),
        ...(index > 0 && stopAt !== undefined ? { stop_at: stopAt } : {}),
      });
      if (index === 0)
        stopAt = performance.now() + ADAPTIVE_BUDGET * Math.max(MIN_BUDGET_MS, performance.now() - started);
      return outcome;
    };
    const made = clearings.map(make);
    const outcome = fastest(made, input.machine, {
      part: slicer,
      stock,
      stepdown_mm: parameters.stepdown_mm,
      allowance_z_mm: parameters.allowance_z_mm,
    });
    // the streamed moves are another clearing's (both have the step's id): the simulation forgets them
    if (outcome.operation === null || outcome !== made[0]) verifier?.discard();
    open.push({ index, stock, outcome, clamps, generate_s: (performance.now() - generating) / 1000 });
    if (outcome.operation !== null) {
      verifier?.submit(outcome.operation, true);
      stock = stock.withCleared(outcome.cleared);
    }
    settle(SPECULATION_DEPTH);
  }
  settle(0);
  if (band.regions > 0)
    draft.warnings.push({
      code: "clamped_band",
      message: `setup ${setup.name}: ${band.regions} ${band.regions === 1 ? "region" : "regions"} beside the workholding, down to z ${round(band.lowest)}, left for a later setup (the jaws or clamps hold the stock there)`,
    });
  draft.stock = stock;
  hooks.progress(1);
  return draft;
}

const ALONG = 0.999;

/** The rectangles (Clipper units, the setup's XY) round each face's triangles, overlapping ones merged. */
function focusRects(setup: SetupPart, faces: readonly number[]): Rect64[] {
  const wanted = new Set(faces);
  const rects = new Map<number, Rect64>();
  const { positions, indices } = setup.soup;
  for (let t = 0; t < indices.length / 3; t += 1) {
    const face = setup.triangleFaces[t] as number;
    if (!wanted.has(face)) continue;
    let rect = rects.get(face);
    if (rect === undefined) {
      rect = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
      rects.set(face, rect);
    }
    for (let k = 0; k < 3; k += 1) {
      const v = indices[3 * t + k] as number;
      const x = (positions[3 * v] as number) * SCALE;
      const y = (positions[3 * v + 1] as number) * SCALE;
      rect.left = Math.min(rect.left, Math.floor(x));
      rect.right = Math.max(rect.right, Math.ceil(x));
      rect.top = Math.min(rect.top, Math.floor(y));
      rect.bottom = Math.max(rect.bottom, Math.ceil(y));
    }
  }
  return mergeOverlapping([...rects.values()]);
}

function sizingFeatures(setup: SetupPart, own: readonly Feature[], all: readonly Feature[]): Feature[] {
  const d = setup.direction;
  // a through feature is seen from its far end too (setup-part.ts adds that end's setup)
  const along = (a: Vec3) => a[0] * d[0] + a[1] * d[1] + a[2] * d[2] > ALONG;
  const facing = all.filter(
    (f) =>
      MILLED_CLASSES.has(f.class) &&
      f.access_direction !== null &&
      (along(f.access_direction) || f.other_access_directions.some(along)),
  );
  return [...new Set([...own, ...facing])];
}

/** The features' known internal corner radii and narrowest widths: what limits a tool's size. */
function sizeLimits(features: readonly Feature[]): { radii: number[]; widths: number[] } {
  return {
    radii: features.flatMap((f) => (f.min_internal_corner_radius_mm === null ? [] : [f.min_internal_corner_radius_mm])),
    widths: features.flatMap((f) => (f.min_width_mm === null ? [] : [f.min_width_mm])),
  };
}

/**
 * The end mills less the long-neck ones: an end mill trading flutes for reach (shorter flutes than
 * another of its diameter, yet reaching deeper) mills only where that one does not reach
 * (longerReach). With none of its diameter to follow, it is a tool like any other.
 */
function stubbyEndMills(endMills: readonly Cutter[]): Cutter[] {
  const longNeck = (c: Cutter) =>
    endMills.some(
      (o) => Math.abs(o.diameter - c.diameter) < 1e-9 && o.flute_length > c.flute_length && wallReach(o) < wallReach(c),
    );
  return endMills.filter((c) => !longNeck(c));
}

/**
 * The end mills of `tool`'s diameter that reach deeper than it, shortest reach first, when the
 * setup's walls go deeper than it reaches: each takes what the one before could not (partC's
 * hexagonal passage, 17 mm deep from each end: a 3 mm long-series end mill reaches 8 mm, a
 * long-neck one 20).
 */
function longerReach(endMills: readonly Cutter[], tool: Cutter, depth: number): Cutter[] {
  const out: Cutter[] = [];
  let reach = wallReach(tool);
  const longer = endMills
    .filter((c) => Math.abs(c.diameter - tool.diameter) < 1e-9 && wallReach(c) > wallReach(tool) + 1e-9)
    .sort((a, b) => wallReach(a) - wallReach(b));
  for (const c of longer) {
    if (reach >= depth - 1e-9) break;
    out.push(c);
    reach = wallReach(c);
  }
  return out;
}

/** The largest ball end mill no rounder than the tightest trough (the longest reaching among equals), or null. */
function troughBall(cutters: readonly Cutter[], troughs: readonly Trough[]): Cutter | null {
  if (troughs.length === 0) return null;
  const tightest = Math.min(...troughs.map((t) => t.radius));
  const balls = cutters.filter((c) => c.kind === "ball" && c.diameter / 2 <= tightest + 1e-3);
  return [...balls].sort((a, b) => b.diameter - a.diameter || wallReach(b) - wallReach(a))[0] ?? null;
}

/**
 * A rest tool's wall allowance: the roughing one, but at most a tenth of its diameter, so its own
 * wall finishing (walls.ts: at most a quarter of the diameter in one pass) takes what it leaves.
 * In partC's 2 mm slot a 1 mm end mill left 0.1 mm more than its allowance on each wall (the
 * stock above it, carried from the voxel model, is up to that much thicker); at 0.3 mm its
 * finishing skipped both walls.
 */
function restAllowance(tool: Cutter): number {
  return Math.min(ROUGHING_ALLOWANCE.xy, tool.diameter / 10);
}

/** See the header. Centre-cutting tools first among equals: closed regions need a helix. */
function roughingTool(endMills: readonly Cutter[], setup: SetupPart, depth: number): Cutter {
  const narrower = Math.min(setup.stock.max[0] - setup.stock.min[0], setup.stock.max[1] - setup.stock.min[1]);
  const limit = Math.max(narrower * ROUGHING_SHARE_OF_STOCK, Math.min(...endMills.map((c) => c.diameter)));
  const fitting = endMills.filter((c) => c.diameter <= limit + 1e-9);
  const choice = selectEndMill(
    fitting,
    {
      feature: { id: -1, class: "stock" },
      depth_mm: depth,
      min_internal_corner_radius_mm: null,
      min_width_mm: null,
      open_sides: false,
    },
    "roughing",
  );
  if (choice.ok) return choice.cutter;
  // nothing reaches the whole depth: the one reaching deepest, then the largest
  return [...fitting].sort(
    (a, b) =>
      b.flute_length - a.flute_length || b.diameter - a.diameter || Number(b.centre_cutting) - Number(a.centre_cutting),
  )[0] as Cutter;
}

/**
 * See the header. The narrowest features and the corners tighter than the finisher are the
 * smallest rest tool's, which finishes after it: NIST STC-06's +X setup, with one 3.08 mm slot,
 * finished every wall with a 3 mm end mill (10,616 moves), and with a 6 mm one and the 3 mm one
 * after it in the slot and corners it machines 9.4 min less.
 */
function finishingTool(endMills: readonly Cutter[], milled: readonly Feature[], depth: number): Cutter {
  const { radii } = sizeLimits(milled);
  const rounded = radii.filter((r) => r > 0);
  const radius = rounded.length > 0 ? Math.min(...rounded) : null;
  const reaching = endMills.filter((c) => wallReach(c) >= depth - 1e-9);
  const pool =
    reaching.length > 0
      ? reaching
      : endMills.filter((c) => wallReach(c) >= Math.max(...endMills.map((c) => wallReach(c))) - 1e-9);
  const fits = pool.filter((c) => radius === null || c.diameter / 2 <= radius + 1e-3);
  const largest = (tools: readonly Cutter[]) =>
    [...tools].sort((a, b) => b.diameter - a.diameter || b.flute_length - a.flute_length)[0];
  // corners known (sharp ones too): the largest that fits the rounded ones; none known, or none
  // fits: the largest that reaches up to SHARP_CORNER_TOOL_MM (else the smallest)
  const small = pool.filter((c) => c.diameter <= SHARP_CORNER_TOOL_MM + 1e-9);
  const choice =
    radii.length > 0 && fits.length > 0
      ? largest(fits)
      : small.length > 0
        ? largest(small)
        : [...pool].sort((a, b) => a.diameter - b.diameter || b.flute_length - a.flute_length)[0];
  return choice as Cutter;
}

const refOf = (feature: Feature): FeatureRef => ({ id: feature.id, class: feature.class });

/**
 * The end mills a setup would have used had the library held any: the roughing tool (at most
 * ROUGHING_SHARE_OF_STOCK of the stock's narrower side, at most 20 mm) and, when it is smaller,
 * the smallest useful one (smallestUseful's rule).
 */
function endMillsWanted(setup: SetupPart, milled: readonly Feature[], seen: readonly Feature[]): MissingTool[] {
  const narrower = Math.min(setup.stock.max[0] - setup.stock.min[0], setup.stock.max[1] - setup.stock.min[1]);
  const rough = missingEndMill({
    at_most_mm: Math.min(narrower * ROUGHING_SHARE_OF_STOCK, 20),
    purpose: "rough",
    features: milled.map(refOf),
  });
  const needed = smallestNeeded(seen);
  const small =
    needed.size < (rough?.diameter_mm ?? Infinity) - 1e-6
      ? missingEndMill({
          at_most_mm: needed.size,
          purpose: "finish corners and narrow features",
          features: needed.features.map(refOf),
        })
      : null;
  return [rough, small].filter((tool): tool is MissingTool => tool !== null);
}

/**
 * Rounded internal corners tighter than `tool` and features narrower than the library's smallest
 * end mill, where the library has no end mill small enough: the end mill each wants. Sharp corners
 * want none (no end mill makes them; cornersLeft reports them).
 */
function smallerEndMillsWanted(
  endMills: readonly Cutter[],
  seen: readonly Feature[],
  tool: Cutter,
  setupName: string,
): { tool: MissingTool; why: string }[] {
  const smallest = Math.min(...endMills.map((c) => c.diameter));
  const out: { tool: MissingTool; why: string }[] = [];
  for (const feature of seen) {
    const radius = feature.min_internal_corner_radius_mm;
    const width = feature.min_width_mm;
    const corner =
      radius !== null && radius > 1e-3 && radius < tool.diameter / 2 - 1e-3 && 2 * radius < smallest - 1e-3
        ? 2 * radius
        : Infinity;
    const narrow = width !== null && width < smallest - 1e-3 ? width : Infinity;
    const size = Math.min(corner, narrow);
    if (!Number.isFinite(size)) continue;
    const purpose =
      size === corner
        ? `finish internal corners of ${mm(radius ?? 0)} mm radius`
        : `mill ${feature.class.replaceAll("_", " ")}s ${mm(size)} mm wide`;
    const wanted = missingEndMill({ at_most_mm: size, purpose, features: [refOf(feature)] });
    if (wanted === null) continue;
    const why =
      size === corner
        ? `setup ${setupName}: the internal corners of feature ${feature.id} (radius ${mm(radius ?? 0)} mm) are tighter than the ${mm(tool.diameter)} mm end mill finishing them, the library's smallest being ${mm(smallest)} mm: material is left in them`
        : `setup ${setupName}: feature ${feature.id} is ${mm(size)} mm wide at its narrowest and the library's smallest end mill is ${mm(smallest)} mm`;
    out.push({ tool: wanted, why });
  }
  return out;
}

/** The internal corners tighter than the smallest finishing tool, reported (null when there are none). */
function cornersLeft(milled: readonly Feature[], tool: Cutter, setupName: string): Unmachined | null {
  const sharp = milled.filter(
    (f) => f.min_internal_corner_radius_mm !== null && f.min_internal_corner_radius_mm < tool.diameter / 2 - 1e-3,
  );
  if (sharp.length === 0) return null;
  return {
    code: "internal_corners_left",
    message: `setup ${setupName}: internal corners of ${sharp.map((f) => `feature ${f.id} (radius ${f.min_internal_corner_radius_mm} mm)`).join(", ")} are tighter than the ${tool.diameter} mm end mill finishing them: material is left in them (a smaller tool, or EDM)`,
    features: sharp.map((f) => f.id),
    faces: [],
    volume_mm3: null,
  };
}

/**
 * Rest roughing goes down in steps of at most REST_RATIO from the rougher to the smallest useful
 * end mill, each tool within its own reach: the small ones clear what they can of corners and
 * narrow places, however deep the larger ones went.
 */
function restTools(endMills: readonly Cutter[], rougher: Cutter, smallest: number): Cutter[] {
  const sizes = [
    ...new Map(
      endMills
        .filter((c) => c.diameter < rougher.diameter - 1e-9 && c.diameter >= smallest - 1e-9)
        .sort((a, b) => b.diameter - a.diameter || wallReach(b) - wallReach(a))
        .map((c) => [c.diameter, c]),
    ).values(),
  ];
  const chosen: Cutter[] = [];
  let last = rougher.diameter;
  sizes.forEach((tool, i) => {
    const isLast = i === sizes.length - 1;
    if (tool.diameter <= last * REST_RATIO + 1e-9 || isLast) {
      chosen.push(tool);
      last = tool.diameter;
    }
  });
  return chosen;
}

/**
 * The smallest end mill worth running: the largest no wider than the narrowest feature and no
 * larger than the tightest known corner radius allows; sharp corners (radius 0) ask for nothing
 * below SHARP_CORNER_TOOL_MM (every tool leaves them; smaller ones only cost time); the library's
 * smallest when nothing fits.
 */
function smallestUseful(endMills: readonly Cutter[], seen: readonly Feature[]): number {
  const needed = smallestNeeded(seen).size;
  const smallest = Math.min(...endMills.map((c) => c.diameter));
  const fitting = endMills.filter((c) => c.diameter <= needed + 1e-3);
  return fitting.length > 0 ? Math.max(...fitting.map((c) => c.diameter)) : smallest;
}

/** The smallest end mill the features ask for (smallestUseful's rule; Infinity: none), and the features that ask for it. */
function smallestNeeded(seen: readonly Feature[]): { size: number; features: Feature[] } {
  const asks = (f: Feature): number => {
    const r = f.min_internal_corner_radius_mm;
    const corner = r === null ? Infinity : r > 0 ? 2 * r : SHARP_CORNER_TOOL_MM;
    return Math.min(corner, f.min_width_mm ?? Infinity);
  };
  const size = Math.min(Infinity, ...seen.map(asks));
  return { size, features: Number.isFinite(size) ? seen.filter((f) => asks(f) <= size + 1e-9) : [] };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
