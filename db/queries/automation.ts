/**
 * Automation tasks: starting one in the project's slot and the user's queue (the API, under
 * RLS), cancelling one, and what the plan_cam task reads of a project (a worker, as the owner
 * with the user's identity set: every query here names the user itself).
 */
import type { PlanningFacts } from "../../kernel/cam/planning-preconditions.ts";
import type { BoundingBoxStock } from "../../kernel/job/stock.ts";
import type { Assembly } from "../../kernel/tools/assembly.ts";
import { postgresBlobStore } from "../../storage/postgres.ts";
import type { KeyCredential, Queryable } from "../request-transaction.ts";
import { getJob } from "./jobs.ts";
import { getTask, type TaskRow } from "./tasks.ts";
import { getWorkpiece, type WorkpieceRecord } from "./workpieces.ts";

/** The named graphile-worker queue of a user's automation tasks: one runs at a time, in order. */
export function automationQueueName(userId: string): string {
  return `automation:${userId}`;
}

/** What POST .../automation/cam-planning reads of a project: the preconditions, and what a workholding override must hold. */
export interface PlanningRequestFacts extends PlanningFacts {
  productId: string;
  /** the stock box's size (mm); null without a stock */
  stockSize: BoundingBoxStock["size"] | null;
}

/** What POST .../automation/cam-planning checks before it queues anything; null when the project is not the caller's (RLS). */
export async function planningPreconditions(db: Queryable, projectId: string): Promise<PlanningRequestFacts | null> {
  const { rows } = await db.query<{
    has_workpiece: boolean;
    has_stock: boolean;
    stock: BoundingBoxStock | null;
    material_id: string | null;
    library_id: string | null;
    assemblies: number;
    product_id: string;
  }>(
    `select j.workpiece_id is not null as has_workpiece, j.stock is not null as has_stock, j.stock,
            p.material_id, l.id as library_id, p.product_id,
            (select count(*)::int from app_public.library_assemblies a where a.library_id = l.id) as assemblies
       from app_public.projects p
       left join app_public.jobs j on j.id = p.current_job_id
       left join app_public.equipment_libraries l on l.id = p.library_id
      where p.id = $1`,
    [projectId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    hasWorkpiece: row.has_workpiece === true,
    hasStock: row.has_stock === true,
    materialId: row.material_id,
    libraryId: row.library_id,
    assemblies: row.assemblies,
    productId: row.product_id,
    stockSize: row.stock?.size ?? null,
  };
}

export interface NewAutomationTask {
  projectId: string;
  taskName: string;
  workerTask: string;
  payload: Record<string, unknown>;
  maxAttempts: number;
}

export type StartedAutomationTask =
  | { started: true; task: TaskRow; queueName: string; ahead: number }
  /** the project's slot is taken: this task is queued or running */
  | { started: false; activeTaskId: string | null };

/**
 * Inserts the task in the project's automation slot and the user's queue, and counts the
 * user's automation tasks queued or running ahead of it. The slot is a partial unique index
 * (one queued or running automation task per project), so two requests for one project
 * cannot both get in, whichever API process they reach. The user's requests are inserted one
 * at a time (a transaction-scoped advisory lock per user): each sees those accepted before it,
 * so queue positions are exact and the queue runs them in this order (tg_tasks__enqueue).
 */
export async function startAutomationTask(db: Queryable, task: NewAutomationTask): Promise<StartedAutomationTask> {
  const user = await db.query<{ id: string }>(
    "select app_public.current_user_id()::text as id, pg_advisory_xact_lock(hashtextextended('swarf.automation:' || app_public.current_user_id(), 0))",
  );
  const userId = user.rows[0]?.id;
  if (!userId) throw new Error("an automation task needs a request identity");
  const queueName = automationQueueName(userId);
  const inserted = await db.query<{ id: string; seq: string }>(
    `insert into app_public.tasks (project_id, task_name, worker_task, queue_name, payload, max_attempts)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (project_id) where status in ('queued', 'running') and task_name like 'automation.%' do nothing
     returning id, seq`,
    [task.projectId, task.taskName, task.workerTask, queueName, task.payload, task.maxAttempts],
  );
  const row = inserted.rows[0];
  if (!row) {
    const active = await db.query<{ id: string }>(
      `select id from app_public.tasks
        where project_id = $1 and status in ('queued', 'running') and task_name like 'automation.%'`,
      [task.projectId],
    );
    return { started: false, activeTaskId: active.rows[0]?.id ?? null };
  }
  const ahead = await db.query<{ n: number }>(
    `select count(*)::int as n from app_public.tasks
      where user_id = app_public.current_user_id() and status in ('queued', 'running')
        and task_name like 'automation.%' and seq < $1`,
    [row.seq],
  );
  const created = await getTask(db, row.id);
  return { started: true, task: created!, queueName, ahead: ahead.rows[0]!.n };
}

export type CancelOutcome = "cancelled" | "requested" | "already_cancelled" | "finished" | "not_cancellable";

/** app_public.cancel_task: null when the task is not the caller's. */
export async function cancelTask(
  db: Queryable,
  taskId: string,
  credential: KeyCredential,
): Promise<{ outcome: CancelOutcome; status: TaskRow["status"] } | null> {
  const { rows } = await db.query<{ outcome: CancelOutcome; task_status: TaskRow["status"] }>(
    "select outcome, task_status from app_public.cancel_task($1, $2, $3)",
    [taskId, credential.prefix, credential.hash],
  );
  const row = rows[0];
  return row ? { outcome: row.outcome, status: row.task_status } : null;
}

/** The machine of the user's live project, as plan_cam's save checks it; null when the project is gone. */
export async function liveProjectMachine(db: Queryable, userId: string, projectId: string): Promise<string | null> {
  const { rows } = await db.query<{ product_id: string }>(
    "select product_id from app_public.projects where id = $1 and user_id = $2 and deleted_at is null",
    [projectId, userId],
  );
  return rows[0]?.product_id ?? null;
}

/** What plan_cam reads of a project: null when the project is gone (deleted). */
export interface PlanningState {
  productId: string;
  materialId: string | null;
  libraryId: string | null;
  jobId: string | null;
  workpiece: WorkpieceRecord | null;
  /** the B-rep when the workpiece has one, else its original (an STL); null when missing */
  workpieceBytes: Uint8Array | null;
  stock: BoundingBoxStock | null;
  /** the library's assemblies in library order; empty without a library */
  library: Assembly[];
}

/** As the owner with the user's identity set (withUserTransaction). */
export async function loadPlanningState(
  db: Queryable,
  userId: string,
  projectId: string,
): Promise<PlanningState | null> {
  const project = await db.query<{
    product_id: string;
    material_id: string | null;
    library_id: string | null;
    current_job_id: string | null;
  }>(
    `select p.product_id, p.material_id, l.id as library_id, p.current_job_id
       from app_public.projects p
       left join app_public.equipment_libraries l on l.id = p.library_id and l.user_id = p.user_id
      where p.id = $1 and p.user_id = $2 and p.deleted_at is null`,
    [projectId, userId],
  );
  const row = project.rows[0];
  if (!row) return null;
  const job = row.current_job_id ? await getJob(db, row.current_job_id) : null;
  const workpiece = job?.workpieceId ? await getWorkpiece(db, job.workpieceId) : null;
  const blob = workpiece ? await postgresBlobStore.get(db, workpiece.blobs.brep ?? workpiece.blobs.original) : null;
  const assemblies = row.library_id
    ? await db.query<{ body: Assembly }>(
        `select body from app_public.library_assemblies
          where library_id = $1 and user_id = $2 order by position, created_at, id`,
        [row.library_id, userId],
      )
    : null;
  return {
    productId: row.product_id,
    materialId: row.material_id,
    libraryId: row.library_id,
    jobId: job?.id ?? null,
    workpiece,
    workpieceBytes: blob ? new Uint8Array(blob.bytes.buffer, blob.bytes.byteOffset, blob.bytes.byteLength) : null,
    stock: workpiece ? (job?.stock ?? null) : null,
    library: assemblies?.rows.map((r) => r.body) ?? [],
  };
}
