/**
 * The requests of the catalogue benchmark, drawn from the loaded entries so that most of
 * them find something, the way a person picking tools searches:
 *
 * - words: what the tool is and its size ("end mill 6", "twist drill 8.5", "tap M8"), now
 *   and then without the size ("ball end mill"), with a maker ("kestrel drill") or a coating
 *   ("tialn end mill"), or a standard ("DIN 338 8.5");
 * - article: an article number whole, its first 7 or more characters, or its core code;
 * - manufacturer: one maker, no q;
 * - types_diameter: one to three tool types and a diameter range, no q;
 * - combined: words with a maker, words with types and a range, a maker with types and a
 *   range, an article piece with its maker;
 * - baseline: GET of one entry by manufacturer and article number, as stored (a primary key
 *   lookup through the same stack: key, rate limit, transaction, JSON).
 */
import { API_BASE_PATH } from "../../../http/base-path.ts";
import type { CatalogueSearch } from "../../../db/queries/catalogue/search.ts";
import { fmt } from "../../../kernel/tools/catalogue/entry.ts";
import { TOOL_TYPES, type ToolType } from "../../../kernel/tools/tool-types.ts";
import { seededRandom as random } from "../../../kernel/seeded-random.ts";

export const SEARCH_KINDS = ["words", "article", "manufacturer", "types_diameter", "combined"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export type Kind = SearchKind | "baseline";

export interface BenchRequest {
  kind: Kind;
  /** below the origin, query string included */
  path: string;
  /** what it asks, for the plain-sort check and the plans (searches only) */
  search?: CatalogueSearch;
  /** for the report: the q or the filters in short */
  label: string;
}

/** What the mix needs of an entry. */
export interface SampleEntry {
  manufacturer: string;
  article_number: string;
  name: string;
  tool_type: ToolType;
  diameter_mm: number;
  standard: string | null;
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;

/** How people name each type. */
const TYPE_WORDS: Record<ToolType, readonly string[]> = {
  CentreCuttingEndMill: ["end mill"],
  NonCentreCuttingEndMill: ["end mill"],
  BallEndMill: ["ball end mill", "ball"],
  BullNoseEndMill: ["radius end mill", "corner radius"],
  ChamferMill: ["chamfer mill", "chamfer"],
  FaceMill: ["face mill"],
  SlotMill: ["slot mill"],
  Drill: ["drill", "twist drill", "carbide drill"],
  SpotDrill: ["spot drill"],
  CentreDrill: ["centre drill"],
  Reamer: ["reamer"],
  Tap: ["tap"],
  ThreadMill: ["thread mill"],
};

const COATINGS = ["tialn", "altin", "alcrn", "ticn", "dlc", "uncoated"];

function wordsOf(rng: Rng, entry: SampleEntry): string {
  const what = pick(rng, TYPE_WORDS[entry.tool_type]);
  const roll = rng();
  if (entry.standard && roll < 0.5)
    return `${entry.standard.split(" ").slice(0, 2).join(" ")} ${fmt(entry.diameter_mm)}`;
  if (entry.tool_type === "Tap") {
    const metric = /\bM\d+(?:\.\d+)?\b/.exec(entry.name)?.[0];
    if (metric && roll < 0.8) return `tap ${metric}`;
  }
  if (roll < 0.7 || what.length < 4) return `${what} ${fmt(entry.diameter_mm)}`;
  if (roll < 0.8) return what;
  if (roll < 0.9) return `${entry.manufacturer.split(" ")[0]!.toLowerCase()} ${what.split(" ").at(-1)}`;
  // a coating the entry has (a search for one no tool of the kind has finds nothing, slowly)
  const coating = COATINGS.find((c) => entry.name.toLowerCase().includes(c));
  return coating ? `${coating} ${what}` : `${what} ${fmt(entry.diameter_mm)}`;
}

/**
 * What a person types of an article number: all of it (copied from a price list), its
 * beginning (typed until the list is short), or its core code between the hyphens.
 */
function articlePiece(rng: Rng, article: string): string {
  const roll = rng();
  if (roll < 0.4 || article.length <= 8) return article;
  if (roll < 0.7) return article.slice(0, 7 + Math.floor(rng() * Math.max(1, article.length - 7)));
  // the serial code, not the diameter digits (nobody looks up "0600")
  const core = article
    .split("-")
    .filter((part) => part.length >= 4 && /[A-Za-z]/.test(part) && /[A-Za-z0-9]{3}/.test(part));
  return core.length > 0 ? pick(rng, core) : article;
}

function diameterRange(rng: Rng, around: number): [number, number] {
  const low = Math.max(0.5, Math.round(around * (0.6 + rng() * 0.4) * 10) / 10);
  const width = pick(rng, [0, 0.5, 1, 2, 4, around]);
  return [low, Math.round((low + width) * 10) / 10];
}

function someTypes(rng: Rng, first: ToolType): ToolType[] {
  const types = new Set<ToolType>([first]);
  const extra = Math.floor(rng() * 3);
  for (let i = 0; i < extra; i++) types.add(pick(rng, TOOL_TYPES));
  return [...types];
}

const blank = (): CatalogueSearch => ({
  q: null,
  manufacturer: null,
  toolTypes: [],
  diameterMin: null,
  diameterMax: null,
  limit: 20,
});

function searchPath(search: CatalogueSearch): string {
  const query = new URLSearchParams();
  if (search.q !== null) query.set("q", search.q);
  if (search.manufacturer !== null) query.set("manufacturer", search.manufacturer);
  if (search.toolTypes.length > 0) query.set("tool_types", search.toolTypes.join(","));
  if (search.diameterMin !== null) query.set("diameter_min", String(search.diameterMin));
  if (search.diameterMax !== null) query.set("diameter_max", String(search.diameterMax));
  if (search.limit !== 20) query.set("limit", String(search.limit));
  return `${API_BASE_PATH}/equipment/external-catalogue/search?${query.toString()}`;
}

function labelOf(search: CatalogueSearch): string {
  const parts: string[] = [];
  if (search.q !== null) parts.push(JSON.stringify(search.q));
  if (search.manufacturer !== null) parts.push(`maker ${search.manufacturer}`);
  if (search.toolTypes.length > 0) parts.push(search.toolTypes.join(","));
  if (search.diameterMin !== null || search.diameterMax !== null)
    parts.push(`Ø${search.diameterMin ?? ""}-${search.diameterMax ?? ""}`);
  if (search.limit !== 20) parts.push(`limit ${search.limit}`);
  return parts.join(" ");
}

function searchOf(
  kind: SearchKind,
  rng: Rng,
  entries: readonly SampleEntry[],
  makers: readonly string[],
): CatalogueSearch {
  const entry = pick(rng, entries);
  const s = blank();
  switch (kind) {
    case "words":
      s.q = wordsOf(rng, entry);
      break;
    case "article":
      s.q = articlePiece(rng, entry.article_number);
      break;
    case "manufacturer":
      s.manufacturer = pick(rng, makers);
      s.limit = pick(rng, [20, 20, 50]);
      break;
    case "types_diameter": {
      s.toolTypes = someTypes(rng, entry.tool_type);
      [s.diameterMin, s.diameterMax] = diameterRange(rng, entry.diameter_mm);
      break;
    }
    case "combined": {
      const roll = rng();
      if (roll < 0.25) {
        s.q = wordsOf(rng, entry);
        s.manufacturer = entry.manufacturer;
      } else if (roll < 0.5) {
        s.q = pick(rng, TYPE_WORDS[entry.tool_type]);
        s.toolTypes = [entry.tool_type];
        [s.diameterMin, s.diameterMax] = diameterRange(rng, entry.diameter_mm);
      } else if (roll < 0.75) {
        s.manufacturer = entry.manufacturer;
        s.toolTypes = someTypes(rng, entry.tool_type);
        [s.diameterMin, s.diameterMax] = diameterRange(rng, entry.diameter_mm);
      } else {
        s.q = articlePiece(rng, entry.article_number);
        s.manufacturer = entry.manufacturer.toLowerCase();
      }
      break;
    }
  }
  return s;
}

/** `count` requests of each kind, baseline included, in a shuffled order. */
export function buildRequests(seed: number, count: number, entries: readonly SampleEntry[]): BenchRequest[] {
  const rng = random(seed);
  const makers = [...new Set(entries.map((e) => e.manufacturer))];
  const requests: BenchRequest[] = [];
  for (const kind of SEARCH_KINDS) {
    for (let i = 0; i < count; i++) {
      const search = searchOf(kind, rng, entries, makers);
      requests.push({ kind, path: searchPath(search), search, label: labelOf(search) });
    }
  }
  for (let i = 0; i < count; i++) {
    const entry = pick(rng, entries);
    requests.push({
      kind: "baseline",
      path: `${API_BASE_PATH}/equipment/external-catalogue/${encodeURIComponent(entry.manufacturer)}/${encodeURIComponent(entry.article_number)}`,
      label: `${entry.manufacturer} ${entry.article_number}`,
    });
  }
  // Fisher-Yates: the kinds interleave, so drift in the machine's load falls on all alike
  for (let i = requests.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [requests[i], requests[j]] = [requests[j]!, requests[i]!];
  }
  return requests;
}
