/**
 * Libraries for the tests: standard-range entries (kernel/tools/catalogue) by article number,
 * as assemblies and as cutters. Not used in production.
 */
import type { Assembly } from "../../tools/assembly.ts";
import { generateStandardRange, type CatalogueEntry } from "../../tools/catalogue/standard-range.ts";
import type { Cutter } from "../types.ts";
import { cutterFromAssembly } from "./cutter.ts";

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
