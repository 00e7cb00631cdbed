/**
 * The catalogue search over app_public.catalogue_entries. Every authenticated user reads every
 * row, so nothing here filters by user. docs/catalogue.md states what the search finds and in
 * what order; this header says how it stays fast.
 *
 * ## Search: the first k by (tier, diameter) without reading every match
 *
 * A match's key is (tier, diameter_mm), the tiers from the article number being q to q being
 * part of the name (tiersFor). A broad q ("end mill": 44 % of a 100,000 entry catalogue)
 * matches tens of thousands of rows, and rows are wide (the assembly JSON is stored inline,
 * about 2 KB a row, 201 MB for 103,000): fetching and sorting every match costs 50-300 ms, and
 * for prefixes that common the GIN index alone takes 15-60 ms. So each tier is answered on
 * its own, for its first k by diameter, best tier first, and the next tier only while fewer
 * than k entries are known: rows of a later tier rank after all of them, and the union of the
 * tiers' first k (each entry at its best tier) holds the overall first k. A tier is answered
 * by one of two plans:
 *
 * - **walk**: the rows in scope in diameter order, a Merge Append of one ordered range scan of
 *   `catalogue_type_diameter_idx` per tool type (and per diameter range of q's numbers), each
 *   row tested (the tier's condition, the manufacturer) until k match. Cheap when matches are
 *   common among the rows read: "end mill 6" reads a few dozen end mills of 6 mm, "drill" a
 *   few dozen drills (the tiers for the tool types q names read only those types). A walk
 *   reads at most a budget of rows, then hands over to the index pass.
 * - **index**: the GIN indexes (full text, trigrams), `catalogue_manufacturer_idx` and the
 *   primary key give every match, which are sorted. Cheap when matches are few (an article
 *   number or a fragment of one, a small maker). For several words the rarest one alone may go
 *   to the index, the others checked on the rows it finds.
 *
 * The planner's own estimates (one EXPLAIN without ANALYZE per tier) and a crude cost model
 * (answerTier) choose which plan goes first, and planner settings (PlannerSettings) make the
 * planner use the plan chosen. Without q, the filters alone are one walk of at most k rows; a
 * manufacturer filter is a condition like a tier's then.
 *
 * Row-level security constrains the plans: a policy's condition is checked before any
 * condition that is not leakproof, and `@@`, LIKE and lower() are not. Under the committed
 * read policy (`current_user_id() is not null`) none of them may be an index condition, and the
 * index pass reads the whole table (docs/catalogue.md, "The read policy"). Under any policy
 * `lower(manufacturer) = ...` forms no equivalence class, so catalogue_manufacturer_idx cannot
 * give diameter order: the walk tests the manufacturer on the rows it reads instead.
 */
import { TOOL_TYPES, type ToolType } from "../../../kernel/tools/tool-types.ts";
import type { Queryable } from "../../request-transaction.ts";
import { answerTier, type Ranked } from "./answer-tier.ts";
import { HIT_COLUMNS, type CatalogueHit } from "./hit.ts";
import { PlannerSettings } from "./planner-settings.ts";
import { walk } from "./plans.ts";
import { normalizeQuery } from "./query-words.ts";
import { Params, rangeCondition, scopeConditions, scopeParams, type Scope } from "./statement.ts";
import { tiersFor } from "./tiers.ts";

export interface CatalogueSearch {
  /** null or blank: none */
  q: string | null;
  /** any letter case */
  manufacturer: string | null;
  /** empty: every type */
  toolTypes: readonly ToolType[];
  diameterMin: number | null;
  diameterMax: number | null;
  limit: number;
}

export interface CatalogueSearchResult {
  results: CatalogueHit[];
  /** more entries matched than `limit` */
  truncated: boolean;
}

const keyOf = (hit: CatalogueHit) => `${hit.manufacturer}\u0000${hit.article_number}`;

/** Plain string order, as `collate "C"` sorts in SQL (they differ only for characters beyond U+FFFF). */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function byRank(a: Ranked, b: Ranked): number {
  return (
    a.tier - b.tier ||
    a.hit.diameter_mm - b.hit.diameter_mm ||
    compareText(a.hit.manufacturer, b.hit.manufacturer) ||
    compareText(a.hit.article_number, b.hit.article_number)
  );
}

/**
 * The search (docs/catalogue.md): without q the entries in scope by diameter, with q the
 * matches by tier and then diameter. The caller has made sure q or a filter narrows it.
 */
export async function searchCatalogue(db: Queryable, search: CatalogueSearch): Promise<CatalogueSearchResult> {
  const k = search.limit + 1; // one more than asked: says whether more matched
  const scope: Scope = {
    manufacturer: search.manufacturer,
    toolTypes: search.toolTypes.length > 0 ? search.toolTypes : TOOL_TYPES,
    typeFilter: search.toolTypes.length > 0,
    diameterMin: search.diameterMin,
    diameterMax: search.diameterMax,
  };
  const q = search.q === null ? "" : normalizeQuery(search.q);
  let found: Ranked[];
  if (q === "" && scope.manufacturer === null) {
    found = ((await walk(db, scope, null, k, k)) ?? []).map((hit) => ({ tier: 0, hit }));
  } else if (q === "") {
    // the manufacturer alone: walked when common, from its index when not
    const settings = new PlannerSettings(db);
    found = (await answerTier(db, settings, scope, { tier: 0, condition: () => "true" }, k)).found;
    await settings.restore();
  } else {
    const settings = new PlannerSettings(db);
    const best = new Map<string, Ranked>();
    const settled = new Set<number>();
    /** tool types a widening tier may leave out: its narrower tier has all their matches */
    const covered = new Map<number, readonly ToolType[]>();
    for (const tier of tiersFor(q, search.toolTypes.length > 0 ? search.toolTypes : TOOL_TYPES, search.manufacturer)) {
      // a later tier ranks after every entry known: k of them settle the first k
      if (best.size >= k) break;
      if (settled.has(tier.tier)) continue;
      const done = covered.get(tier.tier);
      const rest = done ? scope.toolTypes.filter((type) => !done.includes(type as ToolType)) : scope.toolTypes;
      if (rest.length === 0) continue;
      const tierScope = done ? { ...scope, toolTypes: rest, typeFilter: true } : scope;
      const answer = await answerTier(db, settings, tierScope, tier, k);
      if (tier.toolTypes && tier.widensTo !== undefined && answer.found.length < k)
        covered.set(tier.widensTo, tier.toolTypes);
      for (const tierNumber of answer.settles) settled.add(tierNumber);
      for (const ranked of answer.found) {
        const key = keyOf(ranked.hit);
        const known = best.get(key);
        if (!known || known.tier > ranked.tier) best.set(key, ranked);
      }
    }
    await settings.restore();
    found = [...best.values()];
  }
  found.sort(byRank);
  return { results: found.slice(0, search.limit).map((f) => f.hit), truncated: found.length > search.limit };
}

/**
 * The search the slow way, for tests and the benchmark's check: every entry in scope ranked in
 * one statement, the tier of each its best, sorted whole. The same order as searchCatalogue;
 * among entries of the same tier and diameter at the last place, the two may pick others (the
 * walk takes them in index order).
 */
export async function referenceSearch(
  db: Queryable,
  search: CatalogueSearch,
): Promise<(CatalogueHit & { tier: number })[]> {
  const p = new Params();
  const scope: Scope = {
    manufacturer: search.manufacturer,
    toolTypes: search.toolTypes,
    typeFilter: search.toolTypes.length > 0,
    diameterMin: search.diameterMin,
    diameterMax: search.diameterMax,
  };
  const where = scopeConditions(scopeParams(p, scope));
  const q = search.q === null ? "" : normalizeQuery(search.q);
  let tier = "0";
  if (q !== "") {
    const cases = tiersFor(q, search.toolTypes.length > 0 ? search.toolTypes : TOOL_TYPES, search.manufacturer).map(
      (t) => {
        const ranges = (t.diameterRanges ?? []).map((r) => {
          const low = p.add(r.low);
          return rangeCondition([low, r.low === r.high ? low : p.add(r.high)]);
        });
        const diameters = ranges.length > 0 ? `(${ranges.join(" or ")}) and ` : "";
        const types = t.toolTypes ? `e.tool_type = any(${p.add(t.toolTypes)}::text[]) and ` : "";
        return `case when ${diameters}${types}(${t.condition(p)}) then ${t.tier} end`;
      },
    );
    tier = cases.length === 0 ? "null::int" : `least(${cases.join(", ")})`;
  }
  const { rows } = await db.query<CatalogueHit & { tier: number }>(
    `select * from (select ${HIT_COLUMNS}, ${tier} as tier from app_public.catalogue_entries e
       ${where.length > 0 ? `where ${where.join(" and ")}` : ""}) ranked
      where tier is not null order by tier, diameter_mm, manufacturer collate "C", article_number collate "C" limit ${p.add(search.limit)}`,
    p.values,
  );
  return rows;
}
