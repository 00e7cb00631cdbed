/**
 * Benchmark child: a worker runner (workers/runner.ts: every service task, the lease, the
 * crontab) with two extra tasks:
 *
 *   bench_noop    a tracked task (tasks/runtime/tracked-task.ts) that returns at once; its
 *                 latency is read from its app_public.tasks record (started_at - created_at)
 *   bench_plain   a plain graphile-worker task, the baseline: it reads now() - created_at of
 *                 its own job in its first statement and reports it to the parent
 *
 * Both latencies run from the start of the enqueueing transaction to the handler's first
 * statement, on the database clock.
 */
import type { Task } from "graphile-worker";
import { z } from "zod";
import { readEnv } from "../../config/env.ts";
import { trackedTask } from "../../tasks/runtime/tracked-task.ts";
import { runnerTuning, startWorkerRunner } from "../../workers/runner.ts";
import { failStartup, onShutdown, sendToParent } from "./child-runtime.ts";
import { CHILD_ENV, requiredEnv } from "./protocol.ts";

const PlainPayload = z.object({ seq: z.number().int() });

const benchPlain: Task = async (payload, helpers) => {
  const { seq } = PlainPayload.parse(payload);
  const { rows } = await helpers.query<{ ms: number }>(
    "select (extract(epoch from now() - j.created_at) * 1000)::float8 as ms from graphile_worker.jobs j where j.id = $1",
    [helpers.job.id],
  );
  const ms = rows[0]?.ms;
  if (ms === undefined) throw new Error(`job ${helpers.job.id} is not in graphile_worker.jobs`);
  sendToParent({ type: "plain-job", seq, latencyMs: ms });
};

const benchNoop = trackedTask(async () => ({ ok: true }));

try {
  const env = readEnv();
  const runner = await startWorkerRunner({
    ownerUrl: requiredEnv(CHILD_ENV.ownerUrl),
    extraTasks: { bench_noop: benchNoop, bench_plain: benchPlain },
    ...runnerTuning(env),
  });
  onShutdown(() => runner.stop());
  sendToParent({ type: "ready" });
} catch (error) {
  failStartup(error);
}
