/**
 * Task records as the API reads and creates them (under RLS). Workers move their state in
 * tasks/runtime/task-state.ts.
 */
import type { Queryable } from "../request-transaction.ts";

export type TaskStatus = "queued" | "running" | "success" | "failed" | "cancelled";

export interface TaskRow {
  id: string;
  seq: number;
  project_id: string | null;
  task_name: string;
  status: TaskStatus;
  progress: number;
  result: unknown;
  error: { code: string; message: string } | null;
  attempts: number;
  max_attempts: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  cancel_requested_at: Date | null;
  updated_at: Date;
}

const COLUMNS = `id, seq, project_id, task_name, status, progress, result, error, attempts, max_attempts,
  created_at, started_at, finished_at, cancel_requested_at, updated_at`;

export interface NewTask {
  projectId: string;
  /** the public name, e.g. automation.automated_cam_planning */
  taskName: string;
  /** the graphile-worker task that runs it, e.g. plan_cam */
  workerTask: string;
  /** a named queue serialises its jobs (one automation task per user at a time) */
  queueName?: string | null;
  payload?: Record<string, unknown>;
  maxAttempts?: number;
}

/** Inserts the record; a trigger queues its job in the same transaction. */
export async function createTask(db: Queryable, task: NewTask): Promise<TaskRow> {
  const { rows } = await db.query<TaskRow>(
    `insert into app_public.tasks (project_id, task_name, worker_task, queue_name, payload, max_attempts)
     values ($1, $2, $3, $4, $5, $6) returning ${COLUMNS}`,
    [task.projectId, task.taskName, task.workerTask, task.queueName ?? null, task.payload ?? {}, task.maxAttempts ?? 3],
  );
  return rows[0]!;
}

export async function getTask(db: Queryable, id: string): Promise<TaskRow | null> {
  const { rows } = await db.query<TaskRow>({
    name: "get_task",
    text: `select ${COLUMNS} from app_public.tasks where id = $1`,
    values: [id],
  });
  return rows[0] ?? null;
}

export async function listProjectTasks(
  db: Queryable,
  projectId: string,
  limit: number,
  beforeSeq?: number,
): Promise<TaskRow[]> {
  const { rows } = await db.query<TaskRow>({
    name: "list_project_tasks",
    text: `select ${COLUMNS} from app_public.tasks
            where project_id = $1 and ($3::bigint is null or seq < $3)
            order by seq desc limit $2`,
    values: [projectId, limit, beforeSeq ?? null],
  });
  return rows;
}

/**
 * The latest task of each of the given projects, by project id, in one statement (a list page
 * shows every row's status without a request per row). A project without a task is absent.
 */
export async function latestProjectTasks(db: Queryable, projectIds: readonly string[]): Promise<Map<string, TaskRow>> {
  if (projectIds.length === 0) return new Map();
  // a lateral top-1 per project walks tasks_project_seq_idx, however many tasks a project has
  const { rows } = await db.query<TaskRow>({
    name: "latest_project_tasks",
    text: `select t.* from unnest($1::uuid[]) as p(id)
             cross join lateral (select ${COLUMNS} from app_public.tasks
                                  where project_id = p.id order by seq desc limit 1) t`,
    values: [projectIds],
  });
  return new Map(rows.map((row) => [row.project_id!, row]));
}
