/**
 * Quote per project (the quote job, the breakdown, its export), the user's quote settings and
 * the MHR preview. Arithmetic in kernel/quote/, the rules in docs/quote.md.
 */
import { z } from "zod";
import {
  getQuoteJob,
  getQuoteProjectContext,
  getQuoteSettings,
  updateQuoteJob,
  updateQuoteSettings,
  type QuoteJobFields,
  type QuoteJobRow,
  type QuoteSettingsFields,
} from "../../db/queries/quote.ts";
import { DesignFeedbackItemSchema } from "../../kernel/dfm/types.ts";
import { EXPORT_CONTENT_TYPES, exportFilename, quoteCsv, quoteWorkbook } from "../../kernel/quote/export.ts";
import {
  CostModelLayerSchema,
  CostModelPatchSchema,
  COST_MODEL_FIELDS,
  layerValues,
  mergeCostModelLayer,
  WEAR_FAMILIES,
  type CostModelLayer,
} from "../../kernel/quote/cost-model.ts";
import { DOCUMENT_LANGUAGES } from "../../kernel/quote/customer-labels.ts";
import { SetupCostEntrySchema } from "../../kernel/quote/layers.ts";
import { MhrInputsSchema, resolveMhrInputs } from "../../kernel/quote/mhr.ts";
import { invalidParameter, notFound, type FieldIssue } from "../../http/errors/index.ts";
import { bytes, json } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { idParams, NoQuery, Timestamp } from "../schemas/common.ts";
import { CUSTOMER_CONTENT_TYPES, customerDocumentFile } from "./shared/quote-customer-document.ts";
import { breakdownInLanguage } from "./shared/quote-words.ts";
import {
  mhrCalculation,
  MhrResult,
  MhrSourceSchema,
  Money,
  Percent,
  projectBreakdown,
  QuoteSettings,
  toSettings,
} from "./shared/quote.ts";

const AdditionalCostGroupSchema = z
  .strictObject({
    Title: z.string().max(200),
    per_unit: z.boolean().describe("true: the costs are per part (times quantity); false: once per order"),
    Costs: z.array(z.strictObject({ label: z.string().max(200), cost: Money })).max(100),
  })
  .meta({ id: "AdditionalCostGroup" });

/** a group or setup id; `__proto__` never gets here (the JSON body middleware refuses it) */
const MapKey = z.string().min(1).max(100);

const QuoteJob = z
  .object({
    project_id: z.string(),
    quantity: z.number(),
    mhr_override: z.number().nullable().describe("null: the machine's MHR, then the settings'"),
    overhead_percentage: z.number(),
    tax: z.number(),
    discount: z.number(),
    profit: z.number(),
    material_is_fixed_price: z.boolean(),
    material_fixed_price: z.number().describe("EUR per part, used when material_is_fixed_price"),
    material_surcharge_percentage: z.number().describe("added to stock weight x price per kg"),
    additional_costs: z.record(z.string(), AdditionalCostGroupSchema),
    setup_costs: z
      .record(z.string(), SetupCostEntrySchema)
      .describe("by CAM setup id; a planning moves each to the new setup of the same direction"),
    setup_costs_dropped: z
      .array(
        z.object({
          job_id: z.string().describe("the job the planning saved"),
          setup_id: z.string().describe("the setup of the earlier plan the override was for"),
          name: z.string(),
          direction: z.tuple([z.number(), z.number(), z.number()]).describe("that setup's tool axis"),
          entry: SetupCostEntrySchema,
        }),
      )
      .describe("the overrides the last planning dropped: its plan has no setup from their direction (docs/quote.md)"),
    cost_model: CostModelLayerSchema.describe(
      "an extension: the cost model values this quote job sets; the rest come from the machine, then the settings",
    ),
    customer_name: z.string().describe("extension: the customer's document's addressee; empty: the project's customer"),
    customer_address: z.string().describe("extension: lines separated by \\n"),
    part_name: z
      .string()
      .nullable()
      .describe("extension: the part's name on the customer's document; null: the workpiece's file name"),
    quantity_breaks: z
      .array(z.number().int())
      .describe("extension: the quantities the customer's document prices, increasing; empty: quantity alone"),
    valid_until: z
      .string()
      .nullable()
      .describe("extension: YYYY-MM-DD; null: the document's date + the settings' validity_days"),
    delivery_days: z.number().int().nullable().describe("extension: working days; null: the settings'"),
    quote_number: z
      .string()
      .nullable()
      .describe("extension: given by the first customer's document (Q-<year>-<number>), then kept; null before"),
    updated_at: Timestamp,
  })
  .meta({ id: "QuoteJob" });

const Text = (max: number) => z.string().max(max);
const Days = z.number().int().min(1).max(365);

/** YYYY-MM-DD, today (UTC) or later */
const FutureDate = z.iso
  .date()
  .refine((date) => date >= new Date().toISOString().slice(0, 10), { message: "a date in the past" });

const QuantityBreaks = z
  .array(z.number().int().min(1).max(1_000_000))
  .max(10)
  .refine((breaks) => breaks.every((q, i) => i === 0 || q > breaks[i - 1]!), {
    message: "increasing positive integers, e.g. [1, 10, 50]",
  });

const QuoteJobPatch = z
  .strictObject({
    quantity: z.number().int().min(1).max(1_000_000).optional().describe("parts in the order"),
    mhr_override: Money.nullable().optional().describe("EUR/h; null clears the override"),
    overhead_percentage: Percent.optional(),
    tax: Percent.optional(),
    discount: Percent.optional(),
    profit: Percent.optional(),
    material_is_fixed_price: z.boolean().optional(),
    material_fixed_price: Money.optional(),
    material_surcharge_percentage: Percent.optional(),
    additional_costs: z
      .record(MapKey, AdditionalCostGroupSchema.nullable())
      .optional()
      .describe("merged by group id: a group sent replaces that group, null removes it, groups not sent stay"),
    setup_costs: z
      .record(MapKey, SetupCostEntrySchema.nullable())
      .optional()
      .describe(
        "merged by setup id (setups of the current job's plan): an entry sent replaces that setup's, null removes it",
      ),
    cost_model: CostModelPatchSchema.optional().describe(
      "an extension: merged by key; a value sets it for this quote job, null falls through to the machine and settings",
    ),
    customer_name: Text(200).optional().describe("extension"),
    customer_address: Text(1000).optional().describe("extension: lines separated by \\n"),
    part_name: Text(200).min(1).nullable().optional().describe("extension: null: the workpiece's file name"),
    quantity_breaks: QuantityBreaks.optional().describe(
      "extension: up to 10 increasing positive integers; [] prices the quantity alone",
    ),
    valid_until: FutureDate.nullable().optional().describe("extension: YYYY-MM-DD, not before today (UTC)"),
    delivery_days: Days.nullable().optional().describe("extension: working days, 1 to 365"),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "send at least one field" })
  .meta({ id: "QuoteJobPatch" });

function toQuoteJob(row: QuoteJobRow): z.input<typeof QuoteJob> {
  const { quote_number_at: _at, ...rest } = row;
  return { ...rest, cost_model: layerValues(row.cost_model), updated_at: row.updated_at.toISOString() };
}

const CostModelSourceSchema = z.enum(["quote_job", "machine", "settings", "default"]);
const ResolvedCostModelSchema = z
  .object({
    ...Object.fromEntries(COST_MODEL_FIELDS.map((f) => [f, z.number()])),
    tool_wear: z.object(Object.fromEntries(WEAR_FAMILIES.map((f) => [f, z.number()]))),
    sources: z
      .object({
        ...Object.fromEntries(COST_MODEL_FIELDS.map((f) => [f, CostModelSourceSchema])),
        tool_wear: z.object(Object.fromEntries(WEAR_FAMILIES.map((f) => [f, CostModelSourceSchema]))),
      })
      .describe("the layer each value came from"),
  })
  .meta({ id: "ResolvedCostModel" });

const money = z.number().describe("EUR, rounded to cents");
const Breakdown = z
  .object({
    currency: z.literal("EUR"),
    quantity: z.number(),
    mhr: z.number().describe("EUR/h, as the layers give it"),
    mhr_source: MhrSourceSchema.describe("the layer the MHR came from"),
    machining_time_s: z.number().describe("per part, all setups, from the current job's plan"),
    setups: z.array(
      z.object({
        setup_id: z.string(),
        name: z.string(),
        index: z.number().int(),
        machining_time_s: z.number().describe("per part, tool changes included"),
        machining_cost: money.describe("for the order: time x MHR x quantity"),
        setup_cost: z.object({
          name: z.string(),
          source: z
            .enum(["quote_job", "machine", "setup_rate", "none"])
            .describe("setup_rate: no entry, the cost model's setup_rate prices the setup time"),
          is_fixed_price: z.boolean(),
          rate: z.number().describe("EUR/h, when not a fixed price"),
          hours: z
            .number()
            .describe("an extension: the setup time per clamping priced at the rate (0 for a fixed price)"),
          fix_price: z.number(),
          unit: z.string(),
          amount: money,
        }),
      }),
    ),
    material: z.object({
      kind: z.enum(["fixed", "stock", "none"]),
      weight_kg: z.number().nullable().describe("of one part's stock"),
      price_per_kg: z.number().nullable(),
      surcharge_percentage: z.number().nullable(),
      amount: money.describe("for the order"),
    }),
    additional_costs: z.array(
      z.object({ group_id: z.string(), title: z.string(), per_unit: z.boolean(), amount: money }),
    ),
    lines: z
      .array(
        z.object({
          kind: z.enum([
            "machining",
            "setup_cost",
            "loading",
            "operator_attendance",
            "programming",
            "tool_wear",
            "deburring",
            "inspection",
            "material",
            "additional_cost",
          ]),
          label: z.string(),
          title: z
            .string()
            .describe("an extension: the line's name in ?language (the words the exports print), for a client to show"),
          ref: z.string().nullable().describe("the setup, the additional cost group or the tool wear family"),
          quantity: z.number().describe("an extension: for the order, in unit, to 4 decimal places"),
          unit: z.enum(["h", "min", "kg", "part", "order"]).describe("an extension"),
          rate: z.number().describe("an extension: EUR per unit, to 4 decimal places"),
          amount: money.describe("quantity x rate (exact), rounded so the lines add up to direct_cost"),
        }),
      )
      .describe("the direct costs; they add up to direct_cost exactly"),
    direct_cost: money,
    overhead_percentage: z.number(),
    overhead: money,
    manufacturing_cost: money.describe("direct_cost + overhead"),
    profit_percentage: z.number(),
    profit: money,
    price_before_discount: money,
    discount_percentage: z.number(),
    discount: money,
    net_price: money,
    tax_percentage: z.number(),
    tax: money,
    total_price: money.describe("net_price + tax"),
    unit_price: money.describe("net_price / quantity, rounded"),
    warnings: z.array(z.object({ code: z.string(), message: z.string() })),
    cost_model: ResolvedCostModelSchema.describe("an extension: the layered cost model the lines used"),
    design_feedback: z
      .array(
        DesignFeedbackItemSchema.extend({
          message: z
            .string()
            .describe("an extension: the item in a plain sentence in ?language, as the customer's document words it"),
        }).meta({ id: "DesignFeedbackItemWithMessage" }),
      )
      .describe(
        "an extension: what in the part's design is hard or impossible to machine (thin walls, deep pockets, small " +
          "internal radii, deep holes, faces no setup reaches, features needing a tilted setup, threads without a tap), " +
          "found when the current job was planned (docs/quote.md, Design feedback); empty without a plan",
      ),
  })
  .meta({ id: "QuoteBreakdown" });

const BreakdownQuery = z.strictObject({
  language: z
    .enum(DOCUMENT_LANGUAGES)
    .default("en")
    .describe("an extension: the language of the lines' titles and the design feedback's messages"),
});

const ExportQuery = z.strictObject({
  document: z
    .enum(["costing", "customer"])
    .default("costing")
    .describe("extension: costing (the default), the internal breakdown; customer, the document a shop sends"),
  format: z
    .enum(["csv", "excel", "pdf"])
    .describe("csv and excel for costing; pdf (an extension) and excel for customer"),
  language: z.enum(DOCUMENT_LANGUAGES).default("en"),
});

/** the formats each document comes in: a customer's document is no CSV, the costing sheet no PDF */
const DOCUMENT_FORMATS = { costing: ["csv", "excel"], customer: ["pdf", "excel"] } as const;

const QuoteSettingsPatch = z
  .strictObject({
    overhead_percentage: Percent.optional(),
    tax: Percent.optional(),
    discount: Percent.optional(),
    profit: Percent.optional(),
    default_cost_per_m2: Money.optional(),
    default_energy_cost: Money.optional(),
    default_mhr: Money.nullable().optional(),
    material_surcharge_percentage: Percent.optional(),
    cost_model: CostModelPatchSchema.optional().describe(
      "an extension: merged by key; null puts a value back to its default (docs/quote.md, Cost model)",
    ),
    shop_name: Text(200).optional().describe("extension"),
    shop_address: Text(1000).optional().describe("extension: lines separated by \\n"),
    terms: Text(5000).optional().describe("extension: lines separated by \\n"),
    validity_days: Days.optional().describe("extension: 1 to 365"),
    delivery_days: Days.optional().describe("extension: working days, 1 to 365"),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "send at least one field" })
  .meta({ id: "QuoteSettingsPatch" });

const ProjectParams = idParams("project_id");

export const quoteRoutes = [
  defineRoute({
    method: "get",
    path: "/projects/{project_id}/quote",
    operationId: "getQuoteBreakdown",
    summary: "The cost breakdown of the project's quote, computed now",
    description:
      "Computed on the fly from the quote job, the machine and the user's quote settings (docs/quote.md); never stored.",
    tag: "Quote",
    scopes: ["quote:read"],
    params: ProjectParams,
    query: BreakdownQuery,
    responses: { 200: { description: "the breakdown", schema: Breakdown } },
    errors: [404],
    async handler({ db, params, query }) {
      return json(200, breakdownInLanguage((await projectBreakdown(db, params.project_id)).breakdown, query.language));
    },
  }),
  defineRoute({
    method: "get",
    path: "/projects/{project_id}/quote/job",
    operationId: "getQuoteJob",
    summary: "The project's quote job: its overrides",
    tag: "Quote",
    scopes: ["quote:read"],
    params: ProjectParams,
    query: NoQuery,
    responses: { 200: { description: "the quote job", schema: QuoteJob } },
    errors: [404],
    async handler({ db, params }) {
      const row = await getQuoteJob(db, params.project_id);
      if (!row) throw notFound("project", params.project_id);
      return json(200, toQuoteJob(row));
    },
  }),
  defineRoute({
    method: "patch",
    path: "/projects/{project_id}/quote/job",
    operationId: "updateQuoteJob",
    summary: "Change some fields of the quote job; fields not sent stay as they are",
    description: "setup_costs keys must be setup ids of the current CAM job's plan (400 unknown_reference otherwise).",
    tag: "Quote",
    scopes: ["quote:write"],
    params: ProjectParams,
    query: NoQuery,
    body: QuoteJobPatch,
    responses: { 200: { description: "the changed quote job", schema: QuoteJob } },
    errors: [404, 413, 415],
    async handler({ db, params, body }) {
      const current = await getQuoteJob(db, params.project_id, true);
      if (!current) throw notFound("project", params.project_id);
      const { additional_costs, setup_costs, cost_model, ...scalars } = body;
      const fields: QuoteJobFields = { ...scalars };
      if (cost_model) fields.cost_model = mergeCostModelLayer(current.cost_model, cost_model as CostModelLayer);
      if (setup_costs) {
        const context = await getQuoteProjectContext(db, params.project_id);
        const ids = new Set((context?.plan_summary?.setups ?? []).map((s) => s.id));
        const unknown: FieldIssue[] = Object.entries(setup_costs)
          .filter(([id, entry]) => entry !== null && !ids.has(id))
          .map(([id]) => ({
            field: `body.setup_costs.${id}`,
            code: "unknown_reference",
            message:
              ids.size === 0 ? "the current CAM job has no plan, so no setups" : "not a setup of the current CAM job",
          }));
        if (unknown.length > 0) throw invalidParameter(unknown);
        fields.setup_costs = merge(current.setup_costs, setup_costs);
      }
      if (additional_costs) fields.additional_costs = merge(current.additional_costs, additional_costs);
      const row = await updateQuoteJob(db, params.project_id, fields);
      if (!row) throw notFound("project", params.project_id);
      return json(200, toQuoteJob(row));
    },
  }),
  defineRoute({
    method: "post",
    path: "/projects/{project_id}/quote/export",
    operationId: "exportQuote",
    summary: "The breakdown as a CSV file or an Excel workbook, or the customer's quote as a PDF or workbook",
    description:
      'document=costing (the default): the breakdown. csv: UTF-8 with a byte order mark; en: "," between fields and a decimal point; de: ";" and a decimal comma. ' +
      "excel: one sheet with the lines, totals and setups, amounts as numbers in a euro format. Filename quote_<project_id>_<language>.csv|xlsx. " +
      "Extension: document=customer, the quote a shop sends (format=pdf or excel): the shop's name, address and terms, a quote number " +
      "(given by the first customer's document of the project, then kept; also in X-Quote-Number), date, valid until, customer, part with " +
      "a picture, material, size, the net unit and total price of each quantity break, priced from the current plan, and the delivery time; " +
      "no cost lines, rates, margins or ids. Filename <quote number>_<part>_<language>.pdf|xlsx. X-Quote-Warnings lists the breakdown's " +
      "warning codes (plan_incomplete, ...), which the document does not show. 404 job_missing without a CAM job, 409 no_toolpaths before planning.",
    tag: "Quote",
    scopes: ["quote:export"],
    params: ProjectParams,
    query: ExportQuery,
    responses: {
      200: {
        description: "the file",
        contentType: `${EXPORT_CONTENT_TYPES.csv}, ${EXPORT_CONTENT_TYPES.excel}, ${CUSTOMER_CONTENT_TYPES.pdf}`,
        headers: {
          "Content-Disposition":
            'attachment; filename="quote_<project_id>_<language>.csv" (or .xlsx); customer: "<quote number>_<part>_<language>.pdf" (or .xlsx)',
          "X-Quote-Number": "document=customer: the quote's number",
          "X-Quote-Warnings": "document=customer: the breakdown's warning codes, comma-separated; empty when none",
        },
      },
    },
    errors: [404, 409],
    async handler({ db, params, query }) {
      const formats: readonly string[] = DOCUMENT_FORMATS[query.document];
      if (!formats.includes(query.format))
        throw invalidParameter([
          {
            field: "query.format",
            code: "not_offered",
            message: `document=${query.document} comes as ${formats.join(" or ")}, not ${query.format}`,
          },
        ]);
      if (query.document === "customer") {
        const file = await customerDocumentFile(db, params.project_id, {
          format: query.format === "pdf" ? "pdf" : "excel",
          language: query.language,
        });
        return bytes(200, file.bytes, file.contentType, {
          "Content-Disposition": `attachment; filename="${file.filename}"`,
          "X-Quote-Number": file.quoteNumber,
          "X-Quote-Warnings": file.warnings.join(","),
          "Cache-Control": "no-store",
        });
      }
      const { breakdown, project, completeness } = await projectBreakdown(db, params.project_id);
      const header = {
        project_name: project.name,
        customer: project.customer,
        project_id: project.id,
        date: new Date().toISOString().slice(0, 10),
        completeness,
      };
      const format = query.format === "csv" ? "csv" : "excel";
      const body =
        format === "csv"
          ? quoteCsv(breakdown, header, query.language)
          : await quoteWorkbook(breakdown, header, query.language);
      return bytes(200, body, EXPORT_CONTENT_TYPES[format], {
        "Content-Disposition": `attachment; filename="${exportFilename(project.id, format, query.language)}"`,
      });
    },
  }),
  defineRoute({
    method: "get",
    path: "/quote/settings",
    operationId: "getQuoteSettings",
    summary: "The user's quote settings: the deepest layer of the quote defaults",
    tag: "Quote",
    scopes: ["quote:read"],
    query: NoQuery,
    responses: { 200: { description: "the settings", schema: QuoteSettings } },
    async handler({ db }) {
      return json(200, toSettings(await getQuoteSettings(db)));
    },
  }),
  defineRoute({
    method: "patch",
    path: "/quote/settings",
    operationId: "updateQuoteSettings",
    summary: "Change some quote settings; new quote jobs take overhead, tax, discount, profit and surcharge from them",
    tag: "Quote",
    scopes: ["quote:write"],
    query: NoQuery,
    body: QuoteSettingsPatch,
    responses: { 200: { description: "the changed settings", schema: QuoteSettings } },
    errors: [413, 415],
    async handler({ db, body }) {
      const { cost_model, ...scalars } = body;
      const fields: QuoteSettingsFields = { ...scalars };
      if (cost_model) {
        const current = await getQuoteSettings(db, true);
        fields.cost_model = mergeCostModelLayer(current.cost_model, cost_model as CostModelLayer);
      }
      return json(200, toSettings(await updateQuoteSettings(db, fields)));
    },
  }),
  defineRoute({
    method: "post",
    path: "/quote/mhr/calculate",
    operationId: "calculateMhr",
    summary: "Preview a machine hour rate from its inputs (VDI 3258); stores nothing",
    description:
      "cost_per_square_meter and energy_cost default to the quote settings' default_cost_per_m2 and default_energy_cost.",
    tag: "Quote",
    scopes: ["quote:read"],
    query: NoQuery,
    body: MhrInputsSchema,
    responses: { 200: { description: "the rate", schema: MhrResult } },
    errors: [413, 415],
    async handler({ db, body }) {
      const settings = await getQuoteSettings(db);
      const inputs = resolveMhrInputs(body, {
        cost_per_square_meter: settings.default_cost_per_m2,
        energy_cost: settings.default_energy_cost,
      });
      return json(200, mhrCalculation(inputs));
    },
  }),
];

/** a JSON-merge of one level: a value sent replaces the key's, null removes the key */
function merge<T>(current: Readonly<Record<string, T>>, patch: Readonly<Record<string, T | null>>): Record<string, T> {
  const next: Record<string, T> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}
