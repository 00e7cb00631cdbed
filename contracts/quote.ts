/**
 * The quote's vocabulary as the web app types it: the cost model's fields and tool wear
 * families, the breakdown's line kinds and units, and the layers a value comes from. Types
 * only, taken from the kernel that defines them, so the browser's forms and tables are checked
 * against the server's lists at build time and keep no list of their own.
 */
export type {
  CostModelField,
  CostModelSource,
  WearFamily,
} from "../kernel/quote/cost-model.ts";
export type { LineKind, LineUnit } from "../kernel/quote/cost-lines.ts";
export type { DesignFeedbackKind } from "../kernel/dfm/types.ts";
