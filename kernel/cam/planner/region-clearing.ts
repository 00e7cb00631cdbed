/**
 * Auto clearing per region (clearing-regions.ts), for a roughing whose levels predict adaptive
 * may be faster (clearing-choice.ts): each region's roughing is made offset and adaptive, and the
 * faster of the two as made is kept for the region (fastest: its time plus the rest tools' time
 * for what it leaves). Where the levels predict adaptive cannot be faster (the same levels at the
 * same load) no region is made adaptive either: in partC's +Z and -Z pockets, closed and entered
 * at full width by offset passes, adaptive took 107 and 187 s against offset's 54 and 93. The regions kept adaptive make one
 * operation, "Adaptive roughing with ...", the others one "Roughing with ...", each listing its
 * regions (Operation.clearing_regions), the one with the open region first.
 *
 * The open region's roughing is made first, on the step's stock (and everything above the closed
 * regions' tops with it); the closed ones' on the stock it leaves, each from its top down, its
 * tool centre within it. Each starts and ends at the clearance plane, so an operation's moves
 * are its regions' one after the other, in that order: the closed regions are apart at their
 * levels, and each one's rapids were linked over a stock holding at least what the others leave.
 */
import { operationTime } from "../machining-time.ts";
import type { WorkBudget } from "../milling/adaptive/budget.ts";
import type { AdaptiveCut } from "../milling/adaptive/parameters.ts";
import type { MillingOutcome } from "../milling/operation.ts";
import type { Paths64 } from "../milling/polygons.ts";
import type { PartSlicer } from "../milling/slicer.ts";
import type { InProcessStock } from "../milling/stock.ts";
import type { PlanInput } from "../plan-types.ts";
import type { ClearingRegionReport, Operation } from "../types.ts";
import { adaptiveBudget, fastest } from "./clearing-choice.ts";
import { regionCentres, type ClearingRegion } from "./clearing-regions.ts";

export interface RegionClearingJob {
  regions: readonly ClearingRegion[];
  /** the step's roughing on `stock`, its tool centre `within`: offset (null) or adaptive, within the budget given */
  make: (
    clearing: AdaptiveCut | null,
    on: { stock: InProcessStock; within: (z: number) => Paths64 | null; budget: WorkBudget | null },
  ) => MillingOutcome;
  adaptive: AdaptiveCut;
  machine: PlanInput["machine"];
  where: { part: PartSlicer; stock: InProcessStock; stepdown_mm: number; allowance_z_mm: number };
}

interface Chosen {
  region: ClearingRegion;
  outcome: MillingOutcome;
  adaptive: boolean;
  time_s: number;
  other_s: number | null;
}

/**
 * The step's roughing as one or two outcomes (adaptive regions, offset regions; the one with the
 * open region first), made on `where.stock`, to be kept in that order; a refusal when no region
 * made anything.
 */
export function clearPerRegion(job: RegionClearingJob): MillingOutcome[] {
  const chosen: Chosen[] = [];
  let stock = job.where.stock;
  for (const [index, region] of job.regions.entries()) {
    const within = regionCentres(job.regions, index);
    const offset = job.make(null, { stock, within, budget: null });
    const adaptive =
      offset.operation !== null
        ? job.make(job.adaptive, { stock, within, budget: adaptiveBudget(offset, job.machine) })
        : null;
    const best = fastest(adaptive === null ? [offset] : [offset, adaptive], job.machine, { ...job.where, stock });
    if (best.operation === null) continue;
    const other = best === offset ? adaptive : offset;
    chosen.push({
      region,
      outcome: best,
      adaptive: best !== offset,
      time_s: timeOf(best.operation, job.machine),
      other_s: other?.operation ? timeOf(other.operation, job.machine) : null,
    });
    // the closed regions are roughed on what the open one leaves
    if (!region.closed) stock = stock.withCleared(best.cleared);
  }
  const groups = [chosen.filter((c) => c.adaptive), chosen.filter((c) => !c.adaptive)].filter((g) => g.length > 0);
  if (groups.length === 0) return [job.make(null, { stock, within: () => null, budget: null })];
  // the group with the open region (the first made) goes first
  groups.sort((a, b) => job.regions.indexOf((a[0] as Chosen).region) - job.regions.indexOf((b[0] as Chosen).region));
  return groups.map(joined);
}

/** The regions' roughings (all made alike) as one outcome: their moves one after the other. */
function joined(group: readonly Chosen[]): MillingOutcome {
  const first = group[0] as Chosen;
  const operation = first.outcome.operation as Operation;
  const reports: ClearingRegionReport[] = group.map((c) => ({
    clearing: c.adaptive ? "adaptive" : "offset",
    closed: c.region.closed,
    area_mm2: round(c.region.area_mm2),
    top_z: round(c.region.top_z),
    at: [round(c.region.at[0]), round(c.region.at[1])],
    time_s: round(c.time_s),
    other_s: c.other_s === null ? null : round(c.other_s),
  }));
  return {
    operation: {
      ...operation,
      moves: group.flatMap((c) => (c.outcome.operation as Operation).moves),
      clearing_regions: reports,
    },
    reason: null,
    cleared: group.flatMap((c) => c.outcome.cleared),
    skipped: group.flatMap((c) => c.outcome.skipped),
    notes: [...new Set(group.flatMap((c) => c.outcome.notes))],
  };
}

function timeOf(operation: Operation, machine: PlanInput["machine"]): number {
  return operationTime(operation, machine).total_s;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
