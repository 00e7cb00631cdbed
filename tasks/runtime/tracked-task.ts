/**
 * Wraps a user-visible task so its record in app_public.tasks follows the job: running when
 * an attempt starts, progress as it goes, success with its result, failed with a code and a
 * message a user can act on.
 *
 * Errors are classified on purpose:
 *   TaskFailure        the input cannot be processed (no tool fits, part exceeds travel):
 *                      failed at once, never retried
 *   TaskCancelled      the run honoured a cancel request (ctx.cancelRequested()): cancelled,
 *                      never retried; what it did is the task's to discard
 *   anything else      a fault (database, bug, out of memory): retried with graphile-worker's
 *                      backoff until max_attempts, then failed as internal_error; cancelled
 *                      instead when a cancel was requested meanwhile
 */
import type { JobHelpers, Task } from "graphile-worker";
import { z } from "zod";
import { withUserTransaction, type Queryable } from "../../db/request-transaction.ts";
import {
  cancelAttempt,
  cancelRequested,
  failAttempt,
  reportProgress,
  requeueAttempt,
  startAttempt,
  succeedAttempt,
} from "../../db/queries/task-state.ts";

export class TaskFailure extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "TaskFailure";
    this.code = code;
  }
}

/** Thrown by a run that stopped because its cancel was requested: the task ends cancelled. */
export class TaskCancelled extends Error {
  constructor(message = "the task was cancelled") {
    super(message);
    this.name = "TaskCancelled";
  }
}

export interface TrackedTaskContext {
  taskId: string;
  attempt: number;
  projectId: string | null;
  userId: string;
  payload: Record<string, unknown>;
  /** records progress (0..1, never backwards); false when this attempt was superseded */
  progress(fraction: number): Promise<boolean>;
  /** whether a cancel was requested: a run that honours it throws TaskCancelled */
  cancelRequested(): Promise<boolean>;
  /** `work` in one transaction as the owner role with the task's user set, as their requests run (RLS) */
  asOwner<T>(work: (db: Queryable) => Promise<T>): Promise<T>;
  /** aborted when the worker shuts down */
  signal: AbortSignal;
  helpers: JobHelpers;
}

const JobPayload = z.object({ task_id: z.uuid() });

export function trackedTask(run: (ctx: TrackedTaskContext) => Promise<unknown>): Task {
  return async (rawPayload, helpers) => {
    const { task_id: taskId } = JobPayload.parse(rawPayload);
    const withDb = <T>(work: (db: Queryable) => Promise<T>) => helpers.withPgClient(work);
    const poolId = helpers.job.locked_by ?? "unknown";
    const started = await withDb((db) => startAttempt(db, taskId, poolId));
    if (!started) {
      helpers.logger.info(`task ${taskId} is finished already; nothing to run`);
      return;
    }
    const { attempt } = started;
    try {
      const result = await run({
        taskId,
        attempt,
        projectId: started.projectId,
        userId: started.userId,
        payload: started.payload,
        progress: (fraction) => withDb((db) => reportProgress(db, taskId, attempt, Math.min(1, Math.max(0, fraction)))),
        cancelRequested: () => withDb((db) => cancelRequested(db, taskId)),
        asOwner: (work) => withDb((db) => withUserTransaction(db, started.userId, () => work(db))),
        signal: helpers.abortSignal ?? new AbortController().signal,
        helpers,
      });
      await withDb((db) => succeedAttempt(db, taskId, attempt, result));
    } catch (error) {
      if (error instanceof TaskFailure) {
        await withDb((db) => failAttempt(db, taskId, attempt, { code: error.code, message: error.message }));
        return;
      }
      if (error instanceof TaskCancelled || (await withDb((db) => cancelRequested(db, taskId)))) {
        await withDb((db) => cancelAttempt(db, taskId, attempt));
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      if (helpers.job.attempts >= helpers.job.max_attempts) {
        const failure = {
          code: "internal_error",
          message: `the task failed after ${helpers.job.attempts} attempts: ${message}`,
        };
        await withDb((db) => failAttempt(db, taskId, attempt, failure));
        return;
      }
      await withDb((db) => requeueAttempt(db, taskId, attempt, { code: "retrying", message }));
      throw error;
    }
  };
}
