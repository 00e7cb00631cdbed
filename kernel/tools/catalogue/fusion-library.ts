/**
 * Fusion 360 tool libraries (the .json / .tools content tool makers publish) as catalogue
 * entries: `{"data": [tool, ...], "version": n}`, each tool with `type` ("flat end mill",
 * "drill", "tap right hand"...), `unit` ("millimeters" or "inches"), `geometry` (DC, LCF, OAL,
 * SFDM, NOF, RE, SIG, TA, TP, LB, shoulder-length/-diameter, tip-diameter...), `product-id`,
 * `description`, `guid`, `BMC`, `holder` ({description, vendor, product-id, unit, segments:
 * [{height, lower-diameter, upper-diameter}]}), `start-values.presets` and `post-process`
 * ({number, length-offset, diameter-offset, turret, ...}: the tool's T number in the library).
 *
 * Inches become mm (lengths, pitches, feeds; cutting speed ft/min becomes m/min). Entries of a
 * type we do not model, or that fail validation, are skipped with the reason, not fatal: a
 * maker's library of 500 tools should import 498 of them and say why not the other two.
 * The manufacturer is the caller's (`catalogue import <file> --manufacturer NAME`): the files'
 * own `vendor` fields are often empty or the distributor's.
 */
import { MAX_POCKET_NUMBER, validateAssembly, type Assembly } from "../assembly.ts";
import { CUTTING_DATA_TOLERANCE, type CoolantMode, type CuttingPreset } from "../cutting-data.ts";
import type { Holder, HolderSegment } from "../holder.ts";
import type { Tool, ToolMaterial, ToolParameters } from "../tool.ts";
import type { ToolParameterName } from "../tool-parameters.ts";
import { allowedParameters, toolTypeInfo, type ToolType } from "../tool-types.ts";
import { finiteNumber, isRecord } from "../violation.ts";
import { catalogueUuid, fmt, type CatalogueEntry } from "./entry.ts";

/** Fusion's tool types we import, and ours for each. */
export const FUSION_TOOL_TYPES: Readonly<Record<string, ToolType>> = {
  "flat end mill": "CentreCuttingEndMill",
  "ball end mill": "BallEndMill",
  "bull nose end mill": "BullNoseEndMill",
  "chamfer mill": "ChamferMill",
  "face mill": "FaceMill",
  "slot mill": "SlotMill",
  drill: "Drill",
  "spot drill": "SpotDrill",
  "center drill": "CentreDrill",
  reamer: "Reamer",
  "tap right hand": "Tap",
  "tap left hand": "Tap",
  "thread mill": "ThreadMill",
};

const UNITS: Readonly<Record<string, number>> = { millimeters: 1, inches: 25.4 };

export interface FusionImport {
  entries: CatalogueEntry[];
  skipped: { index: number; reason: string }[];
}

export interface FusionImportOptions {
  manufacturer: string;
}

/** The file as a whole is not a Fusion tool library (single tools are skipped, not thrown). */
export class FusionLibraryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FusionLibraryError";
  }
}

class Skip extends Error {}

/** to a millionth of a mm: keeps 0.25 in from showing as 6.3500000000000005 */
const mm6 = (value: number) => Math.round(value * 1e6) / 1e6 + 0;

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

const BMC: Readonly<Record<string, ToolMaterial>> = {
  carbide: "carbide",
  hss: "hss",
  "ti coated": "hss",
  cobalt: "hss_cobalt",
  "hss cobalt": "hss_cobalt",
  ceramics: "ceramic",
  ceramic: "ceramic",
  cermet: "cermet",
  pcd: "pcd",
  cbn: "cbn",
};

const COOLANT: Readonly<Record<string, CoolantMode>> = {
  flood: "flood",
  mist: "mist",
  air: "air",
  "air through tool": "through_tool",
  "flood through tool": "through_tool",
  "through tool": "through_tool",
  "flood and mist": "flood",
  "minimum quantity lubrication": "mql",
  mql: "mql",
  disabled: "dry",
};

/** Fusion's geometry as our tool_parameters, converted to mm, for one of our types. */
function parametersOf(type: ToolType, fusionType: string, g: Record<string, unknown>, factor: number): ToolParameters {
  const length = (key: string) => {
    const v = finiteNumber(g[key]);
    return v === undefined ? undefined : mm6(v * factor);
  };
  const angle = (key: string) => finiteNumber(g[key]);
  const p: ToolParameters = {
    CuttingDiameter: length("DC"),
    OverallLength: length("OAL"),
    FluteLength: length("LCF"),
    ShankDiameter: length("SFDM"),
    // Fusion writes 0 where the count is unknown
    NumberOfFlutes: (finiteNumber(g.NOF) ?? 0) > 0 ? finiteNumber(g.NOF) : undefined,
    LengthBelowHolder: length("LB"),
  };
  const d = p.CuttingDiameter;
  const re = length("RE");
  const shoulderLength = length("shoulder-length");
  const shoulderDiameter = length("shoulder-diameter");
  // a shoulder thinner than the cut behind the flutes is a neck
  if (
    d !== undefined &&
    shoulderDiameter !== undefined &&
    shoulderDiameter < d &&
    shoulderLength !== undefined &&
    p.FluteLength !== undefined &&
    shoulderLength > p.FluteLength
  ) {
    p.NeckDiameter = shoulderDiameter;
    p.NeckLength = shoulderLength;
  }
  const family = toolTypeInfo(type).family;
  if (family === "mill" && type !== "ChamferMill" && type !== "SlotMill") p.DepthOfCutMaximum = p.FluteLength;
  switch (type) {
    case "BallEndMill":
      if (re !== undefined && re > 0) p.CornerRadius = re;
      break;
    case "BullNoseEndMill":
    case "FaceMill":
      p.CornerRadius = re ?? 0;
      if (type === "FaceMill") {
        // Fusion's taper angle is the edge's angle off the axis: 0 is a square shoulder mill
        const ta = angle("TA");
        if (ta !== undefined) p.LeadAngle = 90 - ta;
      }
      break;
    case "SlotMill":
      if (re !== undefined && re > 0) p.CornerRadius = re;
      p.NeckDiameter =
        shoulderDiameter !== undefined && d !== undefined && shoulderDiameter < d ? shoulderDiameter : p.ShankDiameter;
      if (shoulderLength !== undefined) p.NeckLength = shoulderLength;
      break;
    case "ChamferMill":
      p.ChamferAngle = angle("TA");
      p.TipDiameter = length("tip-diameter") || undefined;
      break;
    case "Drill":
    case "SpotDrill":
      p.PointAngle = angle("SIG");
      break;
    case "CentreDrill":
      // the countersink is the taper angle; SIG is the pilot's point
      p.PointAngle = angle("TA");
      p.TipDiameter = length("tip-diameter");
      p.TipLength = length("tip-length") || undefined;
      break;
    case "Tap":
    case "ThreadMill":
      p.ThreadPitch = length("TP");
      p.ThreadProfileAngle = angle("thread-profile-angle");
      break;
    default:
      break;
  }
  if (fusionType === "flat end mill" && re !== undefined && re > 0) p.CornerRadius = re;
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as ToolParameters;
}

/** Presets with positive numbers only (Fusion writes 0 for unused ones), in mm and m/min. */
function presetsOf(
  start: unknown,
  factor: number,
  diameter: number | undefined,
  flutes: number | undefined,
): CuttingPreset[] {
  const presets = isRecord(start) && Array.isArray(start.presets) ? start.presets : [];
  return presets.filter(isRecord).map((raw, index) => {
    const positive = (key: string, scale = 1) => {
      const v = finiteNumber(raw[key]);
      return v !== undefined && v > 0 ? mm6(v * scale) : undefined;
    };
    const preset: CuttingPreset = { name: text(raw.name) ?? `Preset ${index + 1}` };
    const n = positive("n");
    const vf = positive("v_f", factor);
    const set = <K extends keyof CuttingPreset>(key: K, value: CuttingPreset[K] | undefined) => {
      if (value !== undefined) preset[key] = value;
    };
    set("spindle_speed_rpm", n);
    set("feed_rate_mm_min", vf);
    set("plunge_feed_rate_mm_min", positive("v_f_plunge", factor));
    set("ramp_feed_rate_mm_min", positive("v_f_ramp", factor));
    if (raw["use-stepdown"] === true) set("stepdown_mm", positive("stepdown", factor));
    if (raw["use-stepover"] === true) set("stepover_mm", positive("stepover", factor));
    set("coolant", COOLANT[text(raw["tool-coolant"])?.toLowerCase() ?? ""]);
    // speed and feed per tooth are derived; keep them only where they agree with n and v_f
    const vc = positive("v_c", factor === 1 ? 1 : 0.3048);
    if (
      vc !== undefined &&
      n !== undefined &&
      diameter !== undefined &&
      Math.abs(vc - (Math.PI * diameter * n) / 1000) <= CUTTING_DATA_TOLERANCE * vc
    ) {
      preset.cutting_speed_m_min = vc;
    }
    const fz = positive("f_z", factor);
    if (
      fz !== undefined &&
      (vf === undefined ||
        n === undefined ||
        flutes === undefined ||
        Math.abs(vf - fz * flutes * n) <= CUTTING_DATA_TOLERANCE * vf)
    ) {
      preset.feed_per_tooth_mm = fz;
    }
    return preset;
  });
}

function holderOf(raw: unknown, toolFactor: number, manufacturer: string): (Holder & { uuid: string }) | undefined {
  if (!isRecord(raw) || !Array.isArray(raw.segments) || raw.segments.length === 0) return undefined;
  const factor = UNITS[text(raw.unit) ?? ""] ?? toolFactor;
  // Fusion lists segments from the tool end up; ours run from the gauge line down
  const segments: HolderSegment[] = raw.segments
    .filter(isRecord)
    .map((s) => ({
      length_mm: mm6((finiteNumber(s.height) ?? Number.NaN) * factor),
      upper_diameter_mm: mm6((finiteNumber(s["upper-diameter"]) ?? Number.NaN) * factor),
      lower_diameter_mm: mm6((finiteNumber(s["lower-diameter"]) ?? Number.NaN) * factor),
    }))
    .reverse();
  if (segments.some((s) => !Number.isFinite(s.length_mm + s.upper_diameter_mm + s.lower_diameter_mm)))
    throw new Skip("the holder has a segment without height or diameters");
  const vendor = text(raw.vendor) ?? manufacturer;
  const article = text(raw["product-id"]);
  const name = text(raw.description) ?? article ?? "Holder";
  const holder: Holder & { uuid: string } = {
    // one holder model is one library item however many tools come with it
    uuid: catalogueUuid("holder", vendor, article ?? JSON.stringify([name, segments])),
    name,
    stacking_group: "Holder",
    manufacturer: vendor,
    gauge_length_mm: mm6(segments.reduce((sum, s) => sum + s.length_mm, 0)),
    segments,
  };
  if (article) holder.article_number = article;
  return holder;
}

/**
 * The tool's T number in the library (`post-process.number`) as the assembly's pocket number;
 * undefined where Fusion has none (it writes 0) or one no control takes.
 */
function pocketNumberOf(postProcess: unknown): number | undefined {
  const number = isRecord(postProcess) ? finiteNumber(postProcess.number) : undefined;
  return number !== undefined && Number.isInteger(number) && number >= 1 && number <= MAX_POCKET_NUMBER
    ? number
    : undefined;
}

/** What the file carries that we do not model, kept for a round trip. */
function vendorDataOf(raw: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = { source: "fusion360" };
  for (const key of ["guid", "vendor", "product-link", "GRADE", "BMC", "post-process", "type", "geometry"]) {
    if (raw[key] !== undefined && raw[key] !== "") data[key] = raw[key];
  }
  return data;
}

function entryOf(raw: unknown, manufacturer: string): CatalogueEntry {
  if (!isRecord(raw)) throw new Skip("not an object");
  const fusionType = text(raw.type)?.toLowerCase();
  if (!fusionType) throw new Skip("no type");
  if (fusionType === "holder")
    throw new Skip("a holder on its own, not a tool (holders are imported with their tools)");
  let type = FUSION_TOOL_TYPES[fusionType];
  if (!type) throw new Skip(`unsupported tool type "${fusionType}"`);
  const unit = text(raw.unit);
  const factor = UNITS[unit ?? ""];
  if (factor === undefined)
    throw new Skip(`unknown unit ${JSON.stringify(raw.unit ?? null)} (expected millimeters or inches)`);
  const g = isRecord(raw.geometry) ? raw.geometry : undefined;
  if (!g) throw new Skip("no geometry");
  const article = text(raw["product-id"]) ?? text(raw.guid);
  if (!article) throw new Skip("neither product-id nor guid: no article number");

  const converted = parametersOf(type, fusionType, g, factor);
  // a "flat" end mill with a corner radius is a bull nose one: that is what it cuts like
  if (type === "CentreCuttingEndMill" && (converted.CornerRadius ?? 0) > 0) type = "BullNoseEndMill";
  // what the type has no use for (a centre drill's LCF) stays in vendor_data.geometry only
  const allowed = allowedParameters(type);
  const params = Object.fromEntries(
    Object.entries(converted).filter(([name]) => allowed.has(name as ToolParameterName)),
  ) as ToolParameters;
  const d = params.CuttingDiameter;
  const flutes = params.NumberOfFlutes;
  const tool: Tool & { uuid: string } = {
    uuid: catalogueUuid("tool", manufacturer, article),
    name: text(raw.description) ?? `${fusionType} Ø${d === undefined ? "?" : fmt(d)}`,
    tool_type: type,
    manufacturer,
    article_number: article,
    tool_parameters: params,
    vendor_data: vendorDataOf(raw),
  };
  if (flutes !== undefined) tool.flute_count = flutes;
  const material = BMC[text(raw.BMC)?.toLowerCase() ?? ""];
  if (material) tool.tool_material = material;
  if (fusionType === "tap left hand" || g.HAND === false) tool.hand = "left";
  else if (fusionType === "tap right hand" || g.HAND === true) tool.hand = "right";
  const presets = presetsOf(raw["start-values"], factor, d, flutes);
  if (presets.length > 0) tool.cutting_data = presets;

  const holder = holderOf(raw.holder, factor, manufacturer);
  const pocket = pocketNumberOf(raw["post-process"]);
  const assembly: Assembly = {
    uuid: catalogueUuid("assembly", manufacturer, article),
    name: holder ? `${tool.name} in ${holder.name}` : tool.name,
    manufacturer,
    ...(pocket === undefined ? {} : { pocket_number: pocket }),
    components: [
      ...(holder ? [{ component_type: "adaptive_item" as const, adaptive_item: holder }] : []),
      { component_type: "parametric_cutting_tool" as const, parametric_cutting_tool: tool },
    ],
  };
  const checked = validateAssembly(assembly);
  if (!checked.ok) {
    const where = (field: string) =>
      field
        .replace(/^components\.\d+\.parametric_cutting_tool\./, "")
        .replace(/^components\.\d+\.adaptive_item\./, "holder.");
    throw new Skip(
      `invalid: ${checked.violations.map((v) => `${where(v.field)} ${v.rule} (${v.message})`).join("; ")}`,
    );
  }
  if (d === undefined || params.OverallLength === undefined) throw new Skip("no diameter or overall length");
  return {
    manufacturer,
    article_number: article,
    name: tool.name,
    tool_type: type,
    family: toolTypeInfo(type).family,
    diameter_mm: d,
    flute_length_mm: params.FluteLength ?? null,
    overall_length_mm: params.OverallLength,
    shank_diameter_mm: params.ShankDiameter ?? null,
    standard: null,
    assembly: checked.assembly,
  };
}

/** Every tool of a Fusion 360 library that we can use, and why the others were skipped. */
export function parseFusionLibrary(input: string | unknown, options: FusionImportOptions): FusionImport {
  const manufacturer = options.manufacturer.trim();
  if (!manufacturer) throw new FusionLibraryError("a manufacturer is required");
  let library: unknown = input;
  if (typeof input === "string") {
    try {
      library = JSON.parse(input);
    } catch (error) {
      throw new FusionLibraryError(`not JSON: ${(error as Error).message}`);
    }
  }
  if (!isRecord(library) || !Array.isArray(library.data))
    throw new FusionLibraryError('not a Fusion 360 tool library: expected {"data": [...]}');
  const result: FusionImport = { entries: [], skipped: [] };
  const firstIndex = new Map<string, number>();
  library.data.forEach((raw, index) => {
    try {
      const entry = entryOf(raw, manufacturer);
      const earlier = firstIndex.get(entry.article_number);
      if (earlier !== undefined)
        throw new Skip(`duplicate article number ${entry.article_number} (first at index ${earlier})`);
      firstIndex.set(entry.article_number, index);
      result.entries.push(entry);
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      result.skipped.push({ index, reason: error.message });
    }
  });
  return result;
}
