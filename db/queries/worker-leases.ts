/** Worker leases (sql: app_private.worker_leases, app_private.recover_dead_workers). */
import type { Queryable } from "../request-transaction.ts";

export async function renewLease(
  db: Queryable,
  lease: { poolId: string; hostname: string; pid: number; taskNames: readonly string[] },
): Promise<void> {
  await db.query(
    `insert into app_private.worker_leases (pool_id, hostname, pid, task_names)
     values ($1, $2, $3, $4)
     on conflict (pool_id) do update set heartbeat_at = now()`,
    [lease.poolId, lease.hostname, lease.pid, lease.taskNames],
  );
}

export async function dropLease(db: Queryable, poolId: string): Promise<void> {
  await db.query("delete from app_private.worker_leases where pool_id = $1", [poolId]);
}

export interface RecoveredPool {
  pool_id: string;
  tasks_requeued: number;
}

export async function recoverDeadWorkers(db: Queryable, staleSeconds: number): Promise<RecoveredPool[]> {
  const { rows } = await db.query<RecoveredPool>(
    "select pool_id, tasks_requeued from app_private.recover_dead_workers(make_interval(secs => $1))",
    [staleSeconds],
  );
  return rows;
}
