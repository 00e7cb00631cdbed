/** Schemas, the breakdown assembly and the MHR answer shared by the quote routes (quote.ts, quote-machines.ts). */
import { z } from "zod";
import { getProject } from "../../../db/queries/projects.ts";
import { getMachineQuote } from "../../../db/queries/quote-machines.ts";
import {
  getQuoteJob,
  getQuoteProjectContext,
  getQuoteSettings,
  type QuoteSettingsRow,
} from "../../../db/queries/quote.ts";
import type { Completeness } from "../../../kernel/cam/plan-types.ts";
import type { DesignFeedbackItem } from "../../../kernel/dfm/types.ts";
import type { PlanSummary } from "../../../kernel/job/plan.ts";
import {
  computeBreakdown,
  breakdownJson,
  type BreakdownJson,
  type BreakdownSetup,
} from "../../../kernel/quote/breakdown.ts";
import { CostModelSchema, resolveCostModel, settingsCostModel } from "../../../kernel/quote/cost-model.ts";
import { mergeSetupCosts, resolveMhr, type MhrSource } from "../../../kernel/quote/layers.ts";
import type { Queryable } from "../../../db/request-transaction.ts";
import { calculateMhr, mhrParts, type resolveMhrInputs } from "../../../kernel/quote/mhr.ts";
import { notFound } from "../../../http/errors/index.ts";

export const Percent = z.number().min(0).max(100).describe("percent, 0 to 100");
export const Money = z.number().min(0).max(1e9).describe("EUR");
export const ProductIdParam = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, "a product_id from GET /libraries/machines")
  .describe("a machine assigned to the user");

export const MhrSourceSchema = z.enum(["quote_job", "machine", "settings", "catalogue"]);

export const QuoteSettings = z
  .object({
    overhead_percentage: z.number(),
    tax: z.number(),
    discount: z.number(),
    profit: z.number(),
    default_cost_per_m2: z
      .number()
      .describe("EUR per m² and month: an MHR calculation's cost_per_square_meter when it sends none"),
    default_energy_cost: z.number().describe("EUR per kWh: an MHR calculation's energy_cost when it sends none"),
    default_mhr: z
      .number()
      .nullable()
      .describe("EUR/h: the MHR of machines without one of the user's; null: the catalogue's default_mhr"),
    material_surcharge_percentage: z.number().describe("new quote jobs take it"),
    cost_model: CostModelSchema.describe(
      "an extension: the deepest layer of the cost model, defaults filled in (docs/quote.md, Cost model)",
    ),
    shop_name: z.string().describe("extension: the customer's document's header"),
    shop_address: z.string().describe("extension: lines separated by \\n, under the shop's name"),
    terms: z.string().describe("extension: the customer's document's terms, lines separated by \\n"),
    validity_days: z
      .number()
      .int()
      .describe(
        "extension: a customer's document is valid this many days from its date, unless its quote job says until when",
      ),
    delivery_days: z
      .number()
      .int()
      .describe("extension: working days from order to delivery, unless the quote job says otherwise"),
    updated_at: z.string(),
  })
  .meta({ id: "QuoteSettings" });

export function toSettings(row: QuoteSettingsRow): z.input<typeof QuoteSettings> {
  return { ...row, cost_model: settingsCostModel(row.cost_model), updated_at: row.updated_at.toISOString() };
}

export interface ProjectBreakdown {
  /** with the current plan's design feedback (kernel/dfm): empty without a plan or from a plan made before it */
  breakdown: BreakdownJson & { design_feedback: DesignFeedbackItem[] };
  project: { id: string; name: string; customer: string };
  /** the current plan's completeness (the exports' top line); null without one */
  completeness: Completeness | null;
}

/**
 * Reads every layer and computes the breakdown of a project's quote; 404 when the project is not
 * the caller's. `quantity` prices another quantity from the same plan (a quantity break of the
 * customer's document); default the quote job's.
 */
export async function projectBreakdown(
  db: Queryable,
  projectId: string,
  options: { quantity?: number } = {},
): Promise<ProjectBreakdown> {
  const project = await getProject(db, projectId);
  const quoteJob = project ? await getQuoteJob(db, projectId) : null;
  const context = project ? await getQuoteProjectContext(db, projectId) : null;
  if (!project || !quoteJob || !context) throw notFound("project", projectId);
  const settings = await getQuoteSettings(db);
  const machine = await getMachineQuote(db, context.product_id);
  const mhr = resolveMhr({
    quoteJob: quoteJob.mhr_override,
    machine: machine?.mhr_value ?? null,
    settings: settings.default_mhr,
    catalogue: machine?.default_mhr ?? 0,
  });
  const setups: BreakdownSetup[] | null = context.plan_summary
    ? [...context.plan_summary.setups]
        .sort((a, b) => a.index - b.index)
        .map((s) => {
          const types = new Map(s.tools.map((t) => [t.number, t.tool_type]));
          return {
            id: s.id,
            name: s.name,
            index: s.index,
            machining_time_s: s.machining_time_s,
            operations: s.operations.map((o) => ({
              tool_type: types.get(o.tool_number) ?? "",
              machining_time_s: o.machining_time_s,
            })),
          };
        })
    : null;
  const completeness = completenessOf(context.plan_summary);
  const breakdown = computeBreakdown({
    quantity: options.quantity ?? quoteJob.quantity,
    mhr: { value: mhr.value, source: mhr.source as MhrSource },
    setups,
    completeness,
    plan_warnings: context.plan_summary?.warnings ?? [],
    // only the drops of the planning that saved the current job: a later job is a new situation
    setup_costs_dropped: quoteJob.setup_costs_dropped.filter((d) => d.job_id === context.current_job_id),
    setup_costs: mergeSetupCosts(setups ?? [], quoteJob.setup_costs, machine?.setup_costs ?? []),
    material: quoteJob.material_is_fixed_price
      ? { kind: "fixed", price: quoteJob.material_fixed_price }
      : {
          kind: "stock",
          stock_size_mm: context.stock ? context.stock.size : null,
          material: context.material,
          surcharge_percentage: quoteJob.material_surcharge_percentage,
        },
    additional_costs: quoteJob.additional_costs,
    overhead_percentage: quoteJob.overhead_percentage,
    profit: quoteJob.profit,
    discount: quoteJob.discount,
    tax: quoteJob.tax,
    cost_model: resolveCostModel({
      quoteJob: quoteJob.cost_model,
      machine: machine?.cost_model ?? {},
      settings: settings.cost_model,
    }),
  });
  return {
    breakdown: { ...breakdownJson(breakdown), design_feedback: context.plan_summary?.design_feedback ?? [] },
    project: { id: project.id, name: project.name, customer: project.customer },
    completeness,
  };
}

/** a plan saved before plans carried their completeness has none (its stored summary lacks the field) */
function completenessOf(summary: PlanSummary | null): Completeness | null {
  return summary?.completeness ?? null;
}

export const MhrResult = z
  .object({
    calculated_mhr: z.number().describe("EUR/h, rounded to cents"),
    inputs: z
      .object({
        acquisition_costs: z.number(),
        machine_selling_price: z.number(),
        interest_rate: z.number(),
        required_floor_space: z.number(),
        cost_per_square_meter: z.number(),
        maintenance_cost: z.number(),
        energy_cost: z.number(),
        average_power_consumption: z.number(),
        operating_hours: z.number(),
        years: z.number(),
        safety_factor: z.number(),
      })
      .describe("every input, defaults filled in"),
    parts: z
      .object({
        depreciation_per_year: z.number(),
        interest_per_year: z.number(),
        space_per_year: z.number(),
        maintenance_per_year: z.number(),
        fixed_per_hour: z.number(),
        energy_per_hour: z.number(),
      })
      .describe("the terms of the formula (docs/quote.md), unrounded"),
  })
  .meta({ id: "MhrCalculation" });

export function mhrCalculation(inputs: ReturnType<typeof resolveMhrInputs>): z.input<typeof MhrResult> {
  const parts = mhrParts(inputs);
  return {
    calculated_mhr: calculateMhr(inputs),
    inputs: { ...inputs },
    parts: {
      depreciation_per_year: parts.depreciation_per_year.toNumber(),
      interest_per_year: parts.interest_per_year.toNumber(),
      space_per_year: parts.space_per_year.toNumber(),
      maintenance_per_year: parts.maintenance_per_year.toNumber(),
      fixed_per_hour: parts.fixed_per_hour.toNumber(),
      energy_per_hour: parts.energy_per_hour.toNumber(),
    },
  };
}
