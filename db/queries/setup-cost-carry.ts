/**
 * A new plan takes the quote job's per-setup cost overrides (kernel/quote/setup-cost-carry.ts):
 * run by the planning task in the transaction that saves the plan's job, so the quote job's
 * setup_costs name the new setups from the moment the plan is current.
 */
import {
  carrySetupCosts,
  type DroppedSetupCost,
  type OverrideOrigin,
  type SetupRef,
} from "../../kernel/quote/setup-cost-carry.ts";
import type { SetupCostEntry } from "../../kernel/quote/layers.ts";
import type { Queryable } from "../request-transaction.ts";
import type { StoredDroppedSetupCost } from "./quote.ts";

/**
 * Rewrites the project's setup_costs for the plan of job `jobId` (its setups `next`) and records
 * what it dropped against that job. Each override's setup is looked up in the project's other
 * jobs' plans (the newest that has it): the job before may have no plan (a stock change).
 */
export async function carrySetupCostsToPlan(
  db: Queryable,
  options: { projectId: string; jobId: string; next: readonly SetupRef[] },
): Promise<DroppedSetupCost[]> {
  const quoteJob = await db.query<{ setup_costs: Record<string, SetupCostEntry> }>(
    "select setup_costs from app_public.quote_jobs where project_id = $1 for update",
    [options.projectId],
  );
  const overrides = quoteJob.rows[0]?.setup_costs;
  if (!overrides) return [];
  const { rows } = await db.query<{ setup_id: string; setups: SetupRef[]; age: string }>(
    `select distinct on (s ->> 'id') s ->> 'id' as setup_id, j.plan_summary -> 'setups' as setups,
            dense_rank() over (order by j.created_at desc, j.id) - 1 as age
       from app_public.jobs j
            cross join lateral jsonb_array_elements(j.plan_summary -> 'setups') s
      where j.project_id = $1 and j.id <> $2 and j.plan_summary is not null and s ->> 'id' = any($3::text[])
      order by s ->> 'id', j.created_at desc, j.id`,
    [options.projectId, options.jobId, Object.keys(overrides)],
  );
  const origins = new Map<string, OverrideOrigin>();
  for (const row of rows) {
    const setup = row.setups.find((s) => s.id === row.setup_id);
    if (setup) origins.set(row.setup_id, { setup, plan: row.setups, age: Number(row.age) });
  }
  const carried = carrySetupCosts({ overrides, origins, next: options.next });
  const stored: StoredDroppedSetupCost[] = carried.dropped.map((d) => ({ job_id: options.jobId, ...d }));
  await db.query(
    `update app_public.quote_jobs
        set setup_costs = $2, setup_costs_dropped = $3,
            updated_at = case when (setup_costs, setup_costs_dropped) is distinct from ($2::jsonb, $3::jsonb) then now() else updated_at end
      where project_id = $1`,
    [options.projectId, JSON.stringify(carried.setup_costs), JSON.stringify(stored)],
  );
  return carried.dropped;
}
