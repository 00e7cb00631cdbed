/** The tiers of q, best first, as conditions on the catalogue's rows (docs/catalogue.md, "How q matches"). */
import type { ToolType } from "../../../kernel/tools/tool-types.ts";
import {
  containsPattern,
  diameterRangeOf,
  MAX_QUERY_WORDS,
  queryWords,
  trigramSearchable,
  typesNamedBy,
  wordTerm,
  type DiameterRange,
} from "./query-words.ts";
import { rangeCondition, type Condition, type Params } from "./statement.ts";

export interface Tier {
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
export function tiersFor(q: string, scopeTypes: readonly ToolType[], manufacturer: string | null): Tier[] {
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
