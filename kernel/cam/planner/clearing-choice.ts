/**
 * Offset or adaptive clearing for one roughing or rest roughing (the plan's `clearing`; "auto",
 * the default, chooses by the time it predicts, then per region where a setup has closed ones:
 * region-clearing.ts).
 *
 * The prediction reads the levels each would cut (milling/levels.ts zLevels: the same floors,
 * the offset at the cutting data's depth, adaptive at the tool's rated one) and the load each
 * level takes (adaptive/parameters.ts levelLoad): a level's time is its area over ae · vf, so
 * with the areas taken alike the two compare as the sums of 1 / (ae · vf) over their levels.
 * Where adaptive cuts the same levels at the same engagement and feed (every level no deeper
 * than the table's, as most of partC's +Z roughing) it cannot be faster, its paths longer than
 * offset passes at the same engagement (partC +Z: 4,515 mm of level feed against 2,591), and
 * only offset is made. Otherwise the area each level clears and the length of its paths decide,
 * which the levels alone do not tell: both are made and the one machining in less time is kept
 * (machining-time.ts, the time the plan reports), with the time the rest tools will take for
 * the material each leaves them (LEFT_SECONDS_PER_MM3): deeper levels leave taller steps on
 * sloped walls. Adaptive is made within a work budget (adaptiveBudget): past it, it is not made.
 * The prediction takes offset at its cutting feed: its passes are fed for their chip where they
 * engage less (milling/thin-chip.ts), so it errs towards making adaptive, and the times as made
 * decide.
 *
 * Rest roughing is offset whatever is asked: adaptive rest roughing at the rest tools' rated
 * depths took less time on NIST FTC-10 (2,104 s of roughing against 2,259) by leaving more
 * (1.18 % of the removable volume against 0.96 %) to the long-neck tools after them, and on
 * partC its 1 to 3 mm tools' cell grids took minutes to plan.
 */
import { operationTime } from "../machining-time.ts";
import { WorkBudget } from "../milling/adaptive/budget.ts";
import { adaptiveCut, levelLoad, type AdaptiveCut } from "../milling/adaptive/parameters.ts";
import { zLevels } from "../milling/levels.ts";
import type { MillingOutcome } from "../milling/operation.ts";
import type { PartSlicer } from "../milling/slicer.ts";
import { area, difference } from "../milling/polygons.ts";
import type { InProcessStock } from "../milling/stock.ts";
import type { PlanInput, PlanOptions } from "../plan-types.ts";
import type { Cutter, CuttingParameters, OperationKind } from "../types.ts";

/**
 * Seconds the rest tools take per mm³ more a roughing leaves them. On NIST FTC-10 adaptive
 * roughing at the 10 mm end mill's rated 22 mm (offset: 10 mm levels) was faster on +Z and -Z
 * (222 s against 254, 132 against 192) but left 17,240 and 27,439 mm³ more, on the sloped walls
 * between its deeper levels, and the rest roughings after it took 119 and 143 s longer: 6.9 and
 * 5.2 ms per mm³.
 */
const LEFT_SECONDS_PER_MM3 = 0.006;
/** a roughing's adaptive clearing is made beside its offset one only when its levels predict at most this share of offset's time */
const WORTH_TRYING = 0.95;

/**
 * The work (adaptive/budget.ts cells) auto's adaptive candidate may do per mm its offset clearing
 * feeds, at least MIN and at most MAX: counted in work, not time, so a plan is the same on a quiet
 * machine and a loaded one (a budget of offset's planning time made NIST FTC-10's and partC's
 * plans differ with the load). Made to the end, partC's side roughings (12 mm end mill) did
 * 1.6 to 2.8 million cells, 2,770 to 4,000 per mm of offset's feed, and finish within MIN; NIST
 * FTC-10's and STC-06's 10 and 20 mm roughings needed more than 5,500 per mm (stopped there), and
 * CTC-01's 20 mm ones over the plate had not finished at 207 million cells (+Z, 274 m of offset
 * feed): MAX keeps what such a candidate throws away near the 10 to 30 s it cost under the time
 * budget, which left them unmade too (at 1,000 to 17,000 cells per ms on 2 shared cores).
 */
const BUDGET_CELLS_PER_FEED_MM = 5_000;
const MIN_BUDGET_CELLS = 4_000_000;
const MAX_BUDGET_CELLS = 60_000_000;

/** The work auto's adaptive candidate may do beside `offset`, the same step's offset clearing. */
export function adaptiveBudget(offset: MillingOutcome, machine: PlanInput["machine"]): WorkBudget {
  const feed = offset.operation === null ? 0 : operationTime(offset.operation, machine).feed_length_mm;
  return new WorkBudget(Math.min(MAX_BUDGET_CELLS, Math.max(MIN_BUDGET_CELLS, BUDGET_CELLS_PER_FEED_MM * feed)));
}

/** The clearings to make for a step, in order: null is offset. One: no choice to make. */
export function clearingsToTry(
  step: { kind: OperationKind; tool: Cutter; parameters: CuttingParameters },
  input: { clearing: PlanOptions["clearing"]; max_feed_mm_min: number },
  where: { part: PartSlicer; stock: InProcessStock },
): (AdaptiveCut | null)[] {
  const { kind, tool, parameters } = step;
  const clearing = input.clearing ?? "auto";
  // only roughing has a choice: rest roughing is offset (see the module's comment)
  if (kind !== "roughing" || clearing === "offset") return [null];
  const adaptive = adaptiveCut(tool, parameters, input.max_feed_mm_min);
  if (clearing === "adaptive") return [adaptive];
  const ratio = predictedRatio(tool, parameters, adaptive, where);
  return ratio <= WORTH_TRYING ? [null, adaptive] : [null];
}

/**
 * Adaptive's predicted time over offset's from their levels alone (areas alike): below 1 where
 * it cuts fewer levels or takes more per level; Infinity when there is nothing to cut.
 */
function predictedRatio(
  tool: Cutter,
  offset: CuttingParameters,
  adaptive: AdaptiveCut,
  where: { part: PartSlicer; stock: InProcessStock },
): number {
  const top = where.stock.highest();
  const { part } = where;
  const levels = (stepdown: number) =>
    zLevels({ top, bottom: part.bottom_z, floors: part.floors, stepdown, allowance_z: offset.allowance_z_mm });
  const offsetLevels = levels(offset.stepdown_mm);
  if (!Number.isFinite(top) || offsetLevels.length === 0) return Infinity;
  const offsetTime = offsetLevels.length / (offset.stepover_mm * offset.feed_mm_min);
  let above = top;
  let adaptiveTime = 0;
  for (const z of levels(adaptive.parameters.stepdown_mm)) {
    const load = levelLoad(adaptive.load, tool.diameter, above - z);
    adaptiveTime += 1 / (load.engagement_mm * load.feed_mm_min);
    above = z;
  }
  return adaptiveTime / offsetTime;
}

/**
 * Of outcomes made for the same step on `where.stock`, the one whose time plus the time the rest
 * tools take for what it leaves (LEFT_SECONDS_PER_MM3) is least; an operation before none.
 */
export function fastest(
  outcomes: readonly MillingOutcome[],
  machine: PlanInput["machine"],
  where?: { part: PartSlicer; stock: InProcessStock; stepdown_mm: number; allowance_z_mm: number },
): MillingOutcome {
  let best = outcomes[0] as MillingOutcome;
  let bestTime = Infinity;
  const made = outcomes.filter((outcome) => outcome.operation !== null);
  const left = where === undefined || made.length < 2 ? null : made.map((outcome) => leftVolume(outcome, where));
  const least = left === null ? 0 : Math.min(...left);
  made.forEach((outcome, i) => {
    const time =
      operationTime(outcome.operation as NonNullable<MillingOutcome["operation"]>, machine).total_s +
      (left === null ? 0 : ((left[i] as number) - least) * LEFT_SECONDS_PER_MM3);
    if (time < bestTime) {
      bestTime = time;
      best = outcome;
    }
  });
  return best;
}

/**
 * The stock an outcome leaves outside the part (mm³), read at the offset roughing's levels: each
 * level's material times the height down to it from the level above.
 */
function leftVolume(
  outcome: MillingOutcome,
  where: { part: PartSlicer; stock: InProcessStock; stepdown_mm: number; allowance_z_mm: number },
): number {
  const { part } = where;
  const stock = where.stock.withCleared(outcome.cleared);
  const top = where.stock.highest();
  let above = top;
  let volume = 0;
  for (const z of zLevels({
    top,
    bottom: part.bottom_z,
    floors: part.floors,
    stepdown: where.stepdown_mm,
    allowance_z: where.allowance_z_mm,
  })) {
    volume += area(difference(stock.remainingAbove(z), part.shadow(z))) * (above - z);
    above = z;
  }
  return volume;
}
