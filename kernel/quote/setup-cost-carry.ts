/**
 * Per-setup cost overrides across a re-plan. The quote job keys them by CAM setup id, and every
 * plan gives its setups new ids; what a shop means by "this setup" is the side of the part it
 * is clamped for, its direction. So a new plan takes each override whose setup has a
 * counterpart from the same direction, and drops the others (docs/quote.md, "Re-planning").
 *
 * Two setups of one plan may share a direction (the planner splits a side): the k-th setup of
 * a direction, in the plan's order, takes the override of the k-th setup of that direction in
 * the plan the override was made for.
 */
import type { SetupCostEntry } from "./layers.ts";

type Direction = [number, number, number];

/** a setup as a plan's summary lists it */
export interface SetupRef {
  id: string;
  name: string;
  index: number;
  direction: Direction;
}

/** where an override was made: its setup and every setup of that plan */
export interface OverrideOrigin {
  setup: SetupRef;
  plan: readonly SetupRef[];
  /** 0 for the newest plan the overrides came from, higher for older ones: the newer wins a setup */
  age: number;
}

/** an override the new plan has no setup for */
export interface DroppedSetupCost {
  setup_id: string;
  name: string;
  direction: Direction;
  entry: SetupCostEntry;
}

export interface CarriedSetupCosts {
  /** by the new plan's setup ids */
  setup_costs: Record<string, SetupCostEntry>;
  dropped: DroppedSetupCost[];
}

/** about 0.06 degrees: a plan's directions are unit vectors, equal up to rounding for one side */
const SAME_DIRECTION_COS = Math.cos(1e-3);

export function sameDirection(a: Readonly<Direction>, b: Readonly<Direction>): boolean {
  const dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const norms = Math.hypot(...a) * Math.hypot(...b);
  return norms > 0 && dot / norms >= SAME_DIRECTION_COS;
}

/** the setup's rank among its plan's setups of the same direction, in the order they run */
function rankInDirection(setup: SetupRef, plan: readonly SetupRef[]): number {
  return plan.filter((s) => s.index < setup.index && sameDirection(s.direction, setup.direction)).length;
}

function counterpart(origin: OverrideOrigin, next: readonly SetupRef[]): SetupRef | null {
  const rank = rankInDirection(origin.setup, origin.plan);
  const candidates = [...next]
    .sort((a, b) => a.index - b.index)
    .filter((s) => sameDirection(s.direction, origin.setup.direction));
  return candidates[rank] ?? null;
}

/**
 * The overrides of a quote job for the new plan `next`. An override keyed by a setup of `next`
 * stays; one whose setup `origins` knows moves to its counterpart, or is dropped when there is
 * none (or when a newer override took it); one whose setup no plan had is gone without a word
 * (the breakdown never used it).
 */
export function carrySetupCosts(input: {
  overrides: Readonly<Record<string, SetupCostEntry>>;
  origins: ReadonlyMap<string, OverrideOrigin>;
  next: readonly SetupRef[];
}): CarriedSetupCosts {
  const nextIds = new Set(input.next.map((s) => s.id));
  const setup_costs: Record<string, SetupCostEntry> = {};
  const dropped: DroppedSetupCost[] = [];
  const taken = new Set<string>();
  // overrides of the new plan's own setups first, then the newest origins: they win a setup
  const keyed = Object.entries(input.overrides).filter(([id]) => nextIds.has(id));
  const moved = Object.entries(input.overrides)
    .filter(([id]) => !nextIds.has(id) && input.origins.has(id))
    .map(([id, entry]) => ({ entry, origin: input.origins.get(id)! }))
    .sort((a, b) => a.origin.age - b.origin.age || a.origin.setup.index - b.origin.setup.index);
  for (const [id, entry] of keyed) {
    setup_costs[id] = entry;
    taken.add(id);
  }
  for (const { entry, origin } of moved) {
    const target = counterpart(origin, input.next);
    if (target && !taken.has(target.id)) {
      setup_costs[target.id] = entry;
      taken.add(target.id);
    } else {
      dropped.push({ setup_id: origin.setup.id, name: origin.setup.name, direction: origin.setup.direction, entry });
    }
  }
  return { setup_costs, dropped };
}

/** "0, -1, 0": a direction as a user reads it (three decimals, no -0) */
export function formatDirection(direction: Readonly<Direction>): string {
  return direction.map((v) => String(Math.round(v * 1000) / 1000 || 0)).join(", ");
}

/** the breakdown's warning for an override a re-plan dropped */
export function droppedOverrideMessage(dropped: DroppedSetupCost): string {
  const price =
    dropped.entry.is_fixed_price === "true" ? `${dropped.entry.fix_price} EUR fixed` : `${dropped.entry.value} EUR/h`;
  const what = dropped.entry.name ? `"${dropped.entry.name}" (${price})` : `(${price})`;
  return (
    `the setup cost override ${what} of setup ${dropped.name} (direction ${formatDirection(dropped.direction)}) was dropped: ` +
    "the new plan has no setup from that direction; set the new setups' costs again if they need one"
  );
}
