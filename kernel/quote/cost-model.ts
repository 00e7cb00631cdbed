/**
 * The shop's cost lines besides machine time and material: setup time per clamping, loading and
 * unloading, operator attendance, programming and review, tool wear by tool family, deburring
 * and inspection. Each value is layered like the MHR (docs/quote.md, "Cost model"): the quote
 * job's, else the machine's, else the user's settings, else the default below; null falls through.
 */
import { z } from "zod";
import type { ToolType } from "../tools/tool-types.ts";

/** tool families whose wear a shop prices differently (a tap breaks, a face mill's inserts last) */
export const WEAR_FAMILIES = [
  "end_mill",
  "ball_end_mill",
  "face_mill",
  "drill",
  "reamer",
  "tap",
  "thread_mill",
] as const;
export type WearFamily = (typeof WEAR_FAMILIES)[number];

/** each family in words (plural), for the breakdown's lines and the exports */
export const WEAR_FAMILY_NAMES: Record<"en" | "de", Record<WearFamily, string>> = {
  en: {
    end_mill: "end mills",
    ball_end_mill: "ball end mills",
    face_mill: "face mills",
    drill: "drills",
    reamer: "reamers",
    tap: "taps",
    thread_mill: "thread mills",
  },
  de: {
    end_mill: "Schaftfräser",
    ball_end_mill: "Kugelfräser",
    face_mill: "Planfräser",
    drill: "Bohrer",
    reamer: "Reibahlen",
    tap: "Gewindebohrer",
    thread_mill: "Gewindefräser",
  },
};

const WEAR_FAMILY_OF: Record<ToolType, WearFamily> = {
  CentreCuttingEndMill: "end_mill",
  NonCentreCuttingEndMill: "end_mill",
  BullNoseEndMill: "end_mill",
  ChamferMill: "end_mill",
  SlotMill: "end_mill",
  BallEndMill: "ball_end_mill",
  FaceMill: "face_mill",
  Drill: "drill",
  SpotDrill: "drill",
  CentreDrill: "drill",
  Reamer: "reamer",
  Tap: "tap",
  ThreadMill: "thread_mill",
};

/** the wear family of a tool type; an unknown type wears like an end mill, the commonest cutter */
export function wearFamily(toolType: string): WearFamily {
  return Object.hasOwn(WEAR_FAMILY_OF, toolType) ? WEAR_FAMILY_OF[toolType as ToolType] : "end_mill";
}

export const COST_MODEL_FIELDS = [
  "setup_rate",
  "setup_time_h",
  "operator_rate",
  "loading_min",
  "operator_attendance_percentage",
  "programming_rate",
  "programming_time_h",
  "deburring_min",
  "inspection_min",
] as const;
export type CostModelField = (typeof COST_MODEL_FIELDS)[number];

export interface CostModel extends Record<CostModelField, number> {
  /** EUR per cutting minute, by family */
  tool_wear: Record<WearFamily, number>;
}

/** one layer: any value may be missing or null (falls through) */
export type CostModelLayer = Partial<Record<CostModelField, number | null>> & {
  tool_wear?: Partial<Record<WearFamily, number | null>> | null;
};

/**
 * Defaults below every layer. Money is zero: rates are the shop's own and a guess would pass for
 * a price. Times are what a typical job shop takes for a small milled part, so a shop that sets
 * only its rates gets a sensible quote: half an hour to set up a vise clamping (mount, align,
 * touch off, first-part check), a minute to load and unload a part in a vise, a quarter of the
 * machining time with an operator beside the machine (one operator tending four machines), a
 * quarter of an hour to review the automated plan, a minute each to deburr and to inspect a part.
 */
export const COST_MODEL_DEFAULTS: CostModel = {
  setup_rate: 0,
  setup_time_h: 0.5,
  operator_rate: 0,
  loading_min: 1,
  operator_attendance_percentage: 25,
  programming_rate: 0,
  programming_time_h: 0.25,
  deburring_min: 1,
  inspection_min: 1,
  tool_wear: { end_mill: 0, ball_end_mill: 0, face_mill: 0, drill: 0, reamer: 0, tap: 0, thread_mill: 0 },
};

export type CostModelSource = "quote_job" | "machine" | "settings" | "default";

export interface ResolvedCostModel {
  values: CostModel;
  sources: Record<CostModelField, CostModelSource> & { tool_wear: Record<WearFamily, CostModelSource> };
}

interface CostModelLayers {
  quoteJob: CostModelLayer;
  machine: CostModelLayer;
  settings: CostModelLayer;
}

function pick(
  layers: CostModelLayers,
  get: (layer: CostModelLayer) => number | null | undefined,
  fallback: number,
): [number, CostModelSource] {
  const order: [CostModelLayer, CostModelSource][] = [
    [layers.quoteJob, "quote_job"],
    [layers.machine, "machine"],
    [layers.settings, "settings"],
  ];
  for (const [layer, source] of order) {
    const value = get(layer);
    if (value !== null && value !== undefined) return [value, source];
  }
  return [fallback, "default"];
}

/** every value from the highest layer that has it */
export function resolveCostModel(layers: CostModelLayers): ResolvedCostModel {
  const values = { ...COST_MODEL_DEFAULTS, tool_wear: { ...COST_MODEL_DEFAULTS.tool_wear } };
  const sources = {} as ResolvedCostModel["sources"];
  for (const field of COST_MODEL_FIELDS) {
    [values[field], sources[field]] = pick(layers, (l) => l[field], COST_MODEL_DEFAULTS[field]);
  }
  sources.tool_wear = {} as Record<WearFamily, CostModelSource>;
  for (const family of WEAR_FAMILIES) {
    [values.tool_wear[family], sources.tool_wear[family]] = pick(
      layers,
      (l) => l.tool_wear?.[family],
      COST_MODEL_DEFAULTS.tool_wear[family],
    );
  }
  return { values, sources };
}

/** the user's settings with the defaults filled in (what GET /quote/settings shows) */
export function settingsCostModel(stored: CostModelLayer): CostModel {
  return resolveCostModel({ quoteJob: {}, machine: {}, settings: stored }).values;
}

/** Merges a PATCH into a stored layer: a value replaces, null removes (falls through), a missing key stays. */
export function mergeCostModelLayer(current: CostModelLayer, patch: CostModelLayer): CostModelLayer {
  const next: Record<string, unknown> = { ...current };
  for (const field of COST_MODEL_FIELDS) {
    const value = patch[field];
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  if (patch.tool_wear === null) delete next.tool_wear;
  else if (patch.tool_wear) {
    const wear: Record<string, number> = { ...(current.tool_wear ?? {}) } as Record<string, number>;
    for (const family of WEAR_FAMILIES) {
      const value = patch.tool_wear[family];
      if (value === null) delete wear[family];
      else if (value !== undefined) wear[family] = value;
    }
    next.tool_wear = wear;
  }
  return next as CostModelLayer;
}

/** a stored layer as GET shows it: only the values it sets */
export function layerValues(layer: CostModelLayer): Partial<Record<CostModelField, number>> & {
  tool_wear?: Partial<Record<WearFamily, number>>;
} {
  const out: Partial<Record<CostModelField, number>> & { tool_wear?: Partial<Record<WearFamily, number>> } = {};
  for (const field of COST_MODEL_FIELDS) {
    const value = layer[field];
    if (typeof value === "number") out[field] = value;
  }
  const wear: Partial<Record<WearFamily, number>> = {};
  for (const family of WEAR_FAMILIES) {
    const value = layer.tool_wear?.[family];
    if (typeof value === "number") wear[family] = value;
  }
  if (Object.keys(wear).length > 0) out.tool_wear = wear;
  return out;
}

const rate = (what: string) => z.number().min(0).max(1e6).describe(what);
const FIELD_DESCRIPTIONS: Record<CostModelField, string> = {
  setup_rate: "EUR/h: setup time per clamping is priced at it (unless the setup's setup-cost entry says otherwise)",
  setup_time_h: "hours per clamping (each setup of the plan), once per order",
  operator_rate: "EUR/h: loading, attendance, deburring and inspection are priced at it",
  loading_min: "minutes to load and unload one part, per clamping",
  operator_attendance_percentage: "percent of the machining time an operator attends the machine",
  programming_rate: "EUR/h: programming and review are priced at it",
  programming_time_h: "hours to program and review the job, once per order",
  deburring_min: "minutes per part",
  inspection_min: "minutes per part",
};

/** A layer as a PATCH sends it: each value a non-negative number, or null to fall through. */
export const CostModelPatchSchema = z
  .strictObject({
    ...Object.fromEntries(
      COST_MODEL_FIELDS.map((f) => [
        f,
        (f === "operator_attendance_percentage" ? rate(FIELD_DESCRIPTIONS[f]).max(100) : rate(FIELD_DESCRIPTIONS[f]))
          .nullable()
          .optional(),
      ]),
    ),
    tool_wear: z
      .strictObject(
        Object.fromEntries(WEAR_FAMILIES.map((f) => [f, rate("EUR per cutting minute").nullable().optional()])),
      )
      .nullable()
      .optional()
      .describe("EUR per minute of cutting, by tool family; merged by family"),
  })
  .meta({ id: "CostModelPatch" });

/** A stored layer as GET shows it: the values this layer sets (the rest falls through). */
export const CostModelLayerSchema = z
  .object({
    ...Object.fromEntries(COST_MODEL_FIELDS.map((f) => [f, z.number().optional()])),
    tool_wear: z.record(z.string(), z.number()).optional(),
  })
  .meta({ id: "CostModelLayer" });

/** The settings' cost model: every value, defaults filled in. */
export const CostModelSchema = z
  .object({
    ...Object.fromEntries(COST_MODEL_FIELDS.map((f) => [f, z.number().describe(FIELD_DESCRIPTIONS[f])])),
    tool_wear: z.object(Object.fromEntries(WEAR_FAMILIES.map((f) => [f, z.number()]))),
  })
  .meta({ id: "CostModel" });
