/**
 * A job shop's everyday tools, picked from the standard range: the library the planner's tests
 * and `npm run bench:cam` plan with, and a starting point a user can copy assembly by assembly
 * from the catalogue (the README's walk-through adds some of them).
 *
 * - flat end mills, 3 flutes, long series (DIN 6527 L): 1, 2, 3, 4, 6, 8, 10, 12, 16, 20 mm
 * - HSS-Co twist drills (DIN 338) from 1 to 13 mm every 0.1 mm, as a drill stand holds them
 * - 90 degree spot drills of 6 and 10 mm, 45 degree chamfer mills of 6 and 10 mm
 * - a 63 mm face mill
 */
import type { Assembly } from "../assembly.ts";
import { generateStandardRange } from "./standard-range.ts";

const ARTICLES = [
  /^SSR-EM3-(0100|0200|0300|0400|0600|0800|1000|1200|1600|2000)-L-UC$/,
  /^SSR-DR338-(0[1-9]\d\d|1[0-2]\d\d|1300)-HSCO$/,
  /^SSR-SP090-(0600|1000)-VHM$/,
  /^SSR-CH045-(0600|1000)-Z3-UC$/,
  /^SSR-FM90-063-Z05$/,
];

export function starterLibrary(): Assembly[] {
  const range = generateStandardRange();
  return ARTICLES.flatMap((pattern) => range.filter((entry) => pattern.test(entry.article_number)).map((entry) => entry.assembly));
}
