/**
 * An external catalogue entry (spec: GET /equipment/external-catalogue/{manufacturer}/
 * {article_number} "returns a full assembly library entry"): the search fields a catalogue
 * is browsed by, and the assembly (holder + tool) a client posts to its library after giving it
 * a fresh uuid.
 *
 * Ids are version 5 UUIDs of the manufacturer and article number, so generating a catalogue
 * again gives every entry the ids it had. A holder's id comes from the holder's own article
 * number: one holder model is one library item, however many assemblies it is in.
 */
import type { Assembly } from "../assembly.ts";
import type { Holder } from "../holder.ts";
import type { Tool } from "../tool.ts";
import { toolTypeInfo, type ToolFamily, type ToolType } from "../tool-types.ts";
import { NAMESPACE_URL, uuidV5 } from "../uuid.ts";

/** The standard range's maker: not a real vendor, the name says whose range it is. */
export const STANDARD_MANUFACTURER = "Swarf Standard Range";

export interface CatalogueEntry {
  manufacturer: string;
  article_number: string;
  name: string;
  tool_type: ToolType;
  family: ToolFamily;
  diameter_mm: number;
  flute_length_mm: number | null;
  overall_length_mm: number;
  shank_diameter_mm: number | null;
  /** the dimension standard the entry follows ("DIN 338"), null for a maker's own range */
  standard: string | null;
  assembly: Assembly;
}

/** The namespace of catalogue ids (itself a v5 UUID, of a URN in the URL namespace). */
export const CATALOGUE_NAMESPACE = uuidV5(NAMESPACE_URL, "urn:swarf:external-catalogue");

export function catalogueUuid(
  kind: "assembly" | "tool" | "holder",
  manufacturer: string,
  articleNumber: string,
): string {
  return uuidV5(CATALOGUE_NAMESPACE, `${kind}\n${manufacturer}\n${articleNumber}`);
}

export interface EntryParts {
  tool: Omit<Tool, "uuid"> & { manufacturer: string; article_number: string };
  holder: Omit<Holder, "uuid"> & { manufacturer: string; article_number: string };
  standard: string | null;
}

/** The entry of a tool in its holder, with stable ids. */
export function catalogueEntry({ tool, holder, standard }: EntryParts): CatalogueEntry {
  const p = tool.tool_parameters;
  const diameter = p.CuttingDiameter;
  const overall = p.OverallLength;
  if (diameter === undefined || overall === undefined)
    throw new Error(`${tool.article_number}: a catalogue tool needs CuttingDiameter and OverallLength`);
  const assembly: Assembly = {
    uuid: catalogueUuid("assembly", tool.manufacturer, tool.article_number),
    name: `${tool.name} in ${holder.name}`,
    manufacturer: tool.manufacturer,
    components: [
      {
        component_type: "adaptive_item",
        adaptive_item: { uuid: catalogueUuid("holder", holder.manufacturer, holder.article_number), ...holder },
      },
      {
        component_type: "parametric_cutting_tool",
        parametric_cutting_tool: { uuid: catalogueUuid("tool", tool.manufacturer, tool.article_number), ...tool },
      },
    ],
  };
  return {
    manufacturer: tool.manufacturer,
    article_number: tool.article_number,
    name: tool.name,
    tool_type: tool.tool_type,
    family: toolTypeInfo(tool.tool_type).family,
    diameter_mm: diameter,
    flute_length_mm: p.FluteLength ?? null,
    overall_length_mm: overall,
    shank_diameter_mm: p.ShankDiameter ?? null,
    standard,
    assembly,
  };
}

/** "6", "8.5", "0.45": numbers as a catalogue prints them. */
export function fmt(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/** Diameter in hundredths of a mm, four digits: 6 -> "0600", 8.5 -> "0850", 125 -> "12500". */
export function articleDiameter(value: number): string {
  return String(Math.round(value * 100)).padStart(4, "0");
}
