/**
 * Pieces of the search's statements: bind parameters, the scope's conditions, diameter ranges.
 *
 * Every value reaches SQL as a bind parameter. Statements are put together from fixed
 * fragments only (which filters are present, one branch per tool type), never from input.
 */
import type { DiameterRange } from "./query-words.ts";

export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** What a walk branch reads: the result's columns and what the conditions test, not the assembly. */
export const STREAM_COLUMNS =
  "e.manufacturer, e.article_number, e.name, e.tool_type, e.diameter_mm, e.dimensions, e.search_text";

export interface Scope {
  manufacturer: string | null;
  /** the types a walk merges: the filter's, or every type */
  toolTypes: readonly string[];
  /** the types are a filter (else every type: no condition needed) */
  typeFilter: boolean;
  diameterMin: number | null;
  diameterMax: number | null;
  /** only diameters in these ranges (a tier's: q's numbers) */
  diameterRanges?: readonly DiameterRange[];
}

/** The scope's values as placeholders, bound once for every branch of a statement. */
export interface ScopeParams {
  manufacturer: string | null;
  types: string | null;
  min: string | null;
  max: string | null;
  /** placeholders of each range: [low, high], equal for an exact diameter */
  ranges: [string, string][];
}

/** `perTypeBranches`: the statement names the type in each branch and binds no list. */
export function scopeParams(p: Params, scope: Scope, perTypeBranches = false): ScopeParams {
  return {
    manufacturer: scope.manufacturer === null ? null : p.add(scope.manufacturer),
    types: scope.typeFilter && !perTypeBranches ? p.add(scope.toolTypes) : null,
    min: scope.diameterMin === null ? null : p.add(scope.diameterMin),
    max: scope.diameterMax === null ? null : p.add(scope.diameterMax),
    ranges: (scope.diameterRanges ?? []).map((r): [string, string] => {
      const low = p.add(r.low);
      return [low, r.low === r.high ? low : p.add(r.high)];
    }),
  };
}

export function manufacturerCondition(sp: ScopeParams): string | null {
  return sp.manufacturer === null ? null : `lower(e.manufacturer) = lower(${sp.manufacturer})`;
}

/**
 * The scope's conditions on alias e. With `perType`: a walk branch's, that one type's and
 * without the manufacturer (the walk tests it on each row it reads; see walk()).
 */
export function scopeConditions(sp: ScopeParams, perType: string | null = null): string[] {
  const where: string[] = [];
  const manufacturer = manufacturerCondition(sp);
  if (manufacturer !== null && perType === null) where.push(manufacturer);
  if (perType !== null) where.push(`e.tool_type = ${perType}`);
  else if (sp.types !== null) where.push(`e.tool_type = any(${sp.types}::text[])`);
  if (sp.min !== null) where.push(`e.diameter_mm >= ${sp.min}::float8`);
  if (sp.max !== null) where.push(`e.diameter_mm <= ${sp.max}::float8`);
  if (perType === null && sp.ranges.length > 0) where.push(`(${sp.ranges.map(rangeCondition).join(" or ")})`);
  return where;
}

/** A condition on alias e, binding its values. */
export type Condition = (p: Params) => string;

/**
 * `[low, high]` placeholders as a condition on alias e. An exact diameter is a range of one
 * value, not an equality: an equality would make diameter_mm a known constant, the walk's
 * branches would lose their order, and the planner would sort their every row instead of
 * merging them.
 */
export function rangeCondition([low, high]: [string, string]): string {
  return low === high
    ? `(e.diameter_mm >= ${low}::float8 and e.diameter_mm <= ${low}::float8)`
    : `(e.diameter_mm >= ${low}::float8 and e.diameter_mm < ${high}::float8)`;
}
