/**
 * The public API's machine and quote routes (api/routes/machines-materials.ts,
 * quote-machines.ts, quote.ts's settings), called with the session.
 */
import { PUBLIC_API } from "./base.ts";
import { request } from "./client.ts";
import type { CostModelPatch, CostModelValues } from "./cost-model.ts";

export interface Machine {
  product_id: string;
  name: string;
  description: string;
  control: string;
  travel_mm: [number, number, number];
  max_spindle_rpm: number;
  tool_slots: number;
  default_mhr: number;
}

export interface SetupCost {
  index: number;
  name: string;
  value: number;
  unit: string;
}

export const MHR_INPUTS = [
  "acquisition_costs",
  "machine_selling_price",
  "interest_rate",
  "required_floor_space",
  "cost_per_square_meter",
  "maintenance_cost",
  "energy_cost",
  "average_power_consumption",
  "operating_hours",
  "years",
  "safety_factor",
] as const;
export type MhrInput = (typeof MHR_INPUTS)[number];
/** the inputs the API requires; the others fall back to the settings or 1 */
export const REQUIRED_MHR_INPUTS: ReadonlySet<MhrInput> = new Set([
  "acquisition_costs",
  "interest_rate",
  "required_floor_space",
  "maintenance_cost",
  "average_power_consumption",
  "operating_hours",
  "years",
]);

export type MhrInputs = Record<MhrInput, number>;

export interface MhrRecord {
  product_id?: string;
  calculated_mhr: number;
  inputs: MhrInputs;
}

export interface MachineQuote {
  product_id: string;
  name: string;
  mhr_value: number | null;
  mhr_value_source: "manual" | "calculated" | null;
  default_mhr: number;
  effective_mhr: { value: number; source: string };
  setup_costs: SetupCost[];
  mhr: Omit<MhrRecord, "product_id"> | null;
  /** the machine layer of the cost model: the values set for this machine */
  cost_model: CostModelValues;
}

export interface QuoteSettings {
  overhead_percentage: number;
  tax: number;
  discount: number;
  profit: number;
  default_cost_per_m2: number;
  default_energy_cost: number;
  default_mhr: number | null;
  material_surcharge_percentage: number;
  /** every value, defaults filled in */
  cost_model: CostModelValues;
  shop_name: string;
  shop_address: string;
  terms: string;
  validity_days: number;
  delivery_days: number;
  updated_at: string;
}
export type QuoteSettingsPatch = Partial<Omit<QuoteSettings, "updated_at" | "cost_model">> & {
  cost_model?: CostModelPatch;
};

const MACHINES = `${PUBLIC_API}/libraries/machines`;
const quotePath = (productId: string) => `${MACHINES}/${encodeURIComponent(productId)}/quote`;

export const listMachines = () => request<{ items: Machine[] }>("GET", MACHINES);
export const getMachineQuote = (productId: string) => request<MachineQuote>("GET", quotePath(productId));
export interface MachineQuotePatch {
  name?: string | null;
  mhr_value?: number | null;
  cost_model?: CostModelPatch;
}
export const patchMachineQuote = (productId: string, body: MachineQuotePatch) =>
  request<MachineQuote>("PATCH", quotePath(productId), body);
export const addSetupCost = (productId: string, body: { name: string; value: number; unit: string }) =>
  request<MachineQuote>("POST", `${quotePath(productId)}/setup-costs`, body);
export const removeSetupCost = (productId: string, index: number) =>
  request<MachineQuote>("DELETE", `${quotePath(productId)}/setup-costs/${index}`);
export const saveMhr = (productId: string, inputs: Partial<MhrInputs>) =>
  request<MhrRecord>("POST", `${MACHINES}/${encodeURIComponent(productId)}/mhr`, inputs);

export const getQuoteSettings = () => request<QuoteSettings>("GET", `${PUBLIC_API}/quote/settings`);
export const patchQuoteSettings = (body: QuoteSettingsPatch) =>
  request<QuoteSettings>("PATCH", `${PUBLIC_API}/quote/settings`, body);
