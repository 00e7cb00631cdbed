/** A search result and the columns that give it. */

/** A search result: the entry's fields and main dimensions, without its assembly. */
export interface CatalogueHit {
  article_number: string;
  manufacturer: string;
  name: string;
  tool_type: string;
  diameter_mm: number;
  flute_length_mm: number | null;
  overall_length_mm: number | null;
  shank_diameter_mm: number | null;
  standard: string | null;
}

export const HIT_COLUMNS = `e.article_number, e.manufacturer, e.name, e.tool_type, e.diameter_mm,
  (e.dimensions ->> 'flute_length_mm')::float8 as flute_length_mm,
  (e.dimensions ->> 'overall_length_mm')::float8 as overall_length_mm,
  (e.dimensions ->> 'shank_diameter_mm')::float8 as shank_diameter_mm,
  e.dimensions ->> 'standard' as standard`;

export interface HitRow extends CatalogueHit {
  hit?: boolean;
  pos?: string;
}

export function toHit(row: HitRow): CatalogueHit {
  return {
    article_number: row.article_number,
    manufacturer: row.manufacturer,
    name: row.name,
    tool_type: row.tool_type,
    diameter_mm: row.diameter_mm,
    flute_length_mm: row.flute_length_mm,
    overall_length_mm: row.overall_length_mm,
    shank_diameter_mm: row.shank_diameter_mm,
    standard: row.standard,
  };
}
