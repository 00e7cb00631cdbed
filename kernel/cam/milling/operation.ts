/**
 * What every milling generator takes and gives back.
 *
 * A generator reads the part (a slicer over its triangles in the setup's frame) and the stock as
 * earlier operations left it, and returns an Operation with the stock layers it cleared (add them
 * to the stock for the next operation: `stock.withCleared(outcome.cleared)`), or null with the
 * reason. Regions it could not machine are listed in `skipped`.
 */
import type { CuttingParameters, Cutter, Operation, OperationKind, Vec2 } from "../types.ts";
import type { WorkBudget } from "./adaptive/budget.ts";
import type { AdaptiveLoad } from "./adaptive/parameters.ts";
import { materialHeights, ToolpathWriter } from "./linking.ts";
import type { Paths64, Rect64 } from "./polygons.ts";
import type { PartSlicer } from "./slicer.ts";
import type { ClearedLayer, InProcessStock } from "./stock.ts";

/** the clearance plane: this far above the stock's top */
export const CLEARANCE_ABOVE_STOCK_MM = 5;

/** The clearance plane over a stock's top: CLEARANCE_ABOVE_STOCK_MM, or the rapid clearance when that is more. */
export function clearancePlane(stockTop: number, rapidClearanceMm = 0): number {
  return stockTop + Math.max(CLEARANCE_ABOVE_STOCK_MM, rapidClearanceMm);
}

export interface MillingRequest {
  /** the part in the setup's frame: createSlicer(soupToFrame(frame, soup)) */
  part: PartSlicer;
  /** the stock in the setup's frame, as earlier operations left it */
  stock: InProcessStock;
  tool: Cutter;
  /** stepdown_mm already clamped to the tool's max_stepdown by the caller */
  parameters: CuttingParameters;
  /** Operation.id (default: the kind) */
  id?: string;
  name?: string;
  features?: number[];
  /** only round these rectangles (Clipper units) is material cut; default: everywhere */
  focus?: Rect64[];
  /**
   * where the tool centre may go at each level (Clipper units, the setup's XY; null: anywhere,
   * empty: the level is not this roughing's): a roughing of some of a setup's regions only
   * (planner/clearing-regions.ts); default: anywhere
   */
  within?: (z: number) => Paths64 | null;
  /** the deepest level (default: the part's lowest z) */
  bottom_z?: number;
  /**
   * The operation so far, after each level of a roughing: its moves until then are final, so the
   * simulation can run them while the next levels are made (planner/verify-thread.ts)
   */
  onMoves?: (operation: Operation) => void;
  /** how far rapids keep from all material (linking.ts RAPID_CLEARANCE_MM when not given) */
  rapid_clearance_mm?: number;
  /**
   * Clear each region by adaptive paths (adaptive/clear-adaptive.ts) at the load each level's
   * depth takes (adaptive/parameters.ts levelLoad; without a cross-section: this engagement at
   * the parameters' feed), the entry and the passes along the walls at the base feed; default:
   * offset passes (clearing.ts)
   */
  adaptive?: AdaptiveLoad;
  /** an adaptive roughing that spends this work (adaptive/budget.ts) stops and makes no operation */
  budget?: WorkBudget;
  /** the feed through air known to be cleared (../tooling/feeds.ts airFeed); the cutting feed when not given */
  air_feed_mm_min?: number;
  /**
   * the machine's max feed: offset passes are fed for the chip their engagement makes
   * (thin-chip.ts), within it; not given: at the cutting feed
   */
  thin_chip_max_feed_mm_min?: number;
}

/** A region left unmachined, and why. */
export interface SkippedRegion {
  z: number;
  /** a point of the region (setup frame, mm) */
  at: Vec2;
  area_mm2: number;
  reason: string;
}

export type MillingOutcome =
  | { operation: Operation; reason: null; cleared: ClearedLayer[]; skipped: SkippedRegion[]; notes: string[] }
  | { operation: null; reason: string; cleared: ClearedLayer[]; skipped: SkippedRegion[]; notes: string[] };

export function refusal(reason: string, skipped: SkippedRegion[] = [], notes: string[] = []): MillingOutcome {
  return { operation: null, reason, cleared: [], skipped, notes };
}

/** Why this tool cannot mill 2.5D paths, or null when it can. */
export function unusableTool(tool: Cutter, parameters: CuttingParameters): string | null {
  if (tool.kind !== "flat" && tool.kind !== "bull" && tool.kind !== "ball")
    return `${tool.name} is a ${tool.kind} tool, not an end mill`;
  if (!(tool.diameter > 0)) return `${tool.name} has no diameter`;
  if (!(parameters.stepdown_mm > 0)) return `the stepdown must be positive (${parameters.stepdown_mm} mm)`;
  if (!(parameters.stepover_mm > 0)) return `the stepover must be positive (${parameters.stepover_mm} mm)`;
  if (!(parameters.feed_mm_min > 0) || !(parameters.plunge_feed_mm_min > 0)) return "the feeds must be positive";
  return null;
}

/** Why a generator made nothing: `failed` and the first skipped region's reason, or `nothingNear` when none was skipped. */
export interface NothingCut {
  failed: string;
  nothingNear: string;
}

/**
 * What a generator that wrote its cuts through `writer` gives back: `operation` (made on
 * writer.moves, which finish() completes) when a move cuts, the refusal `why` says otherwise.
 */
export function writtenOutcome(
  operation: Operation,
  writer: ToolpathWriter,
  found: { cleared: ClearedLayer[]; skipped: SkippedRegion[] },
  why: NothingCut,
  notes: string[] = [],
): MillingOutcome {
  const { cleared, skipped } = found;
  const moves = writer.finish();
  if (!moves.some((move) => move.kind === "linear" || move.kind === "arc")) {
    const first = skipped[0];
    return refusal(first ? `${why.failed}: ${first.reason}` : why.nothingNear, skipped, notes);
  }
  return { operation, reason: null, cleared, skipped, notes };
}

export function makeOperation(
  request: MillingRequest,
  kind: OperationKind,
  defaultName: string,
  clearance_z: number,
  moves: Operation["moves"],
): Operation {
  return {
    id: request.id ?? kind,
    kind,
    name: request.name ?? defaultName,
    features: request.features ?? [],
    tool: request.tool,
    parameters: request.parameters,
    clearance_z,
    moves,
  };
}

/** The request's toolpath writer: its tool and feeds, rapids up to the clearance plane over the stock's top, the stock box's faces kept at the cutting feed. */
export function requestWriter(request: MillingRequest): ToolpathWriter {
  const { part, tool, parameters, stock } = request;
  return new ToolpathWriter(tool, {
    clearance_z: clearancePlane(stock.top_z, request.rapid_clearance_mm),
    feeds: {
      feed: parameters.feed_mm_min,
      plunge: parameters.plunge_feed_mm_min,
      ...(request.air_feed_mm_min === undefined ? {} : { air: request.air_feed_mm_min }),
    },
    heights: materialHeights(part, stock),
    box: stock.box,
    ...(request.rapid_clearance_mm === undefined ? {} : { rapid_clearance_mm: request.rapid_clearance_mm }),
  });
}
