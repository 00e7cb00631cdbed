/**
 * How a worker moves a task record (states: sql/migrations, app_public.tasks). Every write
 * after the start names the attempt it belongs to, so a worker that was declared dead and
 * finishes late cannot overwrite the attempt that replaced it.
 */
import type { Queryable } from "../request-transaction.ts";

export interface StartedAttempt {
  attempt: number;
  payload: Record<string, unknown>;
  projectId: string | null;
  userId: string;
  taskName: string;
}

/**
 * queued|running -> running, attempts + 1; null when the task is terminal already. A task whose
 * cancel was requested (while running, before its worker died) is cancelled instead of run.
 */
export async function startAttempt(db: Queryable, taskId: string, poolId: string): Promise<StartedAttempt | null> {
  await db.query(
    `update app_public.tasks
        set status = 'cancelled', locked_by = null, error = null, finished_at = now(), updated_at = now()
      where id = $1 and status in ('queued', 'running') and cancel_requested_at is not null`,
    [taskId],
  );
  const { rows } = await db.query<{
    attempts: number;
    payload: Record<string, unknown>;
    project_id: string | null;
    user_id: string;
    task_name: string;
  }>(
    `update app_public.tasks
        set status = 'running', attempts = attempts + 1, locked_by = $2,
            started_at = coalesce(started_at, now()), heartbeat_at = now(), updated_at = now()
      where id = $1 and status in ('queued', 'running')
      returning attempts, payload, project_id, user_id, task_name`,
    [taskId, poolId],
  );
  const row = rows[0];
  return row
    ? {
        attempt: row.attempts,
        payload: row.payload,
        projectId: row.project_id,
        userId: row.user_id,
        taskName: row.task_name,
      }
    : null;
}

/** Returns false when the attempt is no longer current (superseded or finished). */
export async function reportProgress(
  db: Queryable,
  taskId: string,
  attempt: number,
  progress: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update app_public.tasks set progress = greatest(progress, $3), heartbeat_at = now(), updated_at = now()
      where id = $1 and attempts = $2 and status = 'running'`,
    [taskId, attempt, progress],
  );
  return rowCount === 1;
}

export async function succeedAttempt(
  db: Queryable,
  taskId: string,
  attempt: number,
  result: unknown,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update app_public.tasks
        set status = 'success', progress = 1, result = $3, error = null, locked_by = null,
            finished_at = now(), updated_at = now()
      where id = $1 and attempts = $2 and status = 'running'`,
    [taskId, attempt, JSON.stringify(result ?? null)],
  );
  return rowCount === 1;
}

export async function failAttempt(
  db: Queryable,
  taskId: string,
  attempt: number,
  error: { code: string; message: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update app_public.tasks
        set status = 'failed', error = $3, locked_by = null, finished_at = now(), updated_at = now()
      where id = $1 and attempts = $2 and status = 'running'`,
    [taskId, attempt, JSON.stringify(error)],
  );
  return rowCount === 1;
}

/** running -> cancelled: the attempt honoured a cancel request; its partial work is discarded. */
export async function cancelAttempt(db: Queryable, taskId: string, attempt: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `update app_public.tasks
        set status = 'cancelled', error = null, locked_by = null, finished_at = now(), updated_at = now()
      where id = $1 and attempts = $2 and status = 'running'`,
    [taskId, attempt],
  );
  return rowCount === 1;
}

/** Whether someone asked to cancel the task (POST /tasks/{task_id}/cancel). */
export async function cancelRequested(db: Queryable, taskId: string): Promise<boolean> {
  const { rows } = await db.query<{ requested: boolean }>({
    name: "task_cancel_requested",
    text: "select cancel_requested_at is not null as requested from app_public.tasks where id = $1",
    values: [taskId],
  });
  return rows[0]?.requested === true;
}

export interface LockedAttempt {
  status: string;
  attempts: number;
  cancelled: boolean;
}

/** The task row locked until the transaction ends, so that a save and its success commit before any cancel. */
export async function lockTaskRow(db: Queryable, taskId: string): Promise<LockedAttempt | null> {
  const { rows } = await db.query<LockedAttempt>(
    "select status, attempts, cancel_requested_at is not null as cancelled from app_public.tasks where id = $1 for update",
    [taskId],
  );
  return rows[0] ?? null;
}

/** running -> queued: graphile-worker will run the job again after its backoff. */
export async function requeueAttempt(
  db: Queryable,
  taskId: string,
  attempt: number,
  error: { code: string; message: string },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update app_public.tasks set status = 'queued', error = $3, locked_by = null, updated_at = now()
      where id = $1 and attempts = $2 and status = 'running'`,
    [taskId, attempt, JSON.stringify(error)],
  );
  return rowCount === 1;
}

/**
 * Tasks left queued or running with no job behind them that can still run fail as lost: the
 * job was deleted by hand, say, or it is unlocked with no attempts left (its worker died in
 * the last attempt and recover_dead_workers unlocked it, or the wrapper itself threw).
 */
export async function failLostTasks(db: Queryable, graceSeconds: number): Promise<number> {
  const { rowCount } = await db.query(
    `update app_public.tasks t
        set status = 'failed', locked_by = null, finished_at = now(), updated_at = now(),
            error = jsonb_build_object('code', 'task_lost', 'message', 'the task''s queue job disappeared or has no attempts left; start it again')
      where t.status in ('queued', 'running') and t.updated_at < now() - make_interval(secs => $1)
        and not exists (select 1 from graphile_worker.jobs j where j.key = t.id::text
                          and (j.locked_at is not null or j.attempts < j.max_attempts))`,
    [graceSeconds],
  );
  return rowCount ?? 0;
}
