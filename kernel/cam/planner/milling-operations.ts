/**
 * The milling of one setup, in the order a shop runs it: facing (when asked), roughing with the
 * largest end mill, rest roughing with smaller ones down to the finishing tool, then floor and
 * wall finishing, then 3D finishing of sloped and curved faces (surface-finishing-step.ts) and pencil finishing of
 * the valleys its ball left (pencil-step.ts). Each generator reads the stock the earlier ones left (milling/stock.ts).
 *
 * Its tools are chosen by milling-tools.ts.
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
import { troughFinishing } from "../milling/troughs.ts";
import { SCALE, type Rect64 } from "../milling/polygons.ts";
import { mergeOverlapping } from "../milling/regions.ts";
import { InProcessStock } from "../milling/stock.ts";
import { airFeed, cuttingParametersFor } from "../tooling/feeds.ts";
import { missingEndMill, toolMissingEntry, type MissingTool } from "../tooling/missing.ts";
import { mm, selectFaceMill } from "../tooling/select.ts";
import { wallReach } from "../cutter-shape.ts";
import type { Cutter, Operation, OperationKind } from "../types.ts";
import type { WorkBudget } from "../milling/adaptive/budget.ts";
import type { AdaptiveCut } from "../milling/adaptive/parameters.ts";
import type { Paths64 } from "../milling/polygons.ts";
import type { OperationCheck, PlanInput, PlanStep, Unmachined } from "../plan-types.ts";
import { adaptiveBudget, clearingsToTry, fastest } from "./clearing-choice.ts";
import { clearingRegions } from "./clearing-regions.ts";
import { clearPerRegion } from "./region-clearing.ts";
import { holePlugs, mergeSoups } from "./hole-plugs.ts";
import { pencilFinishingStep } from "./pencil-step.ts";
import { spindleLimitTold } from "./spindle-limited.ts";
import { surfaceFinishingStep } from "./surface-finishing-step.ts";
import { boxSoup, inBand } from "./keep-out.ts";
import type { SetupPart } from "./setup-part.ts";
import {
  cornersLeft,
  endMillsWanted,
  finishingTool,
  isEndMill,
  longerReach,
  MILLED_CLASSES,
  refOf,
  restAllowance,
  restTools,
  roughingTool,
  sizingFeatures,
  smallerEndMillsWanted,
  smallestUseful,
  stubbyEndMills,
  troughBall,
} from "./milling-tools.ts";

/**
 * How many made operations may wait for their verdict while the next is made. Two: a roughing's
 * simulation (seconds on a NIST part) outlasts making the floor finishing after it, and the wall
 * finishing can be made meanwhile too. Each more is what a drop throws away (a drop voids the
 * speculative ones after it). NIST CTC-01, which drops nothing, planned in 21.6 s at one and
 * 19.6 s at three.
 */
const SPECULATION_DEPTH = 2;

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
  // the features whose internal corners are tighter than the smallest tool planned for them:
  // reported once the steps have run, naming the tool that did go into them
  let corners: { features: Feature[]; planned: Cutter } | null = null;
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
    const tipSoup = mergeSoups(setup.soup, holePlugs(setup.holes), keepOutSoup);
    const surface = surfaceFinishingStep(setup, tipSoup, cutters, input.options.scallop_mm);
    for (const step of surface?.steps ?? []) steps.push({ kind: "surface_finishing", ...step });
    // the valleys the 3D finishing's ball left: a smaller ball along them
    const pencil = surface?.tool
      ? pencilFinishingStep(setup, tipSoup, cutters, {
          finishing: surface.tool,
          scallop_mm: input.options.scallop_mm,
        })
      : null;
    if (pencil) steps.push({ kind: "surface_finishing", ...pencil });
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
    corners = { features: seen.filter((f) => !wanted.has(f.id)), planned: cornerTool ?? finisher };
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
    /** one of a roughing's operations per clearing (region-clearing.ts) */
    split: boolean;
  }[] = [];
  // roughings made again offset and whole: one of their operations per clearing was dropped
  const wholeOffset = new Set<number>();
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
    for (const clamp of entry.clamps) {
      if (clamp.code === "max_spindle_rpm" && spindleLimitTold(step.kind)) continue;
      draft.warnings.push({ code: `feeds_${clamp.code}`, message: clamp.message });
    }
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
        if (entry.split) {
          wholeOffset.add(entry.index);
          next = entry.index;
        }
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
    const clearing = wholeOffset.has(index) ? "offset" : input.options.clearing;
    const clearings = clearingsToTry(
      { kind: step.kind, tool: step.tool, parameters },
      { clearing, max_feed_mm_min: input.machine.max_feed_mm_min },
      { part: slicer, stock },
    );
    const generating = performance.now();
    // a roughing's levels go to the simulation as they are made; of two clearings the first's
    // (offset, mostly kept), the other's whole if it is kept instead
    const onMoves = verifier === null ? undefined : (operation: Operation) => verifier.stream(operation, true);
    const id = nextId();
    const make = (
      adaptive: AdaptiveCut | null,
      extra: {
        onMoves?: (operation: Operation) => void;
        budget?: WorkBudget;
        within?: (z: number) => Paths64 | null;
        stock?: InProcessStock;
      },
    ): MillingOutcome =>
      step.generate({
        part: slicer,
        stock,
        tool: step.tool,
        parameters: adaptive?.parameters ?? parameters,
        ...(adaptive === null ? {} : { adaptive: adaptive.load }),
        id,
        features: milled.map((f) => f.id),
        ...extra,
        ...(input.options.rapid_clearance_mm === undefined
          ? {}
          : { rapid_clearance_mm: input.options.rapid_clearance_mm }),
        air_feed_mm_min: airFeed((adaptive?.parameters ?? parameters).feed_mm_min, input.machine),
        ...(step.kind === "roughing" || step.kind === "rest_roughing"
          ? { thin_chip_max_feed_mm_min: input.machine.max_feed_mm_min }
          : {}),
        ...(step.name ? { name: step.name } : {}),
        ...(focus === null ? {} : { focus }),
      });
    const where = {
      part: slicer,
      stock,
      stepdown_mm: parameters.stepdown_mm,
      allowance_z_mm: parameters.allowance_z_mm,
    };
    // auto roughing with both to make, in a setup with closed regions: the clearing is chosen per region
    const adaptive = (clearing ?? "auto") === "auto" ? (clearings[1] ?? null) : null;
    const regions = adaptive === null ? [] : clearingRegions({ part: slicer, stock, tool: step.tool, parameters });
    let outcomes: MillingOutcome[];
    if (adaptive !== null && regions.length > 1) {
      outcomes = clearPerRegion({
        regions,
        make: (cut, on) =>
          make(cut, { stock: on.stock, within: on.within, ...(on.budget === null ? {} : { budget: on.budget }) }),
        adaptive,
        machine: input.machine,
        where,
      });
      verifier?.discard();
    } else {
      // a second clearing may do the work the first's feed length allows (clearing-choice.ts), else it is not made
      let budget: WorkBudget | undefined;
      const made = clearings.map((adaptive, i) => {
        const outcome = make(adaptive, {
          ...(i === 0 && onMoves !== undefined ? { onMoves } : {}),
          ...(i > 0 && budget !== undefined ? { budget } : {}),
        });
        if (i === 0 && clearings.length > 1) budget = adaptiveBudget(outcome, input.machine);
        return outcome;
      });
      const outcome = fastest(made, input.machine, where);
      // the streamed moves are another clearing's (both have the step's id): the simulation forgets them
      if (outcome.operation === null || outcome !== made[0]) verifier?.discard();
      outcomes = [outcome];
    }
    const generate_s = (performance.now() - generating) / 1000;
    for (const [n, outcome] of outcomes.entries()) {
      // the second of a split roughing: an id of its own
      if (n > 0 && outcome.operation !== null) outcome.operation.id = nextId();
      open.push({ index, stock, outcome, clamps: n === 0 ? clamps : [], generate_s, split: outcomes.length > 1 });
      if (outcome.operation !== null) {
        verifier?.submit(outcome.operation, true);
        stock = stock.withCleared(outcome.cleared);
      }
    }
    settle(SPECULATION_DEPTH);
  }
  settle(0);
  if (corners !== null) {
    const left = cornersLeft(corners.features, smallestThatRan(draft.operations) ?? corners.planned, setup.name);
    if (left !== null) draft.unmachined.push(left);
  }
  if (band.regions > 0)
    draft.warnings.push({
      code: "clamped_band",
      message: `setup ${setup.name}: ${band.regions} ${band.regions === 1 ? "region" : "regions"} beside the workholding, down to z ${round(band.lowest)}, left for a later setup (the jaws or clamps hold the stock there)`,
    });
  draft.stock = stock;
  hooks.progress(1);
  return draft;
}

/**
 * The smallest end mill whose walls or rest roughing were kept: the one that last went into the
 * corners (a smaller one planned that found no stock made nothing there).
 */
function smallestThatRan(operations: readonly Operation[]): Cutter | null {
  let smallest: Cutter | null = null;
  for (const { kind, tool } of operations)
    if ((kind === "wall_finishing" || kind === "rest_roughing") && isEndMill(tool))
      if (smallest === null || tool.diameter < smallest.diameter) smallest = tool;
  return smallest;
}

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

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
