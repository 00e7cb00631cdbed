/**
 * Libraries for the tests: standard-range entries (kernel/tools/catalogue) by article number,
 * as assemblies and as cutters. Not used in production.
 */
import type { Assembly } from "../../tools/assembly.ts";
import { generateStandardRange, type CatalogueEntry } from "../../tools/catalogue/standard-range.ts";
import type { Cutter } from "../types.ts";
import { cutterFromAssembly } from "./cutter.ts";
import type { HoleNeed } from "./select.ts";

let range: Map<string, CatalogueEntry> | undefined;

/** The standard range's entry of an article number (generated once per test process). */
export function entry(article: string): CatalogueEntry {
  range ??= new Map(generateStandardRange().map((e) => [e.article_number, e]));
  const found = range.get(article);
  if (!found) throw new Error(`no standard-range article ${article}`);
  return found;
}

export function assemblyOf(article: string): Assembly {
  return entry(article).assembly;
}

export function cutterOf(article: string): Cutter {
  const cutter = cutterFromAssembly(assemblyOf(article));
  if (!cutter) throw new Error(`${article} is no cutter`);
  return cutter;
}

export function cutters(...articles: string[]): Cutter[] {
  return articles.map(cutterOf);
}

/** A 6.8 mm blind hole 20 mm deep (feature 7) with a 118° point, or as overridden. */
export function holeNeed(overrides: Partial<HoleNeed> = {}): HoleNeed {
  return {
    feature: { id: 7, class: "blind_hole" },
    diameter_mm: 6.8,
    depth_mm: 20,
    through: false,
    drill_point_angle_deg: 118,
    counterbore: null,
    countersink: null,
    thread: null,
    ...overrides,
  };
}
