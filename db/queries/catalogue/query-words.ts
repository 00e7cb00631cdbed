/**
 * q read as words, terms and numbers: what the search's tiers are built from. Pure functions,
 * no database.
 */
import { TOOL_TYPES, type ToolType } from "../../../kernel/tools/tool-types.ts";

/** Most words q may have: each is a term the full-text index intersects. */
export const MAX_QUERY_WORDS = 8;

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
