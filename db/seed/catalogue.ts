/**
 * Catalogue entries into app_public.catalogue_entries. The seeded standard range is replaced
 * as a whole (source 'standard'); an import (cli catalogue import) upserts one manufacturer's
 * entries by article number and leaves the rest alone.
 */
import type { CatalogueEntry } from "../../kernel/tools/catalogue/entry.ts";
import type { Queryable } from "../request-transaction.ts";

export type CatalogueSource = "standard" | "import" | "synthetic";

/** rows per insert: JSON of 1,000 entries is about 3 MB, one round trip each */
const BATCH = 1000;

function rowOf(entry: CatalogueEntry, source: CatalogueSource) {
  return {
    manufacturer: entry.manufacturer,
    article_number: entry.article_number,
    name: entry.name,
    tool_type: entry.tool_type,
    diameter_mm: entry.diameter_mm,
    dimensions: {
      family: entry.family,
      flute_length_mm: entry.flute_length_mm,
      overall_length_mm: entry.overall_length_mm,
      shank_diameter_mm: entry.shank_diameter_mm,
      standard: entry.standard,
    },
    assembly: entry.assembly,
    source,
  };
}

/** Inserts or replaces entries by (manufacturer, article_number); returns how many were written. */
export async function upsertCatalogueEntries(
  db: Queryable,
  entries: readonly CatalogueEntry[],
  source: CatalogueSource,
): Promise<number> {
  let written = 0;
  for (let start = 0; start < entries.length; start += BATCH) {
    const rows = entries.slice(start, start + BATCH).map((entry) => rowOf(entry, source));
    const result = await db.query(
      `insert into app_public.catalogue_entries (manufacturer, article_number, name, tool_type, diameter_mm, dimensions, assembly, source)
         select manufacturer, article_number, name, tool_type, diameter_mm, dimensions, assembly, source
           from jsonb_to_recordset($1::jsonb) as r(manufacturer text, article_number text, name text, tool_type text,
             diameter_mm double precision, dimensions jsonb, assembly jsonb, source text)
       on conflict (manufacturer, article_number) do update
         set name = excluded.name, tool_type = excluded.tool_type, diameter_mm = excluded.diameter_mm,
             dimensions = excluded.dimensions, assembly = excluded.assembly, source = excluded.source`,
      [JSON.stringify(rows)],
    );
    written += result.rowCount ?? 0;
  }
  return written;
}

/** Replaces every entry of one source (the seeded standard range) with `entries`. */
export async function replaceCatalogueSource(
  db: Queryable,
  source: CatalogueSource,
  entries: readonly CatalogueEntry[],
): Promise<number> {
  await db.query("delete from app_public.catalogue_entries where source = $1", [source]);
  return upsertCatalogueEntries(db, entries, source);
}
