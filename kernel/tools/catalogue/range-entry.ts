/**
 * One generated tool in its holder, as a catalogue entry: the pieces every generator (the
 * standard range's families, the synthetic catalogue) fills in, and the stick-out that follows
 * from the holder.
 */
import type { CuttingPreset } from "../cutting-data.ts";
import type { Tool, ToolMaterial, ToolParameters } from "../tool.ts";
import type { ToolType } from "../tool-types.ts";
import { catalogueEntry, STANDARD_MANUFACTURER, type CatalogueEntry } from "./entry.ts";
import { stickOut, type StandardHolder } from "./standard-holders.ts";

export interface RangeSpec {
  /** STANDARD_MANUFACTURER unless given */
  manufacturer?: string;
  article: string;
  name: string;
  type: ToolType;
  flutes: number;
  material: ToolMaterial;
  coating: string;
  coolant: "external" | "through_tool";
  /** everything but NumberOfFlutes and LengthBelowHolder, which follow from flutes and mount */
  params: ToolParameters;
  mount: StandardHolder;
  /** what must stay outside the holder: flutes, neck, pilot (mm from the tip) */
  reach: number;
  standard: string | null;
  preset: CuttingPreset;
}

export function rangeEntry(spec: RangeSpec): CatalogueEntry {
  const overall = spec.params.OverallLength;
  if (overall === undefined) throw new Error(`${spec.article}: no OverallLength`);
  const tool: Omit<Tool, "uuid"> & { manufacturer: string; article_number: string } = {
    name: spec.name,
    tool_type: spec.type,
    manufacturer: spec.manufacturer ?? STANDARD_MANUFACTURER,
    article_number: spec.article,
    flute_count: spec.flutes,
    tool_parameters: {
      ...spec.params,
      NumberOfFlutes: spec.flutes,
      LengthBelowHolder: stickOut(spec.mount, overall, spec.reach),
    },
    tool_material: spec.material,
    coating: spec.coating,
    coolant_supply: spec.coolant,
    hand: "right",
    cutting_data: [spec.preset],
  };
  return catalogueEntry({ tool, holder: spec.mount.holder, standard: spec.standard });
}
