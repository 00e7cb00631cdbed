/**
 * The machine layer of the quote defaults: per user and machine (app_public.machine_quote_configs),
 * over the machine catalogue. RLS shows only the caller's rows and machines assigned to them.
 */
import type { CostModelLayer } from "../../kernel/quote/cost-model.ts";
import type { MachineSetupCost } from "../../kernel/quote/layers.ts";
import type { MhrInputs } from "../../kernel/quote/mhr.ts";
import type { Queryable } from "../request-transaction.ts";

export interface MachineQuoteRow {
  product_id: string;
  catalogue_name: string;
  default_mhr: number;
  name: string | null;
  mhr_value: number | null;
  mhr_source: "manual" | "calculated" | null;
  setup_costs: MachineSetupCost[];
  mhr_inputs: MhrInputs | null;
  calculated_mhr: number | null;
  /** the cost model values set for this machine (cost-model.ts) */
  cost_model: CostModelLayer;
  updated_at: Date | null;
}

/** null: no such machine assigned to the caller */
export async function getMachineQuote(db: Queryable, productId: string): Promise<MachineQuoteRow | null> {
  const { rows } = await db.query<MachineQuoteRow>(
    `select m.product_id, m.name as catalogue_name, m.default_mhr::float8 as default_mhr, c.name,
            c.mhr_value::float8 as mhr_value, c.mhr_source, coalesce(c.setup_costs, '[]') as setup_costs,
            c.mhr_inputs, c.calculated_mhr::float8 as calculated_mhr, coalesce(c.cost_model, '{}') as cost_model, c.updated_at
       from app_public.machines m
       left join app_public.machine_quote_configs c on c.product_id = m.product_id
      where m.product_id = $1`,
    [productId],
  );
  return rows[0] ?? null;
}

export interface MachineQuoteFields {
  name?: string | null;
  mhr_value?: number | null;
  mhr_source?: "manual" | "calculated" | null;
  setup_costs?: MachineSetupCost[];
  mhr_inputs?: MhrInputs | null;
  calculated_mhr?: number | null;
  cost_model?: CostModelLayer;
}

const FIELDS = [
  "name",
  "mhr_value",
  "mhr_source",
  "setup_costs",
  "mhr_inputs",
  "calculated_mhr",
  "cost_model",
] as const;

/** Creates the caller's config row for the machine or changes the fields given. */
export async function upsertMachineQuote(db: Queryable, productId: string, fields: MachineQuoteFields): Promise<void> {
  const names = FIELDS.filter((f) => fields[f] !== undefined);
  const values = names.map((f) => {
    const v = fields[f];
    return (f === "setup_costs" || f === "mhr_inputs" || f === "cost_model") && v !== null ? JSON.stringify(v) : v;
  });
  const placeholders = names.map((_, i) => `$${i + 2}`);
  const updates = names.map((f) => `${f} = excluded.${f}`);
  await db.query(
    `insert into app_public.machine_quote_configs (product_id${names.map((f) => `, ${f}`).join("")})
     values ($1${placeholders.map((p) => `, ${p}`).join("")})
     on conflict (user_id, product_id) do update set ${[...updates, "updated_at = now()"].join(", ")}`,
    [productId, ...values],
  );
}

/** Appends a setup cost to the caller's template of the machine, atomically. */
export async function appendMachineSetupCost(db: Queryable, productId: string, cost: MachineSetupCost): Promise<void> {
  await db.query(
    `insert into app_public.machine_quote_configs (product_id, setup_costs) values ($1, jsonb_build_array($2::jsonb))
     on conflict (user_id, product_id) do update
       set setup_costs = machine_quote_configs.setup_costs || excluded.setup_costs, updated_at = now()`,
    [productId, JSON.stringify(cost)],
  );
}

/** Removes the template entry at a zero-based index; false: no entry there. */
export async function deleteMachineSetupCost(db: Queryable, productId: string, index: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `update app_public.machine_quote_configs set setup_costs = setup_costs - $2::int, updated_at = now()
      where product_id = $1 and $2::int < jsonb_array_length(setup_costs)`,
    [productId, index],
  );
  return rowCount === 1;
}

/** Removes the MHR record; an mhr_value it set goes with it. False: there was none. */
export async function deleteMhrRecord(db: Queryable, productId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `update app_public.machine_quote_configs
        set mhr_inputs = null, calculated_mhr = null,
            mhr_value = case when mhr_source = 'calculated' then null else mhr_value end,
            mhr_source = case when mhr_source = 'calculated' then null else mhr_source end,
            updated_at = now()
      where product_id = $1 and mhr_inputs is not null`,
    [productId],
  );
  return rowCount === 1;
}
