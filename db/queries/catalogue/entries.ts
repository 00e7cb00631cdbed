/**
 * The catalogue's tool-type counts and single entries (app_public.catalogue_entries). Every
 * authenticated user reads every row, so nothing here filters by user.
 */
import type { Queryable } from "../../request-transaction.ts";

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
