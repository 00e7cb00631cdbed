/**
 * The cost model's values as the quote routes show and take them (docs/quote.md, "Cost model").
 * The fields, families and line kinds are the server's (contracts/quote.ts); the lists the
 * forms walk are the keys of their words (i18n/cost-model.ts), which the types hold complete.
 */
import type { CostModelField, WearFamily } from "../../../contracts/quote.ts";

export type { CostModelField, CostModelSource, LineKind, LineUnit, WearFamily } from "../../../contracts/quote.ts";

/** one layer's values: what it sets (a quote job, a machine) or all of them (the settings) */
export type CostModelValues = Partial<Record<CostModelField, number>> & {
  tool_wear?: Partial<Record<WearFamily, number>>;
};
/** a PATCH of a layer: null falls through (or back to the default, in the settings) */
export type CostModelPatch = Partial<Record<CostModelField, number | string | null>> & {
  tool_wear?: Partial<Record<WearFamily, number | string | null>>;
};
