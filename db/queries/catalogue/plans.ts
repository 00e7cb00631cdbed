/** The two plans that answer a tier: the walk in diameter order, and the index pass. */
import type { Queryable } from "../../request-transaction.ts";
import { HIT_COLUMNS, toHit, type CatalogueHit, type HitRow } from "./hit.ts";
import {
  manufacturerCondition,
  Params,
  rangeCondition,
  scopeConditions,
  scopeParams,
  STREAM_COLUMNS,
  type Condition,
  type Scope,
} from "./statement.ts";

/** Rows a walk may read: 50 per row wanted, at least 1,000 (3,000 at the largest limit). */
export function walkBudget(k: number): number {
  return Math.min(3000, Math.max(1000, 50 * k));
}

/**
 * The first k rows in scope meeting the condition, in diameter order, reading at most `budget`
 * rows; null when the budget ran out first. Without a condition or manufacturer: the first k.
 *
 * The manufacturer filter is tested like the condition, on the rows the walk reads, not in the
 * branches: under row-level security a condition with lower() (not leakproof) does not make
 * lower(manufacturer) a known constant, so catalogue_manufacturer_idx cannot give diameter
 * order, the branches would scan catalogue_type_diameter_idx with the filter, and their limit
 * would count matches instead of rows read.
 */
export async function walk(
  db: Queryable,
  scope: Scope,
  tierCondition: Condition | null,
  k: number,
  budget: number,
): Promise<CatalogueHit[] | null> {
  const p = new Params();
  const sp = scopeParams(p, scope, true);
  const manufacturer = manufacturerCondition(sp);
  const condition: Condition | null =
    manufacturer === null
      ? tierCondition
      : tierCondition === null
        ? () => manufacturer
        : (p2) => `${manufacturer} and (${tierCondition(p2)})`;
  const limit = p.add(condition ? budget : k);
  // one ordered index range scan per tool type (and diameter range of q's numbers); Merge
  // Append keeps diameter order across them
  const ranges: ([string, string] | null)[] = sp.ranges.length > 0 ? sp.ranges : [null];
  const branches = scope.toolTypes.flatMap((type) => {
    const typeParam = p.add(type);
    return ranges.map((range) => {
      const where = [...scopeConditions(sp, typeParam), ...(range ? [rangeCondition(range)] : [])];
      return `(select ${STREAM_COLUMNS} from app_public.catalogue_entries e where ${where.join(" and ")}
                order by e.diameter_mm limit ${limit})`;
    });
  });
  const stream = `select * from (${branches.join(" union all ")}) u order by u.diameter_mm limit ${limit}`;
  if (!condition) {
    const { rows } = await db.query<HitRow>(`select ${HIT_COLUMNS} from (${stream}) e`, p.values);
    return rows.map(toHit);
  }
  // hit: the row meets the condition; pos: its place in the stream. The row at pos = budget
  // comes back either way and says that the budget ran out. The window function also keeps
  // the condition out of the branches, where each would read on to its first match: through
  // every row of a type that has none.
  const { rows } = await db.query<HitRow>(
    `select * from (
       select ${HIT_COLUMNS}, ${condition(p)} as hit, row_number() over () as pos from (${stream}) e
     ) w where w.hit or w.pos = ${limit} limit ${p.add(k)}`,
    p.values,
  );
  const hits = rows.filter((row) => row.hit);
  if (hits.length >= k) return hits.slice(0, k).map(toHit);
  if (rows.some((row) => Number(row.pos) === budget)) return null;
  return hits.map(toHit);
}

/**
 * Every match from the GIN indexes (and the manufacturer's), the first k by diameter; with
 * `firstTypes`, the matches of those tool types before the others, each flagged.
 */
export async function fromIndex(
  db: Queryable,
  scope: Scope,
  conditions: Condition[],
  k: number,
): Promise<CatalogueHit[]>;
export async function fromIndex(
  db: Queryable,
  scope: Scope,
  conditions: Condition[],
  k: number,
  firstTypes: readonly string[],
): Promise<{ hit: CatalogueHit; first: boolean }[]>;
export async function fromIndex(
  db: Queryable,
  scope: Scope,
  conditions: Condition[],
  k: number,
  firstTypes?: readonly string[],
): Promise<CatalogueHit[] | { hit: CatalogueHit; first: boolean }[]> {
  const p = new Params();
  const where = [...conditions.map((c) => c(p)), ...scopeConditions(scopeParams(p, scope))];
  const first = firstTypes ? `e.tool_type = any(${p.add(firstTypes)}::text[])` : null;
  const { rows } = await db.query<HitRow & { first: boolean }>(
    `select ${HIT_COLUMNS}${first ? `, ${first} as first` : ""} from app_public.catalogue_entries e where ${where.join(" and ")}
      order by ${first ? `${first} desc, ` : ""}e.diameter_mm, e.manufacturer collate "C", e.article_number collate "C" limit ${p.add(k)}`,
    p.values,
  );
  return firstTypes ? rows.map((row) => ({ hit: toHit(row), first: row.first })) : rows.map(toHit);
}
