/**
 * Task records and their queue jobs, made and read as the owner, for the worker and task
 * suites. Inserting a record queues its graphile-worker job (job key = task id).
 */
import type pg from "pg";

export interface TaskRecord {
  id: string;
  user_id: string;
  project_id: string | null;
  task_name: string;
  worker_task: string;
  status: "queued" | "running" | "success" | "failed" | "cancelled";
  progress: number;
  result: unknown;
  error: { code: string; message: string } | null;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  started_at: Date | null;
  heartbeat_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

export interface JobRow {
  id: number;
  task_identifier: string;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_at: Date | null;
  locked_by: string | null;
  last_error: string | null;
}

export interface NewTaskRecord {
  userId: string;
  workerTask: string;
  taskName?: string;
  projectId?: string | null;
  maxAttempts?: number;
  payload?: Record<string, unknown>;
}

export async function insertTaskRecord(owner: pg.Pool, task: NewTaskRecord): Promise<string> {
  const { rows } = await owner.query<{ id: string }>(
    `insert into app_public.tasks (user_id, project_id, task_name, worker_task, payload, max_attempts)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [
      task.userId,
      task.projectId ?? null,
      task.taskName ?? `test.${task.workerTask}`,
      task.workerTask,
      task.payload ?? {},
      task.maxAttempts ?? 3,
    ],
  );
  return rows[0]!.id;
}

export async function readTaskRecord(owner: pg.Pool, id: string): Promise<TaskRecord> {
  const { rows } = await owner.query<TaskRecord>("select * from app_public.tasks where id = $1", [id]);
  if (!rows[0]) throw new Error(`no task record ${id}`);
  return rows[0];
}

/** The queue job behind a task record (job key = task id), or null when it is gone. */
export async function readJob(owner: pg.Pool, key: string): Promise<JobRow | null> {
  const { rows } = await owner.query<JobRow>(
    `select id, task_identifier, attempts, max_attempts, run_at, locked_at, locked_by, last_error
       from graphile_worker.jobs where key = $1`,
    [key],
  );
  return rows[0] ?? null;
}

/** Polls `probe` until it returns something other than undefined, null or false. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 25));
  }
}

/** Waits until the task record satisfies `done`, and returns it. */
export function waitForTask(
  owner: pg.Pool,
  id: string,
  what: string,
  done: (task: TaskRecord) => boolean,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<TaskRecord> {
  return waitFor(
    `task ${id}: ${what}`,
    async () => {
      const task = await readTaskRecord(owner, id);
      return done(task) ? task : null;
    },
    options,
  );
}

/** A promise with its resolve function outside, to hold a test task at a point. */
export interface Gate<T = void> {
  promise: Promise<T>;
  open(value: T): void;
}

export function gate<T = void>(): Gate<T> {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
