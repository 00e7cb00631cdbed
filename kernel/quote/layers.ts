/**
 * Layered defaults of a quote (spec: Layered defaults). Deepest first:
 *   (1) the user's quote settings, (2) the machine (per product_id: MHR and setup-cost
 *   template), (3) the quote job's overrides. A null override falls through to the machine,
 *   then to the settings; below the settings is the machine catalogue's default_mhr.
 * Setup costs merge by CAM setup id: the quote job's entry if present, else the machine default.
 */
import { z } from "zod";

/** a non-negative decimal written as a string ("12", "12.5") */
export const DecimalString = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,6})?$/, 'a non-negative decimal number written as a string, such as "45.50"');

/** spec: Setup cost entry, all values strings */
export const SetupCostEntrySchema = z.strictObject({
  is_fixed_price: z.enum(["true", "false"]),
  name: z.string().max(200),
  value: DecimalString.describe('hourly rate (EUR/h) when is_fixed_price is "false"'),
  unit: z.string().max(40),
  fix_price: DecimalString.describe('one-time amount (EUR) when is_fixed_price is "true"'),
});
export type SetupCostEntry = z.infer<typeof SetupCostEntrySchema>;

/** an entry of a machine's ordered setup-cost template */
export interface MachineSetupCost {
  name: string;
  value: number;
  unit: string;
}

export type MhrSource = "quote_job" | "machine" | "settings" | "catalogue";

export interface MhrLayers {
  /** quote_jobs.mhr_override */
  quoteJob: number | null;
  /** the user's machine quote configuration: mhr_value (set directly or by an MHR record) */
  machine: number | null;
  /** quote_settings.default_mhr */
  settings: number | null;
  /** machines.default_mhr */
  catalogue: number;
}

export function resolveMhr(layers: MhrLayers): { value: number; source: MhrSource } {
  if (layers.quoteJob !== null) return { value: layers.quoteJob, source: "quote_job" };
  if (layers.machine !== null) return { value: layers.machine, source: "machine" };
  if (layers.settings !== null) return { value: layers.settings, source: "settings" };
  return { value: layers.catalogue, source: "catalogue" };
}

/** a unit that names a rate per hour: "EUR/h", "€/h", "/h", "h", "per hour" */
export function isHourlyUnit(unit: string): boolean {
  return /(^|\/)\s*h(our)?\s*$|^per hour$/i.test(unit.trim());
}

/**
 * A machine template entry as a setup-cost entry: hourly (is_fixed_price "false", value the
 * rate) when its unit is per hour, else a one-time fixed price of value.
 */
export function templateEntry(cost: MachineSetupCost): SetupCostEntry {
  const amount = String(cost.value);
  return isHourlyUnit(cost.unit)
    ? { is_fixed_price: "false", name: cost.name, value: amount, unit: cost.unit, fix_price: "0" }
    : { is_fixed_price: "true", name: cost.name, value: "0", unit: cost.unit, fix_price: amount };
}

export type SetupCostSource = "quote_job" | "machine" | "none";

export interface ResolvedSetupCost {
  setup_id: string;
  entry: SetupCostEntry | null;
  source: SetupCostSource;
}

/**
 * One setup-cost entry per machining setup: the quote job's entry for the setup's id, else the
 * machine template's entry at the setup's index, else its last entry (a one-entry template
 * applies to every setup), else none.
 */
export function mergeSetupCosts(
  setups: readonly { id: string; index: number }[],
  quoteJob: Readonly<Record<string, SetupCostEntry>>,
  template: readonly MachineSetupCost[],
): ResolvedSetupCost[] {
  return setups.map((setup) => {
    const own = Object.hasOwn(quoteJob, setup.id) ? quoteJob[setup.id] : undefined;
    if (own) return { setup_id: setup.id, entry: own, source: "quote_job" };
    const fallback = template[setup.index] ?? template.at(-1);
    if (fallback) return { setup_id: setup.id, entry: templateEntry(fallback), source: "machine" };
    return { setup_id: setup.id, entry: null, source: "none" };
  });
}
