/** The public API's quote routes for one project, and the MHR calculator, called with the session. */
import { PUBLIC_API } from "./base.ts";
import { request } from "./client.ts";
import type { DesignFeedbackKind } from "../../../contracts/quote.ts";
import { initialLanguage, type Language } from "../i18n/index.ts";
import type {
  CostModelField,
  CostModelPatch,
  CostModelSource,
  CostModelValues,
  LineKind,
  LineUnit,
  WearFamily,
} from "./cost-model.ts";

export type { LineKind } from "./cost-model.ts";
import type { MhrInput } from "./machines.ts";
import { projectUrl, type Warning } from "./projects.ts";

export interface BreakdownLine {
  kind: LineKind;
  label: string;
  /** the line's name in the language asked for */
  title: string;
  ref: string | null;
  /** for the order, in unit (4 decimals) */
  quantity: number;
  unit: LineUnit;
  /** EUR per unit */
  rate: number;
  amount: number;
}

export interface Breakdown {
  currency: string;
  quantity: number;
  mhr: number;
  mhr_source: string;
  machining_time_s: number;
  /** each setup's machining and setup cost; the setup cost's source is the layer its entry came from */
  setups: {
    setup_id: string;
    name: string;
    setup_cost: { source: "quote_job" | "machine" | "setup_rate" | "none" };
  }[];
  lines: BreakdownLine[];
  direct_cost: number;
  overhead_percentage: number;
  overhead: number;
  manufacturing_cost: number;
  profit_percentage: number;
  profit: number;
  price_before_discount: number;
  discount_percentage: number;
  discount: number;
  net_price: number;
  tax_percentage: number;
  tax: number;
  total_price: number;
  unit_price: number;
  warnings: Warning[];
  /** the values the lines used, and the layer of each */
  cost_model: Record<CostModelField, number> & {
    tool_wear: Record<WearFamily, number>;
    sources: Record<CostModelField, CostModelSource> & { tool_wear: Record<WearFamily, CostModelSource> };
  };
  /** what in the part's design is hard or impossible to machine, found at planning (docs/quote.md) */
  design_feedback: DesignFeedbackItem[];
}

export type { DesignFeedbackKind };

export interface DesignFeedbackItem {
  kind: DesignFeedbackKind;
  severity: "error" | "warning";
  /** part face ids: the part glb's _FACE_ID */
  faces: number[];
  feature: number | null;
  measured: { value: number; unit: string } | null;
  limit: { value: number; unit: string } | null;
  details: Record<string, string | number>;
  message_key: string;
  /** the item in a sentence of the language asked for */
  message: string;
}

/** the spec's additional cost group: per part (times the quantity) or once per order */
export interface AdditionalCostGroup {
  Title: string;
  per_unit: boolean;
  Costs: { label: string; cost: number }[];
}

/** a group as sent: a cost that is no number goes as typed, so the API's 400 names it */
export type AdditionalCostGroupPatch = Omit<AdditionalCostGroup, "Costs"> & {
  Costs: { label: string; cost: number | string }[];
};

export interface QuoteJob {
  quantity: number;
  mhr_override: number | null;
  overhead_percentage: number;
  tax: number;
  discount: number;
  profit: number;
  material_is_fixed_price: boolean;
  material_fixed_price: number;
  material_surcharge_percentage: number;
  additional_costs: Record<string, AdditionalCostGroup>;
  cost_model: CostModelValues;
  customer_name: string;
  customer_address: string;
  part_name: string | null;
  quantity_breaks: number[];
  valid_until: string | null;
  delivery_days: number | null;
  quote_number: string | null;
}

/** the spec's setup-cost entry: strings throughout */
export interface SetupCostEntry {
  is_fixed_price: "true" | "false";
  name: string;
  value: string;
  unit: string;
  fix_price: string;
}

export type QuoteJobPatch = Partial<Omit<QuoteJob, "cost_model" | "additional_costs">> & {
  /** merged by group id: a group replaces that group, null removes it */
  additional_costs?: Record<string, AdditionalCostGroupPatch | null>;
  setup_costs?: Record<string, SetupCostEntry>;
  cost_model?: CostModelPatch;
};

/** the calculator's inputs: the machine page's MHR form asks for the same */
export type MhrInputs = Partial<Record<MhrInput, number>>;

/** the breakdown, its lines' titles and design feedback in `language` (default: the one the user chose) */
export const getBreakdown = (projectId: string, language: Language = initialLanguage()) =>
  request<Breakdown>("GET", `${projectUrl(projectId)}/quote?language=${language}`);
export const getQuoteJob = (projectId: string) => request<QuoteJob>("GET", `${projectUrl(projectId)}/quote/job`);
export const patchQuoteJob = (projectId: string, patch: QuoteJobPatch) =>
  request<QuoteJob>("PATCH", `${projectUrl(projectId)}/quote/job`, patch);
export const calculateMhr = (inputs: MhrInputs) =>
  request<{ calculated_mhr: number }>("POST", `${PUBLIC_API}/quote/mhr/calculate`, inputs);
/** the customer's quote document (docs/quote.md): PDF or Excel, English or German */
export const customerExportUrl = (projectId: string, format: "pdf" | "excel", language: "en" | "de") =>
  `${projectUrl(projectId)}/quote/export?document=customer&format=${format}&language=${language}`;
export const exportUrl = (projectId: string, format: "csv" | "excel", language: "en" | "de") =>
  `${projectUrl(projectId)}/quote/export?format=${format}&language=${language}`;
