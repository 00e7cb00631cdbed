/**
 * A job shop's everyday tools, each in its holder, picked from the standard range: the library
 * every new user's default equipment library starts with (sql: app_private.create_user, filled
 * from the `starter.library` seed), `cli library add-starter` adds, and the planner's tests and
 * `npm run bench:cam` plan with. docs/equipment-libraries.md lists it with holders and stick-outs.
 *
 * - flat end mills, 3 flutes, long series (DIN 6527 L): 1, 2, 3, 4, 6, 8, 10, 12, 16, 20 mm (no 5 mm:
 *   rest roughing from 8 mm would step 8, 5, 3, 1 instead of 8, 4, 2, 1 and leave more of partC)
 * - long-neck flat end mills, 2 flutes (standard-mills.ts: LONG_NECK_REACH): 1 mm reaching 12 mm,
 *   2 mm 16, 3 mm 20, 4 mm 25, 6 mm 30, for the corners, slots and passages deeper than the long
 *   series' flutes reach (partC's hexagonal passage, its V slot's apex, its pocket corners)
 * - ball end mills, 2 flutes, long series: 2, 3, 4, 5, 6, 8, 10, 12 mm
 * - bull nose end mills, 4 flutes, long series: 6 R0.5 and R1, 8 R1, 10 R1 and R2, 12 R2,
 *   16 R2 and R3
 * - HSS-Co twist drills (DIN 338) from 1 to 13 mm every 0.1 mm, as a drill stand holds them, and
 *   every 0.5 mm from 13.5 to 20 mm (clearance holes to M16, ISO 273 fine to coarse)
 * - 90 degree spot drills of 6 and 10 mm; 45 degree chamfer mills of 6, 10 and 16 mm
 * - spiral flute machine taps M3, M4, M5, M6, M8, M10, M12 (their tap drills are among the drills)
 * - a 63 mm face mill
 *
 * Holders follow the standard range (standard-holders.ts): SK40 ER collet chucks by shank, Weldon
 * holders for 16 and 20 mm milling shanks, a shell mill arbor for the face mill and a synchro
 * tapping chuck for the taps.
 */
import type { Assembly } from "../assembly.ts";
import type { CatalogueEntry } from "./entry.ts";
import { generateStandardRange } from "./standard-range.ts";

const tenthsOf = (from: number, to: number, step: number) => {
  const out: string[] = [];
  for (let d = Math.round(from * 100); d <= Math.round(to * 100); d += Math.round(step * 100))
    out.push(String(d).padStart(4, "0"));
  return out;
};

/** The standard range's article numbers, in library (slot) order. */
export const STARTER_ARTICLES: readonly string[] = [
  ...["0100", "0200", "0300", "0400", "0600", "0800", "1000", "1200", "1600", "2000"].map((d) => `SSR-EM3-${d}-L-UC`),
  ...["0100-N12", "0200-N16", "0300-N20", "0400-N25", "0600-N30"].map((d) => `SSR-EM2-${d}-UC`),
  ...["0200", "0300", "0400", "0500", "0600", "0800", "1000", "1200"].map((d) => `SSR-BM2-${d}-L-UC`),
  ...["0600-R050", "0600-R100", "0800-R100", "1000-R100", "1000-R200", "1200-R200", "1600-R200", "1600-R300"].map(
    (d) => `SSR-BN4-${d}-L-UC`,
  ),
  ...[...tenthsOf(1, 13, 0.1), ...tenthsOf(13.5, 20, 0.5)].map((d) => `SSR-DR338-${d}-HSCO`),
  "SSR-SP090-0600-VHM",
  "SSR-SP090-1000-VHM",
  "SSR-CH045-0600-Z3-UC",
  "SSR-CH045-1000-Z3-UC",
  "SSR-CH045-1600-Z3-UC",
  ...["M3X050", "M4X070", "M5X080", "M6X100", "M8X125", "M10X150", "M12X175"].map((t) => `SSR-TP-${t}-SF-PM-TIN`),
  "SSR-FM90-063-Z05",
];

/** The starter set's catalogue entries, in library order (each assembly with its catalogue ids), from `range` if given. */
export function starterEntries(range: readonly CatalogueEntry[] = generateStandardRange()): CatalogueEntry[] {
  const byArticle = new Map(range.map((entry) => [entry.article_number, entry]));
  return STARTER_ARTICLES.map((article) => {
    const entry = byArticle.get(article);
    if (!entry) throw new Error(`the standard range has no ${article}`);
    return entry;
  });
}

export function starterLibrary(range?: readonly CatalogueEntry[]): Assembly[] {
  return starterEntries(range).map((entry) => entry.assembly);
}
