/**
 * The machine layer of the quote defaults, per user and machine (product_id): its MHR and
 * name, the ordered setup-cost template, and the MHR record (VDI 3258 inputs and the rate
 * they gave). A machine not assigned to the caller is 404.
 */
import { z } from "zod";
import {
  appendMachineSetupCost,
  deleteMachineSetupCost,
  deleteMhrRecord,
  getMachineQuote,
  upsertMachineQuote,
  type MachineQuoteRow,
} from "../../db/queries/quote-machines.ts";
import { getQuoteSettings } from "../../db/queries/quote.ts";
import type { Queryable } from "../../db/request-transaction.ts";
import {
  CostModelLayerSchema,
  CostModelPatchSchema,
  layerValues,
  mergeCostModelLayer,
  type CostModelLayer,
} from "../../kernel/quote/cost-model.ts";
import { resolveMhr } from "../../kernel/quote/layers.ts";
import { MhrInputsSchema, resolveMhrInputs } from "../../kernel/quote/mhr.ts";
import { notFound } from "../../http/errors/index.ts";
import { json, noContent } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { NoQuery } from "../schemas/common.ts";
import { mhrCalculation, MhrResult, MhrSourceSchema, Money, ProductIdParam } from "./shared/quote.ts";

const MachineParams = z.strictObject({ product_id: ProductIdParam });
const SetupCostParams = z.strictObject({
  product_id: ProductIdParam,
  cost_index: z
    .string()
    .regex(/^\d{1,6}$/, "a zero-based index")
    .transform(Number)
    .describe("zero-based index in the setup-cost list"),
});

const MhrRecord = z
  .object({
    product_id: z.string(),
    calculated_mhr: z.number(),
    inputs: MhrResult.shape.inputs,
  })
  .meta({ id: "MhrRecord" });

const MachineQuote = z
  .object({
    product_id: z.string(),
    name: z.string().describe("the user's name for the machine in quotes; the catalogue's until set"),
    mhr_value: z
      .number()
      .nullable()
      .describe("EUR/h, the machine layer's MHR; null: none (falls through to the settings)"),
    mhr_value_source: z.enum(["manual", "calculated"]).nullable().describe("set by PATCH, or by POST .../mhr"),
    default_mhr: z.number().describe("the catalogue's rate, below every layer"),
    effective_mhr: z
      .object({ value: z.number(), source: MhrSourceSchema })
      .describe("what a quote job without an override takes"),
    setup_costs: z
      .array(z.object({ index: z.number().int(), name: z.string(), value: z.number(), unit: z.string() }))
      .describe(
        "the setup-cost template: setup i of a plan takes entry i, setups past the end the last; a unit per hour (EUR/h) makes it an hourly rate",
      ),
    mhr: MhrRecord.omit({ product_id: true }).nullable().describe("the MHR record, when one was stored"),
    cost_model: CostModelLayerSchema.describe(
      "an extension: the cost model values set for this machine; the rest fall through to the quote settings (docs/quote.md, Cost model)",
    ),
  })
  .meta({ id: "MachineQuote" });

const MachineQuotePatch = z
  .strictObject({
    mhr_value: Money.nullable().optional().describe("EUR/h; null clears it"),
    name: z.string().trim().min(1).max(200).nullable().optional().describe("null: the catalogue's name"),
    cost_model: CostModelPatchSchema.optional().describe(
      "an extension: merged by key; a value sets it for this machine, null falls through to the settings again",
    ),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "send at least one field" })
  .meta({ id: "MachineQuotePatch" });

const SetupCostCreate = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    value: Money,
    unit: z
      .string()
      .trim()
      .max(40)
      .default("EUR")
      .describe("EUR: a one-time price per order; EUR/h: an hourly rate for the setup's time"),
  })
  .meta({ id: "MachineSetupCostCreate" });

async function machineQuote(db: Queryable, productId: string): Promise<z.input<typeof MachineQuote>> {
  const row = await getMachineQuote(db, productId);
  if (!row) throw notFound("machine", productId);
  const settings = await getQuoteSettings(db);
  return toMachineQuote(row, settings.default_mhr);
}

function toMachineQuote(row: MachineQuoteRow, settingsMhr: number | null): z.input<typeof MachineQuote> {
  return {
    product_id: row.product_id,
    name: row.name ?? row.catalogue_name,
    mhr_value: row.mhr_value,
    mhr_value_source: row.mhr_source,
    default_mhr: row.default_mhr,
    effective_mhr: resolveMhr({
      quoteJob: null,
      machine: row.mhr_value,
      settings: settingsMhr,
      catalogue: row.default_mhr,
    }),
    setup_costs: row.setup_costs.map((c, index) => ({ index, ...c })),
    mhr:
      row.mhr_inputs && row.calculated_mhr !== null
        ? { calculated_mhr: row.calculated_mhr, inputs: row.mhr_inputs }
        : null,
    cost_model: layerValues(row.cost_model),
  };
}

async function requireMachine(db: Queryable, productId: string): Promise<MachineQuoteRow> {
  const row = await getMachineQuote(db, productId);
  if (!row) throw notFound("machine", productId);
  return row;
}

export const quoteMachineRoutes = [
  defineRoute({
    method: "get",
    path: "/libraries/machines/{product_id}/quote",
    operationId: "getMachineQuote",
    summary: "The machine's quote configuration: MHR, name, setup-cost template (with indexes), MHR record",
    tag: "Quote",
    scopes: ["quote:read"],
    params: MachineParams,
    query: NoQuery,
    responses: { 200: { description: "the configuration", schema: MachineQuote } },
    errors: [404],
    async handler({ db, params }) {
      return json(200, await machineQuote(db, params.product_id));
    },
  }),
  defineRoute({
    method: "patch",
    path: "/libraries/machines/{product_id}/quote",
    operationId: "updateMachineQuote",
    summary: "Set the machine's MHR directly, its name and/or its cost model values",
    tag: "Quote",
    scopes: ["quote:write"],
    params: MachineParams,
    query: NoQuery,
    body: MachineQuotePatch,
    responses: { 200: { description: "the configuration", schema: MachineQuote } },
    errors: [404, 413, 415],
    async handler({ db, params, body }) {
      const current = await requireMachine(db, params.product_id);
      await upsertMachineQuote(db, params.product_id, {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.cost_model
          ? { cost_model: mergeCostModelLayer(current.cost_model, body.cost_model as CostModelLayer) }
          : {}),
        ...(body.mhr_value !== undefined
          ? { mhr_value: body.mhr_value, mhr_source: body.mhr_value === null ? null : "manual" }
          : {}),
      });
      return json(200, await machineQuote(db, params.product_id));
    },
  }),
  defineRoute({
    method: "post",
    path: "/libraries/machines/{product_id}/quote/setup-costs",
    operationId: "addMachineSetupCost",
    summary: "Append a default setup cost to the machine's template",
    tag: "Quote",
    scopes: ["quote:write"],
    params: MachineParams,
    query: NoQuery,
    body: SetupCostCreate,
    responses: { 201: { description: "the configuration, the new entry last", schema: MachineQuote } },
    errors: [404, 413, 415],
    async handler({ db, params, body }) {
      await requireMachine(db, params.product_id);
      await appendMachineSetupCost(db, params.product_id, body);
      return json(201, await machineQuote(db, params.product_id));
    },
  }),
  defineRoute({
    method: "delete",
    path: "/libraries/machines/{product_id}/quote/setup-costs/{cost_index}",
    operationId: "deleteMachineSetupCost",
    summary: "Remove the template entry at a zero-based index; later entries move up",
    tag: "Quote",
    scopes: ["quote:write"],
    params: SetupCostParams,
    query: NoQuery,
    responses: { 200: { description: "the configuration", schema: MachineQuote } },
    errors: [404],
    async handler({ db, params }) {
      await requireMachine(db, params.product_id);
      if (!(await deleteMachineSetupCost(db, params.product_id, params.cost_index))) {
        throw notFound("setup cost", String(params.cost_index));
      }
      return json(200, await machineQuote(db, params.product_id));
    },
  }),
  defineRoute({
    method: "get",
    path: "/libraries/machines/{product_id}/mhr",
    operationId: "getMachineMhr",
    summary: "The machine's MHR record: calculated_mhr and the inputs",
    tag: "Quote",
    scopes: ["quote:read"],
    params: MachineParams,
    query: NoQuery,
    responses: { 200: { description: "the record", schema: MhrRecord } },
    errors: [404],
    async handler({ db, params }) {
      const row = await requireMachine(db, params.product_id);
      if (!row.mhr_inputs || row.calculated_mhr === null) throw notFound("MHR of machine", params.product_id);
      return json(200, { product_id: row.product_id, calculated_mhr: row.calculated_mhr, inputs: row.mhr_inputs });
    },
  }),
  defineRoute({
    method: "post",
    path: "/libraries/machines/{product_id}/mhr",
    operationId: "setMachineMhr",
    summary: "Calculate and store the machine's MHR from its inputs; it becomes the machine's mhr_value",
    tag: "Quote",
    scopes: ["quote:write"],
    params: MachineParams,
    query: NoQuery,
    body: MhrInputsSchema,
    responses: { 200: { description: "the stored record", schema: MhrRecord } },
    errors: [404, 413, 415],
    async handler({ db, params, body }) {
      await requireMachine(db, params.product_id);
      const settings = await getQuoteSettings(db);
      const inputs = resolveMhrInputs(body, {
        cost_per_square_meter: settings.default_cost_per_m2,
        energy_cost: settings.default_energy_cost,
      });
      const { calculated_mhr } = mhrCalculation(inputs);
      await upsertMachineQuote(db, params.product_id, {
        mhr_inputs: inputs,
        calculated_mhr,
        mhr_value: calculated_mhr,
        mhr_source: "calculated",
      });
      return json(200, { product_id: params.product_id, calculated_mhr, inputs });
    },
  }),
  defineRoute({
    method: "delete",
    path: "/libraries/machines/{product_id}/mhr",
    operationId: "deleteMachineMhr",
    summary: "Remove the machine's MHR record (and the mhr_value it set)",
    tag: "Quote",
    scopes: ["quote:write"],
    params: MachineParams,
    query: NoQuery,
    responses: { 204: { description: "removed" } },
    errors: [404],
    async handler({ db, params }) {
      await requireMachine(db, params.product_id);
      if (!(await deleteMhrRecord(db, params.product_id))) throw notFound("MHR of machine", params.product_id);
      return noContent();
    },
  }),
];
