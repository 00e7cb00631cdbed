/**
 * The external tool catalogue (app_public.catalogue_entries): tool-type counts, one entry's
 * assembly, and the search. Every authenticated user reads every row, so nothing here filters
 * by user. docs/catalogue.md states what the search finds and in what order; this header says
 * how it stays fast.
 *
 * Every value reaches SQL as a bind parameter. Statements are put together from fixed
 * fragments only (which filters are present, one branch per tool type), never from input.
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
import { TOOL_TYPES, type ToolType } from "../../kernel/tools/tool-types.ts";
import type { Queryable } from "../request-transaction.ts";

/** A search result: the entry's fields and main dimensions, without its assembly. */
export interface CatalogueHit {
  article_number: string;
  manufacturer: string;
  name: string;
  tool_type: string;
  diameter_mm: number;
  flute_length_mm: number | null;
  overall_length_mm: number | null;
  shank_diameter_mm: number | null;
  standard: string | null;
}

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

/** Most words q may have: each is a term the full-text index intersects. */
export const MAX_QUERY_WORDS = 8;

// ---------------------------------------------------------------------------------------------
// q as SQL values

const WORD = /[\p{L}\p{N}]+(?:\.\p{N}+)*/gu;

/** Collapses runs of white space (names are written with single spaces) and trims. */
export function normalizeQuery(q: string): string {
  return q.normalize("NFC").trim().replace(/\s+/g, " ");
}

/** q's words: runs of letters and digits, a decimal point between digits included. */
export function queryWords(q: string): string[] {
  return normalizeQuery(q).match(WORD) ?? [];
}

/**
 * One word as a `to_tsquery('simple', ...)` term. The term holds nothing but the word (letters,
 * digits, a decimal point), `:*`, `|` and parentheses: no input reaches the tsquery syntax.
 * Two or more characters match as a prefix (`carb` finds carbide), a single one only as a
 * whole word (as a prefix it would match most of the catalogue). A number also matches itself
 * after a diameter sign, the way catalogue names write diameters: `6` finds `Ø6`.
 */
export function wordTerm(raw: string): string {
  // ø6 as Ø6: a database in the C locale does not lower Ø, so names keep it upper case
  const word = raw.replace(/^ø(?=\p{N})/u, "Ø");
  const term = [...word].length === 1 ? word : `${word}:*`;
  return /^\p{N}+(?:\.\p{N}+)?$/u.test(word) ? `(${term} | Ø${word})` : term;
}

/** `%q%` for LIKE, q's own `%`, `_` and `\` escaped (backslash is LIKE's default escape character). */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Whether the trigram indexes can look q up: pg_trgm builds trigrams from letters and digits
 * only (ASCII ones in a C-locale database), and a LIKE pattern without three of them in a row
 * may give none, which scans the whole index. Such a q matches by words only.
 */
export function trigramSearchable(q: string): boolean {
  return /[A-Za-z0-9]{3}/.test(q);
}

// ---------------------------------------------------------------------------------------------
// Statement pieces

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const HIT_COLUMNS = `e.article_number, e.manufacturer, e.name, e.tool_type, e.diameter_mm,
  (e.dimensions ->> 'flute_length_mm')::float8 as flute_length_mm,
  (e.dimensions ->> 'overall_length_mm')::float8 as overall_length_mm,
  (e.dimensions ->> 'shank_diameter_mm')::float8 as shank_diameter_mm,
  e.dimensions ->> 'standard' as standard`;

/** What a walk branch reads: the result's columns and what the conditions test, not the assembly. */
const STREAM_COLUMNS =
  "e.manufacturer, e.article_number, e.name, e.tool_type, e.diameter_mm, e.dimensions, e.search_text";

interface Scope {
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
interface ScopeParams {
  manufacturer: string | null;
  types: string | null;
  min: string | null;
  max: string | null;
  /** placeholders of each range: [low, high], equal for an exact diameter */
  ranges: [string, string][];
}

/** `perTypeBranches`: the statement names the type in each branch and binds no list. */
function scopeParams(p: Params, scope: Scope, perTypeBranches = false): ScopeParams {
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

function manufacturerCondition(sp: ScopeParams): string | null {
  return sp.manufacturer === null ? null : `lower(e.manufacturer) = lower(${sp.manufacturer})`;
}

/**
 * The scope's conditions on alias e. With `perType`: a walk branch's, that one type's and
 * without the manufacturer (the walk tests it on each row it reads; see walk()).
 */
function scopeConditions(sp: ScopeParams, perType: string | null = null): string[] {
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
type Condition = (p: Params) => string;

interface Tier {
  tier: number;
  condition: Condition;
  /** the tier holds entries of diameters in these ranges only (index ranges in the walk) */
  diameterRanges?: readonly DiameterRange[];
  /** the tier holds entries of these tool types only (the walk's branches) */
  toolTypes?: readonly ToolType[];
  /** an equality (a handful of rows): straight to the index, no estimate, no walk */
  direct?: boolean;
  /**
   * Cheaper index conditions, one per word, each true of every row the condition is: the
   * rarest may go to the index alone, `unindexed` then checked on the rows it finds.
   */
  narrowings?: Condition[];
  /** the condition in a form the planner does not match to an index */
  unindexed?: Condition;
  /**
   * The planner's estimate of the condition is a product of independent guesses (several
   * words, or a manufacturer and its own name as a word) and runs low: trust a walk sooner.
   */
  correlated?: boolean;
  /**
   * With `toolTypes`: the tier that holds the same matches of every type in scope. Answered
   * from the index, the two come in one statement, these types first.
   */
  widensTo?: number;
  /** what the planner is asked to estimate instead of the condition, when it would misjudge it */
  estimateCondition?: Condition;
}

/** Largest diameter a number of q is taken for (mm). */
const MAX_QUERY_DIAMETER = 1000;

/**
 * A word that reads as a diameter in mm: digits with at most one decimal point, above 0, up
 * to 1,000, no leading zero (`0600` in an article number is a code, `0.5` a diameter).
 */
export function diameterOf(word: string): number | null {
  if (!/^(?:0|[1-9][0-9]{0,3})(?:\.[0-9]{1,4})?$/.test(word)) return null;
  const value = Number(word);
  return value > 0 && value <= MAX_QUERY_DIAMETER ? value : null;
}

/** Diameters a number of q stands for, in mm: low <= d < high, or d = low when they are equal. */
export interface DiameterRange {
  low: number;
  high: number;
}

/**
 * A whole number is that diameter exactly; a decimal one stands for every diameter it rounds
 * to, as names print them: `4.763` is 3/16 in (4.7625 mm), `6.35` is 6.35, `6.3` is 6.25 up to
 * 6.35 (not included).
 */
export function diameterRangeOf(word: string): DiameterRange | null {
  const value = diameterOf(word);
  if (value === null) return null;
  const decimals = word.split(".")[1]?.length ?? 0;
  if (decimals === 0) return { low: value, high: value };
  const half = 0.5 * 10 ** -decimals;
  // a hair below, so that 6.345 (stored as printed) falls in 6.35's range and 6.355 does not
  return { low: value - half - 1e-9, high: value + half - 1e-9 };
}

/**
 * `[low, high]` placeholders as a condition on alias e. An exact diameter is a range of one
 * value, not an equality: an equality would make diameter_mm a known constant, the walk's
 * branches would lose their order, and the planner would sort their every row instead of
 * merging them.
 */
function rangeCondition([low, high]: [string, string]): string {
  return low === high
    ? `(e.diameter_mm >= ${low}::float8 and e.diameter_mm <= ${low}::float8)`
    : `(e.diameter_mm >= ${low}::float8 and e.diameter_mm < ${high}::float8)`;
}

/** Most numbers of q taken for diameters (each one more range per tool type in the walk). */
const MAX_QUERY_NUMBERS = 3;

/** Every word matches; `unindexed` writes it with ts_match_vq, the function behind @@, which no index takes. */
function wordsCondition(words: readonly string[], unindexed = false): Condition {
  const query = words.map(wordTerm).join(" & ");
  return unindexed
    ? (p) => `ts_match_vq(e.search_text, to_tsquery('simple', ${p.add(query)}))`
    : (p) => `e.search_text @@ to_tsquery('simple', ${p.add(query)})`;
}

/** Each word on its own, for a search of several. */
function narrowingsOf(words: readonly string[]): Condition[] | undefined {
  return words.length < 2 ? undefined : words.map((word) => wordsCondition([word]));
}

const allOf = (conditions: Condition[]): Condition =>
  conditions.length === 0 ? () => "true" : (p) => conditions.map((c) => c(p)).join(" and ");

/** The words people call each tool type by; a word of q names a type when it begins one of them. */
const TYPE_NAMES: Readonly<Record<ToolType, readonly string[]>> = {
  CentreCuttingEndMill: ["end", "mill", "endmill", "flat", "square"],
  NonCentreCuttingEndMill: ["end", "mill", "endmill", "flat", "square"],
  BallEndMill: ["ball", "end", "mill", "endmill", "ballnose"],
  BullNoseEndMill: ["bull", "nose", "bullnose", "corner", "radius", "torus", "end", "mill", "endmill"],
  ChamferMill: ["chamfer", "mill", "countersink"],
  FaceMill: ["face", "shell", "mill"],
  SlotMill: ["slot", "slitting", "disc", "mill"],
  Drill: ["drill", "twist", "jobber"],
  SpotDrill: ["spot", "spotting", "drill"],
  CentreDrill: ["centre", "center", "drill"],
  Reamer: ["reamer"],
  Tap: ["tap"],
  ThreadMill: ["thread", "mill"],
};

/**
 * The tool types q names ("twist drill": Drill; "end mill": the four end mills), or null when
 * no word of q names a type. Words that name no type ("carbide", "tialn") do not count.
 */
export function typesNamedBy(words: readonly string[]): ToolType[] | null {
  const names = (type: ToolType) => [...TYPE_NAMES[type], type.toLowerCase()];
  const naming = words
    .map((word) => word.toLowerCase())
    .filter(
      (word) => [...word].length >= 3 && TOOL_TYPES.some((type) => names(type).some((name) => name.startsWith(word))),
    );
  if (naming.length === 0) return null;
  return TOOL_TYPES.filter((type) => naming.every((word) => names(type).some((name) => name.startsWith(word))));
}

/**
 * The words of q worth estimating: not those that name the tier's tool types nor those of the
 * manufacturer filtered by, which are all but certain within that scope (the planner would
 * multiply their frequencies in as if independent).
 */
function informativeWords(
  words: readonly string[],
  named: readonly ToolType[] | null,
  manufacturer: string | null,
): string[] {
  const makerWords = manufacturer === null ? [] : (manufacturer.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return words.filter((word) => {
    const lower = word.toLowerCase();
    if (makerWords.some((makerWord) => makerWord.startsWith(lower))) return false;
    if (!named || named.length === 0) return true;
    const namesOne = typesNamedBy([word]);
    return !(namesOne && named.every((type) => namesOne.includes(type)));
  });
}

const estimateOf = (words: readonly string[]): Condition => (words.length > 0 ? wordsCondition(words) : () => "true");

/**
 * The tiers of q, best first (docs/catalogue.md, "How q matches"). A pair of tiers with the
 * same condition, the first for the types q names and the second for every type, widen into
 * one another: the walk of the first reads only those types, where such words are common,
 * instead of every type in diameter order, where they may be rare.
 */
function tiersFor(q: string, scopeTypes: readonly ToolType[], manufacturer: string | null): Tier[] {
  const tiers: Tier[] = [];
  const trigrams = trigramSearchable(q);
  // as typed, in upper and in lower case: a primary key lookup (a skip scan over the makers)
  const spellings = [...new Set([q, q.toUpperCase(), q.toLowerCase()])];
  tiers.push({ tier: 0, direct: true, condition: (p) => `e.article_number = any(${p.add(spellings)}::text[])` });
  if (trigrams) tiers.push({ tier: 1, ...likeTier("article_number", q) });
  const words = queryWords(q).slice(0, MAX_QUERY_WORDS);
  const named = typesNamedBy(words)?.filter((type) => scopeTypes.includes(type)) ?? null;
  const narrows = named !== null && named.length > 0 && named.length < scopeTypes.length;
  /** the tier for the named types, then the same for all (or the latter alone) */
  const pair = (tier: number, base: Omit<Tier, "tier">, estimateWords: readonly string[]) => {
    if (narrows) {
      const estimateCondition = estimateOf(informativeWords(estimateWords, named, manufacturer));
      tiers.push({ ...base, tier, toolTypes: named, widensTo: tier + 1, estimateCondition });
    }
    // named types that are the whole scope (tool_types=Drill and "twist drill") are implied too
    const implied = named !== null && named.length > 0 && !narrows ? named : null;
    tiers.push({
      ...base,
      tier: tier + 1,
      estimateCondition: estimateOf(informativeWords(estimateWords, implied, manufacturer)),
    });
  };
  const numberWords = [...new Set(words.filter((word) => diameterRangeOf(word) !== null))].slice(0, MAX_QUERY_NUMBERS);
  if (numberWords.length > 0) {
    // the words match and one of q's numbers is the diameter: "end mill 6", Ø6 end mills
    const ranges = numberWords.map((word) => diameterRangeOf(word)!);
    const others = words.filter((word) => !numberWords.includes(word));
    // with several numbers, every one as a word or as the diameter
    const numberConditions: Condition[] =
      numberWords.length < 2
        ? []
        : numberWords.map((word) => (p) => {
            const range = diameterRangeOf(word)!;
            const low = p.add(range.low);
            const onDiameter = rangeCondition(range.low === range.high ? [low, low] : [low, p.add(range.high)]);
            return `(ts_match_vq(e.search_text, to_tsquery('simple', ${p.add(wordTerm(word))})) or ${onDiameter})`;
          });
    const withWords = others.length > 0 ? [wordsCondition(others)] : [];
    pair(
      2,
      {
        diameterRanges: ranges,
        condition: allOf([...withWords, ...numberConditions]),
        narrowings: narrowingsOf(others),
        unindexed: allOf([...(others.length > 0 ? [wordsCondition(others, true)] : []), ...numberConditions]),
        correlated: true,
      },
      others,
    );
  }
  if (words.length > 0) {
    pair(
      4,
      {
        condition: wordsCondition(words),
        narrowings: narrowingsOf(words),
        unindexed: wordsCondition(words, true),
        correlated: true,
      },
      words,
    );
  }
  if (trigrams) tiers.push({ tier: 6, ...likeTier("name", q) });
  return tiers;
}

/**
 * q contained in a column, through its trigram index. For a q of several words, each word of
 * three or more letters or digits is a narrowing (the rarest may go to the index alone, the
 * whole pattern checked on its rows with textlike(), the function behind LIKE, which no
 * index takes): "ball end mill 1.588" need not read the trigrams of "ball", "end" and "mill".
 */
function likeTier(column: "name" | "article_number", q: string): Pick<Tier, "condition" | "narrowings" | "unindexed"> {
  const pattern = containsPattern(q);
  const parts = [...new Set(q.match(/[A-Za-z0-9]{3,}/g) ?? [])];
  return {
    condition: (p) => `lower(e.${column}) like lower(${p.add(pattern)})`,
    ...(parts.length > 1
      ? {
          narrowings: parts.map(
            (part) => (p: Params) => `lower(e.${column}) like lower(${p.add(containsPattern(part))})`,
          ),
          unindexed: (p: Params) => `textlike(lower(e.${column}), lower(${p.add(pattern)}))`,
        }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// The plans

interface HitRow extends CatalogueHit {
  hit?: boolean;
  pos?: string;
}

function toHit(row: HitRow): CatalogueHit {
  return {
    article_number: row.article_number,
    manufacturer: row.manufacturer,
    name: row.name,
    tool_type: row.tool_type,
    diameter_mm: row.diameter_mm,
    flute_length_mm: row.flute_length_mm,
    overall_length_mm: row.overall_length_mm,
    shank_diameter_mm: row.shank_diameter_mm,
    standard: row.standard,
  };
}

/** Rows a walk may read: 50 per row wanted, at least 1,000 (3,000 at the largest limit). */
export function walkBudget(k: number): number {
  return Math.min(3000, Math.max(1000, 50 * k));
}

type PlanMode = "walk" | "index";

interface SavedSettings {
  seqscan: string;
  indexscan: string;
  bitmapscan: string;
  parallel: string;
}

/**
 * Planner settings of the search's statements, transaction-local. No parallel workers (the
 * statements are small, and the estimate's EXPLAIN must keep its branches in order). A walk
 * wants ordered index scans only: with bitmap scans allowed the planner may fetch and sort a
 * branch's whole range, since it cannot know that the walk stops at the k-th match. The index
 * pass wants bitmap scans only: with plain index scans or sequential scans allowed, a
 * condition the planner believes common is walked through the btree or the table. Changed
 * only when the next statement needs otherwise; what they were is put back at the end.
 */
class PlannerSettings {
  private mode: PlanMode | null = null;
  private saved: SavedSettings | null = null;
  constructor(private readonly db: Queryable) {}

  /** No parallel workers from here on (the first call reads what the settings were). */
  async prepare(): Promise<void> {
    if (this.saved !== null) return;
    const { rows } = await this.db.query<SavedSettings>(
      `select current_setting('enable_seqscan') as seqscan, current_setting('enable_indexscan') as indexscan,
              current_setting('enable_bitmapscan') as bitmapscan, current_setting('max_parallel_workers_per_gather') as parallel,
              set_config('max_parallel_workers_per_gather', '0', true)`,
    );
    this.saved = rows[0]!;
  }

  async use(mode: PlanMode): Promise<void> {
    await this.prepare();
    if (mode === this.mode) return;
    const saved = this.saved!;
    const [indexscan, bitmapscan] = mode === "walk" ? [saved.indexscan, "off"] : ["off", saved.bitmapscan];
    await this.db.query(
      "select set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', $1, true), set_config('enable_bitmapscan', $2, true)",
      [indexscan, bitmapscan],
    );
    this.mode = mode;
  }

  /** Puts back what the settings were before the search. */
  async restore(): Promise<void> {
    if (this.saved === null) return;
    const saved = this.saved;
    await this.db.query(
      `select set_config('enable_seqscan', $1, true), set_config('enable_indexscan', $2, true),
              set_config('enable_bitmapscan', $3, true), set_config('max_parallel_workers_per_gather', $4, true)`,
      [saved.seqscan, saved.indexscan, saved.bitmapscan, saved.parallel],
    );
    this.saved = null;
    this.mode = null;
  }
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
async function walk(
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
async function fromIndex(db: Queryable, scope: Scope, conditions: Condition[], k: number): Promise<CatalogueHit[]>;
async function fromIndex(
  db: Queryable,
  scope: Scope,
  conditions: Condition[],
  k: number,
  firstTypes: readonly string[],
): Promise<{ hit: CatalogueHit; first: boolean }[]>;
async function fromIndex(
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

interface TierAnswer {
  /** the tier's first k (with `widensTo` from the index: of both tiers), each with its tier */
  found: Ranked[];
  /** the tiers this answer settles */
  settles: number[];
}

/** The tier's first k in diameter order, by the plan its estimates favour. */
async function answerTier(
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

const keyOf = (hit: CatalogueHit) => `${hit.manufacturer}\u0000${hit.article_number}`;

interface Ranked {
  tier: number;
  hit: CatalogueHit;
}

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

// ---------------------------------------------------------------------------------------------
// Tool types and single entries

export interface ToolTypeCount {
  tool_type: string;
  entry_count: number;
}

/** Entries per tool type, of one manufacturer (any letter case) or of all; types without entries are absent. */
export async function countByToolType(db: Queryable, manufacturer: string | null): Promise<ToolTypeCount[]> {
  if (manufacturer === null) {
    const { rows } = await db.query<ToolTypeCount>({
      name: "catalogue_type_counts",
      text: "select tool_type, count(*)::int as entry_count from app_public.catalogue_entries group by tool_type",
    });
    return rows;
  }
  const { rows } = await db.query<ToolTypeCount>({
    name: "catalogue_type_counts_of",
    text: `select tool_type, count(*)::int as entry_count from app_public.catalogue_entries
            where lower(manufacturer) = lower($1) group by tool_type`,
    values: [manufacturer],
  });
  return rows;
}

/**
 * One entry's assembly: by primary key when manufacturer and article number are spelt as
 * stored, else in any letter case (the article number's stored spelling first should two
 * entries differ in case only). Null when there is none.
 */
export async function getCatalogueAssembly(
  db: Queryable,
  manufacturer: string,
  articleNumber: string,
): Promise<Record<string, unknown> | null> {
  const exact = await db.query<{ assembly: Record<string, unknown> }>({
    name: "catalogue_assembly",
    text: "select assembly from app_public.catalogue_entries where manufacturer = $1 and article_number = $2",
    values: [manufacturer, articleNumber],
  });
  if (exact.rows[0]) return exact.rows[0].assembly;
  const anyCase = await db.query<{ assembly: Record<string, unknown> }>({
    name: "catalogue_assembly_any_case",
    text: `select assembly from app_public.catalogue_entries
            where lower(manufacturer) = lower($1) and lower(article_number) = lower($2)
            order by article_number = $2 desc, manufacturer, article_number limit 1`,
    values: [manufacturer, articleNumber],
  });
  return anyCase.rows[0]?.assembly ?? null;
}

/** How a manufacturer's name is stored, matched in any letter case (more than one only if stored in several cases). */
export async function manufacturerSpellings(db: Queryable, manufacturer: string): Promise<string[]> {
  const { rows } = await db.query<{ manufacturer: string }>(
    "select distinct manufacturer from app_public.catalogue_entries where lower(manufacturer) = lower($1) order by manufacturer",
    [manufacturer],
  );
  return rows.map((row) => row.manufacturer);
}
