/**
 * What must hold after every fault, read from the database as the owner:
 *
 *   no task lost       every task record is terminal, or queued/running with a queue job that
 *                      will still run it (unlocked with attempts left, or locked by a live worker)
 *   none stuck         no task running without a live worker, and no queue job or named queue
 *                      locked by a worker whose lease is not live (recovery has run)
 *   no duplicate job   a planning task that succeeded saved exactly one plan job, the one its
 *                      result names; a project has no plan job that no task saved
 *   no orphaned blob   every row of app_private.blobs is held by a workpiece or a job's plan
 *                      (app_private.blob_in_use, the rule the purge and delete_blob follow)
 *   webhooks           at most one task.started event (and delivery per endpoint) per task
 *
 * A worker is live when its lease was renewed within the stale interval.
 */
import assert from "node:assert/strict";
import type pg from "pg";
import type { ReceivedWebhook } from "../support/webhook-receiver.ts";

const TERMINAL = ["success", "failed", "cancelled"];

export interface InvariantOptions {
  staleSeconds: number;
}

export async function assertInvariants(owner: pg.Pool, options: InvariantOptions): Promise<void> {
  const live = `exists (select 1 from app_private.worker_leases l
                          where l.pool_id = %s and l.heartbeat_at > now() - make_interval(secs => $1))`;

  const lost = await owner.query<{ id: string; status: string; job: unknown }>(
    `select t.id, t.status, to_jsonb(j) as job from app_public.tasks t
       left join graphile_worker.jobs j on j.key = t.id::text
      where t.status not in ('success', 'failed', 'cancelled')
        and not (j.id is not null and ((j.locked_by is null and j.attempts < j.max_attempts)
                                       or (j.locked_by is not null and ${live.replace("%s", "j.locked_by")})))`,
    [options.staleSeconds],
  );
  assert.deepEqual(lost.rows, [], "lost tasks: not terminal, and no queue job will run them");

  const stranded = await owner.query<{ id: string; locked_by: string | null }>(
    `select t.id, t.locked_by from app_public.tasks t
      where t.status = 'running' and (t.locked_by is null or not ${live.replace("%s", "t.locked_by")})`,
    [options.staleSeconds],
  );
  assert.deepEqual(stranded.rows, [], "tasks running without a live worker");

  const deadLocks = await owner.query<{ id: string; task_identifier: string; locked_by: string }>(
    `select j.id, j.task_identifier, j.locked_by from graphile_worker.jobs j
      where j.locked_by is not null and not ${live.replace("%s", "j.locked_by")}`,
    [options.staleSeconds],
  );
  assert.deepEqual(deadLocks.rows, [], "queue jobs locked by a dead worker");
  const deadQueues = await owner.query<{ queue_name: string; locked_by: string }>(
    `select q.queue_name, q.locked_by from graphile_worker._private_job_queues q
      where q.locked_by is not null and not ${live.replace("%s", "q.locked_by")}`,
    [options.staleSeconds],
  );
  assert.deepEqual(deadQueues.rows, [], "named queues locked by a dead worker");

  const plans = await owner.query<{ task_id: string; job_id: string | null; saved: boolean }>(
    `select t.id as task_id, t.result->>'job_id' as job_id,
            exists (select 1 from app_public.jobs j where j.id::text = t.result->>'job_id' and j.source = 'plan') as saved
       from app_public.tasks t
      where t.worker_task = 'plan_cam' and t.status = 'success'`,
  );
  for (const plan of plans.rows)
    assert.ok(plan.saved, `planning task ${plan.task_id} names plan job ${plan.job_id}, which does not exist`);
  const perProject = await owner.query<{ project_id: string; plan_jobs: number; planned: number }>(
    `select p.id as project_id,
            (select count(*) from app_public.jobs j where j.project_id = p.id and j.source = 'plan')::int as plan_jobs,
            (select count(*) from app_public.tasks t where t.project_id = p.id and t.worker_task = 'plan_cam' and t.status = 'success')::int as planned
       from app_public.projects p`,
  );
  for (const project of perProject.rows) {
    assert.equal(
      project.plan_jobs,
      project.planned,
      `project ${project.project_id}: ${project.plan_jobs} plan jobs for ${project.planned} successful plannings`,
    );
  }

  const orphans = await owner.query<{ id: string; content_type: string }>(
    "select b.id, b.content_type from app_private.blobs b where not app_private.blob_in_use(b.id)",
  );
  assert.deepEqual(orphans.rows, [], "blobs nothing holds");

  const started = await owner.query<{ task_id: string; events: number }>(
    `select task_id, count(*)::int as events from app_private.webhook_events where type = 'task.started'
      group by task_id having count(*) > 1`,
  );
  assert.deepEqual(started.rows, [], "task.started more than once");
  const startedDeliveries = await owner.query<{ task_id: string; endpoint_id: string; deliveries: number }>(
    `select task_id, endpoint_id, count(*)::int as deliveries from app_public.webhook_deliveries where event_type = 'task.started'
      group by task_id, endpoint_id having count(*) > 1`,
  );
  assert.deepEqual(startedDeliveries.rows, [], "task.started delivered more than once to an endpoint");
}

/** Every task of `ids` is terminal; returns them. */
export async function terminalTasks(
  owner: pg.Pool,
  ids: readonly string[],
): Promise<Map<string, { status: string; attempts: number; error: unknown }>> {
  const { rows } = await owner.query<{ id: string; status: string; attempts: number; error: unknown }>(
    "select id, status, attempts, error from app_public.tasks where id = any($1::uuid[])",
    [ids],
  );
  return new Map(rows.filter((row) => TERMINAL.includes(row.status)).map((row) => [row.id, row]));
}

/**
 * What a receiver got is what the spec allows: one delivery id for a task's task.started (its
 * retries arrive with the same id), and a delivery id always with the same body.
 */
export function assertReceivedOnce(received: readonly ReceivedWebhook[]): {
  deliveries: number;
  requests: number;
  retried: number;
} {
  const bodies = new Map<string, string>();
  const startedIds = new Map<string, Set<string>>();
  let retried = 0;
  for (const request of received) {
    const id = String(request.headers["x-service-delivery-id"]);
    assert.equal(request.body.id, id, "the body's id is the delivery id");
    const seen = bodies.get(id);
    if (seen !== undefined) {
      retried += 1;
      assert.equal(request.raw, seen, `delivery ${id} came again with another body`);
    }
    bodies.set(id, request.raw);
    if (request.body.type === "task.started") {
      const taskId = String(request.body.data.task_id);
      const ids = startedIds.get(taskId) ?? new Set<string>();
      ids.add(id);
      startedIds.set(taskId, ids);
    }
  }
  for (const [taskId, ids] of startedIds)
    assert.equal(ids.size, 1, `task ${taskId}: task.started under ${ids.size} delivery ids`);
  return { deliveries: bodies.size, requests: received.length, retried };
}
