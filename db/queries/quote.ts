/**
 * Quote jobs, quote settings and what a breakdown reads, within a request transaction: RLS
 * limits every statement to the caller's rows (a quote job only while its project is live).
 * numeric columns arrive as float8: every value was a JSON number when it was stored.
 */
import type { PlanSummary } from "../../kernel/job/plan.ts";
import type { BoundingBoxStock } from "../../kernel/job/stock.ts";
import type { AdditionalCostGroup } from "../../kernel/quote/breakdown.ts";
import type { CostModelLayer } from "../../kernel/quote/cost-model.ts";
import type { SetupCostEntry } from "../../kernel/quote/layers.ts";
import type { DroppedSetupCost } from "../../kernel/quote/setup-cost-carry.ts";
import type { Queryable } from "../request-transaction.ts";

export interface QuoteJobRow {
  project_id: string;
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
  setup_costs: Record<string, SetupCostEntry>;
  /** the overrides the last planning dropped, with the job it saved (setup-cost-carry.ts) */
  setup_costs_dropped: StoredDroppedSetupCost[];
  /** the cost model values this quote job sets (cost-model.ts) */
  cost_model: CostModelLayer;
  customer_name: string;
  customer_address: string;
  /** null: the workpiece's file name */
  part_name: string | null;
  /** increasing positive integers; empty: the quantity alone */
  quantity_breaks: number[];
  /** YYYY-MM-DD; null: the document's date + the settings' validity_days */
  valid_until: string | null;
  /** null: the settings' */
  delivery_days: number | null;
  /** given by the first customer document, then kept (takeQuoteNumber) */
  quote_number: string | null;
  quote_number_at: Date | null;
  updated_at: Date;
}

export interface StoredDroppedSetupCost extends DroppedSetupCost {
  job_id: string;
}

const QUOTE_JOB_COLUMNS = `project_id, quantity::float8 as quantity, mhr_override::float8 as mhr_override,
  overhead_percentage::float8 as overhead_percentage, tax::float8 as tax, discount::float8 as discount,
  profit::float8 as profit, material_is_fixed_price, material_fixed_price::float8 as material_fixed_price,
  material_surcharge_percentage::float8 as material_surcharge_percentage, additional_costs, setup_costs, setup_costs_dropped, cost_model,
  customer_name, customer_address, part_name, quantity_breaks, to_char(valid_until, 'YYYY-MM-DD') as valid_until, delivery_days, quote_number, quote_number_at, updated_at`;

/** the scalar columns a PATCH may set (the two maps are merged by the caller and set whole) */
export const QUOTE_JOB_FIELDS = [
  "quantity",
  "mhr_override",
  "overhead_percentage",
  "tax",
  "discount",
  "profit",
  "material_is_fixed_price",
  "material_fixed_price",
  "material_surcharge_percentage",
  "additional_costs",
  "setup_costs",
  "cost_model",
  "customer_name",
  "customer_address",
  "part_name",
  "quantity_breaks",
  "valid_until",
  "delivery_days",
] as const;
export type QuoteJobFields = Partial<Pick<QuoteJobRow, (typeof QUOTE_JOB_FIELDS)[number]>>;

/** forUpdate: lock the row (a PATCH merges the maps read here) */
export async function getQuoteJob(db: Queryable, projectId: string, forUpdate = false): Promise<QuoteJobRow | null> {
  const { rows } = await db.query<QuoteJobRow>(
    `select ${QUOTE_JOB_COLUMNS} from app_public.quote_jobs where project_id = $1${forUpdate ? " for update" : ""}`,
    [projectId],
  );
  return rows[0] ?? null;
}

export async function updateQuoteJob(
  db: Queryable,
  projectId: string,
  fields: QuoteJobFields,
): Promise<QuoteJobRow | null> {
  const names = QUOTE_JOB_FIELDS.filter((f) => fields[f] !== undefined);
  const values = names.map((f) => {
    const v = fields[f];
    return f === "additional_costs" || f === "setup_costs" || f === "cost_model" ? JSON.stringify(v) : v;
  });
  const sets = names.map((f, i) => `${f} = $${i + 2}`);
  const { rows } = await db.query<QuoteJobRow>(
    `update app_public.quote_jobs set ${[...sets, "updated_at = now()"].join(", ")} where project_id = $1 returning ${QUOTE_JOB_COLUMNS}`,
    [projectId, ...values],
  );
  return rows[0] ?? null;
}

export interface QuoteSettingsRow {
  overhead_percentage: number;
  tax: number;
  discount: number;
  profit: number;
  default_cost_per_m2: number;
  default_energy_cost: number;
  default_mhr: number | null;
  material_surcharge_percentage: number;
  /** the cost model values the user set (cost-model.ts); the rest are the defaults */
  cost_model: CostModelLayer;
  shop_name: string;
  shop_address: string;
  terms: string;
  validity_days: number;
  delivery_days: number;
  updated_at: Date;
}

export const QUOTE_SETTINGS_FIELDS = [
  "overhead_percentage",
  "tax",
  "discount",
  "profit",
  "default_cost_per_m2",
  "default_energy_cost",
  "default_mhr",
  "material_surcharge_percentage",
  "cost_model",
  "shop_name",
  "shop_address",
  "terms",
  "validity_days",
  "delivery_days",
] as const;
export type QuoteSettingsFields = Partial<Pick<QuoteSettingsRow, (typeof QUOTE_SETTINGS_FIELDS)[number]>>;

const SETTINGS_COLUMNS = `overhead_percentage::float8 as overhead_percentage, tax::float8 as tax, discount::float8 as discount,
  profit::float8 as profit, default_cost_per_m2::float8 as default_cost_per_m2, default_energy_cost::float8 as default_energy_cost,
  default_mhr::float8 as default_mhr, material_surcharge_percentage::float8 as material_surcharge_percentage, cost_model,
  shop_name, shop_address, terms, validity_days, delivery_days, updated_at`;

/** forUpdate: lock the row (a PATCH merges the cost model read here) */
export async function getQuoteSettings(db: Queryable, forUpdate = false): Promise<QuoteSettingsRow> {
  const { rows } = await db.query<QuoteSettingsRow>(
    `select ${SETTINGS_COLUMNS} from app_public.quote_settings${forUpdate ? " for update" : ""}`,
  );
  if (!rows[0]) throw new Error("the user has no quote settings");
  return rows[0];
}

export async function updateQuoteSettings(db: Queryable, fields: QuoteSettingsFields): Promise<QuoteSettingsRow> {
  const names = QUOTE_SETTINGS_FIELDS.filter((f) => fields[f] !== undefined);
  const sets = names.map((f, i) => `${f} = $${i + 1}`);
  const { rows } = await db.query<QuoteSettingsRow>(
    `update app_public.quote_settings set ${[...sets, "updated_at = now()"].join(", ")} returning ${SETTINGS_COLUMNS}`,
    names.map((f) => (f === "cost_model" ? JSON.stringify(fields[f]) : fields[f])),
  );
  if (!rows[0]) throw new Error("the user has no quote settings");
  return rows[0];
}

/**
 * The quote job's number: the one it has, or the user's next (Q-<year>-<number>, the number
 * four digits or more), kept from then on. The quote job's row lock makes two exports of one
 * project agree on one number; the settings row's lock (the update) makes exports of two
 * projects at once take two numbers. The year is the year it was given.
 */
export async function takeQuoteNumber(
  db: Queryable,
  projectId: string,
  now: Date,
): Promise<{ quote_number: string; quote_number_at: Date } | null> {
  const { rows } = await db.query<{ quote_number: string | null; quote_number_at: Date | null }>(
    "select quote_number, quote_number_at from app_public.quote_jobs where project_id = $1 for update",
    [projectId],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.quote_number !== null && row.quote_number_at !== null)
    return { quote_number: row.quote_number, quote_number_at: row.quote_number_at };
  const taken = await db.query<{ n: number }>(
    "update app_public.quote_settings set quote_number_last = quote_number_last + 1 returning quote_number_last as n",
  );
  const n = taken.rows[0]?.n;
  if (n === undefined) throw new Error("the user has no quote settings");
  const number = `Q-${now.getUTCFullYear()}-${String(n).padStart(4, "0")}`;
  await db.query("update app_public.quote_jobs set quote_number = $2, quote_number_at = $3 where project_id = $1", [
    projectId,
    number,
    now,
  ]);
  return { quote_number: number, quote_number_at: now };
}

/** What a breakdown reads besides the quote job and the layers: the project's machine, material and current job. */
export interface QuoteProjectContext {
  project_id: string;
  product_id: string;
  current_job_id: string | null;
  stock: BoundingBoxStock | null;
  plan_summary: PlanSummary | null;
  material: { id: string; name: string; density_kg_m3: number; price_per_kg: number } | null;
}

export async function getQuoteProjectContext(db: Queryable, projectId: string): Promise<QuoteProjectContext | null> {
  const { rows } = await db.query<QuoteProjectContext>(
    `select p.id as project_id, p.product_id, p.current_job_id, j.stock, j.plan_summary,
            case when m.id is null then null else jsonb_build_object('id', m.id, 'name', m.name,
              'density_kg_m3', m.density_kg_m3::float8, 'price_per_kg', m.price_per_kg::float8) end as material
       from app_public.projects p
       left join app_public.jobs j on j.id = p.current_job_id
       left join app_public.materials m on m.id = p.material_id
      where p.id = $1`,
    [projectId],
  );
  return rows[0] ?? null;
}
