/** The cost model's values as the quote routes show and take them (docs/quote.md, "Cost model"). */
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

/** one layer's values: what it sets (a quote job, a machine) or all of them (the settings) */
export type CostModelValues = Partial<Record<CostModelField, number>> & {
  tool_wear?: Partial<Record<WearFamily, number>>;
};
/** a PATCH of a layer: null falls through (or back to the default, in the settings) */
export type CostModelPatch = Partial<Record<CostModelField, number | string | null>> & {
  tool_wear?: Partial<Record<WearFamily, number | string | null>>;
};

export type LineKind =
  | "machining"
  | "setup_cost"
  | "loading"
  | "operator_attendance"
  | "programming"
  | "tool_wear"
  | "deburring"
  | "inspection"
  | "material"
  | "additional_cost";
