/**
 * The "Swarf Standard Range": a deterministic external catalogue built from published dimension
 * standards (DIN 338, DIN 6537, DIN 6527, DIN 333, DIN 371/376, ISO 261/262; see
 * dimension-tables.ts for how sure each table is), every tool in a suitable SK40 holder. The
 * maker is fictitious: the name says whose range it is. Generating it again gives the same
 * entries with the same ids, so a catalogue can be reseeded without breaking libraries that
 * copied from it.
 */
import type { ToolFamily } from "../tool-types.ts";
import type { CatalogueEntry } from "./entry.ts";
import { standardHolemaking } from "./standard-holemaking.ts";
import { standardMills } from "./standard-mills.ts";
import { standardThreading } from "./standard-threading.ts";

export { STANDARD_MANUFACTURER, type CatalogueEntry } from "./entry.ts";
export { generateSyntheticCatalogue } from "./synthetic-catalogue.ts";

/** Every entry of the standard range, mills first, then holemaking, then threading. */
export function generateStandardRange(): CatalogueEntry[] {
  return [...standardMills(), ...standardHolemaking(), ...standardThreading()];
}

/** How many entries each family has (for reports and the tool-types endpoint's counts). */
export function countByFamily(entries: readonly CatalogueEntry[]): Record<ToolFamily, number> {
  const counts: Record<ToolFamily, number> = { mill: 0, drill: 0, reamer: 0, tap: 0, thread_mill: 0 };
  for (const entry of entries) counts[entry.family]++;
  return counts;
}
