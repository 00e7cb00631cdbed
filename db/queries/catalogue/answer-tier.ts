/** One tier answered by the plan the planner's estimates favour. */
import type { Queryable } from "../../request-transaction.ts";
import type { CatalogueHit } from "./hit.ts";
import type { PlannerSettings } from "./planner-settings.ts";
import { fromIndex, walk, walkBudget } from "./plans.ts";
import { manufacturerCondition, Params, scopeConditions, scopeParams, type Scope } from "./statement.ts";
import type { Tier } from "./tiers.ts";

/** A match at the best tier known for it. */
export interface Ranked {
  tier: number;
  hit: CatalogueHit;
}

interface PlanNode {
  "Node Type"?: string;
  "Plan Rows"?: number;
  Plans?: PlanNode[];
}

/**
 * The planner's row estimates, from one EXPLAIN (nothing runs): rows in scope (but for the
 * manufacturer), rows in scope meeting the tier's condition, and rows meeting each narrowing.
 */
async function estimate(
  db: Queryable,
  scope: Scope,
  tier: Tier,
): Promise<{ scope: number; matches: number; narrowings: number[] }> {
  const p = new Params();
  const sp = scopeParams(p, scope);
  const inScope = scopeConditions(sp);
  const branch = (where: string[]) =>
    `select 1 from app_public.catalogue_entries e${where.length > 0 ? ` where ${where.join(" and ")}` : ""}`;
  // the rows a walk reads: the scope but for the manufacturer, which it tests on each row
  const walked = inScope.filter((c) => c !== manufacturerCondition(sp));
  const matching = (tier.estimateCondition ?? tier.condition)(p);
  // a narrowing's index entries are read whatever the scope: estimated without it
  const branches = [
    branch(walked),
    branch([matching, ...inScope]),
    ...(tier.narrowings ?? []).map((n) => branch([n(p)])),
  ];
  const { rows } = await db.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `explain (format json) ${branches.join(" union all ")}`,
    p.values,
  );
  // an Append of the branches in order (no parallel plan: the settings forbid it); anything
  // else and the estimates are unknown, which sends the tier to the index pass
  const top = rows[0]?.["QUERY PLAN"][0].Plan;
  const plans = top?.["Node Type"] === "Append" && top.Plans?.length === branches.length ? top.Plans : [];
  const rowsOf = (i: number) => plans[i]?.["Plan Rows"];
  return {
    scope: rowsOf(0) ?? Number.POSITIVE_INFINITY,
    matches: rowsOf(1) ?? Number.POSITIVE_INFINITY,
    narrowings: (tier.narrowings ?? []).map((_, i) => rowsOf(i + 2) ?? Number.POSITIVE_INFINITY),
  };
}

/** Relative cost of fetching a heap row against reading an index entry, for choosing a narrowing. */
const ROW_COST = 10;
/** A scope this small is walked whole: cheaper than any GIN index pass over common words. */
const WALK_WHOLE = 2000;
/** The most rows a walk reads before it hands over to the index pass. */
const MAX_WALK = 4000;

export interface TierAnswer {
  /** the tier's first k (with `widensTo` from the index: of both tiers), each with its tier */
  found: Ranked[];
  /** the tiers this answer settles */
  settles: number[];
}

/** The tier's first k in diameter order, by the plan its estimates favour. */
export async function answerTier(
  db: Queryable,
  settings: PlannerSettings,
  searchScope: Scope,
  tier: Tier,
  k: number,
): Promise<TierAnswer> {
  const scope: Scope = {
    ...searchScope,
    ...(tier.diameterRanges ? { diameterRanges: tier.diameterRanges } : {}),
    ...(tier.toolTypes ? { toolTypes: tier.toolTypes, typeFilter: true } : {}),
  };
  const only = (hits: CatalogueHit[]): TierAnswer => ({
    found: hits.map((hit) => ({ tier: tier.tier, hit })),
    settles: [tier.tier],
  });
  // an equality the primary key answers (skip scan): no estimate, no walk, no planner settings
  if (tier.direct) return only(await fromIndex(db, scope, [tier.condition], k));
  await settings.prepare();
  const guess = await estimate(db, scope, tier);
  // What the index pass would cost, in rows fetched: its index entries (every entry of every
  // word, a prefix's all at once) at a tenth of a row each, and the matches.
  const entries = guess.narrowings.reduce((sum, n) => sum + n, 0);
  const indexRows = entries / ROW_COST + guess.matches;
  // What a walk would read to find k: k over the share of rows that match. The estimate of
  // several words multiplies their frequencies as if independent; words of a name go together
  // ("end mill 6" matches 2.8 times as many as estimated), so for them the share is taken as
  // three times the estimate. Matches are not spread evenly over the diameters, which is why
  // a walk must promise to be several times cheaper than the index pass before it is tried; it
  // may then read up to half the rows the index pass would fetch ("tialn twist drill" reads
  // some 2,000 drills rather than intersect the entries of three common prefixes).
  const share = Math.min(1, (guess.matches / Math.max(guess.scope, 1)) * (tier.correlated ? 3 : 1));
  const walkRows = share > 0 ? k / share : Number.POSITIVE_INFINITY;
  // a scope small enough is read whole: its cost is known, however the matches lie in it
  const whole = guess.scope <= Math.max(WALK_WHOLE, Math.min(MAX_WALK, indexRows / 2));
  if (whole || walkRows <= Math.min(MAX_WALK, indexRows / 5)) {
    const budget = whole
      ? Math.round(Math.min(MAX_WALK, Math.max(WALK_WHOLE, guess.scope * 1.5)))
      : Math.round(Math.min(MAX_WALK, Math.max(walkBudget(k), indexRows / 2)));
    await settings.use("walk");
    const walked = await walk(db, scope, tier.condition, k, budget);
    if (walked) return only(walked);
  }
  await settings.use("index");
  let conditions = [tier.condition];
  const narrowings = tier.narrowings ?? [];
  if (narrowings.length > 0 && tier.unindexed) {
    // all parts from the index: every part's entries read (a prefix's all at once), then the
    // matches fetched; one part from the index: its entries, its rows fetched and checked
    const allParts = guess.narrowings.reduce((sum, n) => sum + n, 0) + ROW_COST * guess.matches;
    const rarest = guess.narrowings.indexOf(Math.min(...guess.narrowings));
    const onePart = (ROW_COST + 1) * (guess.narrowings[rarest] ?? Number.POSITIVE_INFINITY);
    const narrowing = narrowings[rarest];
    if (narrowing && onePart < allParts) conditions = [narrowing, tier.unindexed];
  }
  if (tier.toolTypes && tier.widensTo !== undefined) {
    // this tier's types first, then the rest of the scope: both tiers in one index pass
    const wide = await fromIndex(db, searchScope, conditions, k, tier.toolTypes);
    return {
      found: wide.map(({ hit, first }) => ({ tier: first ? tier.tier : tier.widensTo!, hit })),
      settles: [tier.tier, tier.widensTo],
    };
  }
  return only(await fromIndex(db, scope, conditions, k));
}
