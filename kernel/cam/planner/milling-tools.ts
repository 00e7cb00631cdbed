/**
 * The end mills a setup mills with, from the project's library only (a long-neck end mill,
 * trading flutes for reach, only follows the stubbier one of its diameter where that one does
 * not reach: longerReach):
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
 */
import type { Feature } from "../../features/recognition/types.ts";
import { wallReach } from "../cutter-shape.ts";
import type { Trough } from "../milling/troughs.ts";
import type { Unmachined } from "../plan-types.ts";
import { ROUGHING_ALLOWANCE } from "../tooling/feeds.ts";
import { missingEndMill, type MissingTool } from "../tooling/missing.ts";
import { mm, selectEndMill, type FeatureRef } from "../tooling/select.ts";
import type { Cutter, Vec3 } from "../types.ts";
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
/** the roughing tool is at most this fraction of the stock's narrower side */
export const ROUGHING_SHARE_OF_STOCK = 1 / 3;

export const MILLED_CLASSES = new Set<string>([
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

const END_MILLS = new Set(["CentreCuttingEndMill", "NonCentreCuttingEndMill"]);
/** The cutters that mill: flat end mills (centre-cutting or not) */
export const isEndMill = (c: Cutter): boolean => c.kind === "flat" && END_MILLS.has(c.tool_type);

const ALONG = 0.999;

export function sizingFeatures(setup: SetupPart, own: readonly Feature[], all: readonly Feature[]): Feature[] {
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
export function stubbyEndMills(endMills: readonly Cutter[]): Cutter[] {
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
export function longerReach(endMills: readonly Cutter[], tool: Cutter, depth: number): Cutter[] {
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
export function troughBall(cutters: readonly Cutter[], troughs: readonly Trough[]): Cutter | null {
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
export function restAllowance(tool: Cutter): number {
  return Math.min(ROUGHING_ALLOWANCE.xy, tool.diameter / 10);
}

/** See the header. Centre-cutting tools first among equals: closed regions need a helix. */
export function roughingTool(endMills: readonly Cutter[], setup: SetupPart, depth: number): Cutter {
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
export function finishingTool(endMills: readonly Cutter[], milled: readonly Feature[], depth: number): Cutter {
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

export const refOf = (feature: Feature): FeatureRef => ({ id: feature.id, class: feature.class });

/**
 * The end mills a setup would have used had the library held any: the roughing tool (at most
 * ROUGHING_SHARE_OF_STOCK of the stock's narrower side, at most 20 mm) and, when it is smaller,
 * the smallest useful one (smallestUseful's rule).
 */
export function endMillsWanted(setup: SetupPart, milled: readonly Feature[], seen: readonly Feature[]): MissingTool[] {
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
export function smallerEndMillsWanted(
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
export function cornersLeft(milled: readonly Feature[], tool: Cutter, setupName: string): Unmachined | null {
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
export function restTools(endMills: readonly Cutter[], rougher: Cutter, smallest: number): Cutter[] {
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
export function smallestUseful(endMills: readonly Cutter[], seen: readonly Feature[]): number {
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
