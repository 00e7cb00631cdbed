/**
 * Machine hour rate (MHR, Maschinenstundensatz) in the manner of VDI 3258: the machine's
 * yearly costs divided by its yearly operating hours, plus energy per operating hour, times a
 * safety factor. docs/quote.md gives the formula and a worked example (mhr.test.ts reproduces it).
 *
 *   depreciation  = replacement value / years      (replacement value: machine_selling_price
 *                                                   when given and > 0, else acquisition_costs)
 *   interest      = acquisition_costs / 2 * interest_rate       (imputed, on the average capital)
 *   space         = required_floor_space * cost_per_square_meter * 12   (cost per m² and month)
 *   maintenance   = maintenance_cost                              (per year)
 *   fixed per h   = (depreciation + interest + space + maintenance) / operating_hours
 *   energy per h  = average_power_consumption (kW) * energy_cost (per kWh)
 *   calculated_mhr = (fixed per h + energy per h) * safety_factor, rounded to cents
 */
import { z } from "zod";
import { cents, dec, type Decimal } from "./money.ts";

const money = z.number().min(0).max(1e9);

/** the inputs as a client sends them; cost_per_square_meter and energy_cost default from the quote settings */
export const MhrInputsSchema = z.strictObject({
  acquisition_costs: money.describe("purchase price, installed (EUR)"),
  machine_selling_price: money
    .optional()
    .describe("replacement value for the depreciation (EUR); 0 or absent: acquisition_costs"),
  interest_rate: z.number().min(0).max(1).describe("imputed interest per year as a fraction (0.06 = 6 %)"),
  required_floor_space: z.number().min(0).max(10_000).describe("m²"),
  cost_per_square_meter: money
    .optional()
    .describe("EUR per m² and month; absent: the quote settings' default_cost_per_m2"),
  maintenance_cost: money.describe("EUR per year"),
  energy_cost: money.optional().describe("EUR per kWh; absent: the quote settings' default_energy_cost"),
  average_power_consumption: z.number().min(0).max(10_000).describe("kW while running"),
  operating_hours: z.number().gt(0).max(8784).describe("hours per year the machine runs"),
  years: z.number().gt(0).max(100).describe("depreciation period"),
  safety_factor: z
    .number()
    .min(1)
    .max(10)
    .optional()
    .describe("multiplies the rate (1.1 = 10 % margin for risk); absent: 1"),
});
export type MhrInputsRequest = z.infer<typeof MhrInputsSchema>;

/** every input resolved: what a stored MHR record holds */
export interface MhrInputs {
  acquisition_costs: number;
  machine_selling_price: number;
  interest_rate: number;
  required_floor_space: number;
  cost_per_square_meter: number;
  maintenance_cost: number;
  energy_cost: number;
  average_power_consumption: number;
  operating_hours: number;
  years: number;
  safety_factor: number;
}

export interface MhrDefaults {
  cost_per_square_meter: number;
  energy_cost: number;
}

export function resolveMhrInputs(request: MhrInputsRequest, defaults: MhrDefaults): MhrInputs {
  return {
    acquisition_costs: request.acquisition_costs,
    machine_selling_price: request.machine_selling_price ?? 0,
    interest_rate: request.interest_rate,
    required_floor_space: request.required_floor_space,
    cost_per_square_meter: request.cost_per_square_meter ?? defaults.cost_per_square_meter,
    maintenance_cost: request.maintenance_cost,
    energy_cost: request.energy_cost ?? defaults.energy_cost,
    average_power_consumption: request.average_power_consumption,
    operating_hours: request.operating_hours,
    years: request.years,
    safety_factor: request.safety_factor ?? 1,
  };
}

/** each yearly cost and the hourly parts, exact */
export interface MhrParts {
  depreciation_per_year: Decimal;
  interest_per_year: Decimal;
  space_per_year: Decimal;
  maintenance_per_year: Decimal;
  fixed_per_hour: Decimal;
  energy_per_hour: Decimal;
  before_safety: Decimal;
  exact: Decimal;
  /** rounded to cents */
  calculated_mhr: Decimal;
}

export function mhrParts(inputs: MhrInputs): MhrParts {
  const replacement =
    inputs.machine_selling_price > 0 ? dec(inputs.machine_selling_price) : dec(inputs.acquisition_costs);
  const depreciation = replacement.dividedBy(inputs.years);
  const interest = dec(inputs.acquisition_costs).dividedBy(2).times(inputs.interest_rate);
  const space = dec(inputs.required_floor_space).times(inputs.cost_per_square_meter).times(12);
  const maintenance = dec(inputs.maintenance_cost);
  const fixed = depreciation.plus(interest).plus(space).plus(maintenance).dividedBy(inputs.operating_hours);
  const energy = dec(inputs.average_power_consumption).times(inputs.energy_cost);
  const before = fixed.plus(energy);
  const exact = before.times(inputs.safety_factor);
  return {
    depreciation_per_year: depreciation,
    interest_per_year: interest,
    space_per_year: space,
    maintenance_per_year: maintenance,
    fixed_per_hour: fixed,
    energy_per_hour: energy,
    before_safety: before,
    exact,
    calculated_mhr: cents(exact),
  };
}

export function calculateMhr(inputs: MhrInputs): number {
  return mhrParts(inputs).calculated_mhr.toNumber();
}
