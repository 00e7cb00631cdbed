/**
 * Task creation to worker start: tracked tasks (an app_public.tasks row whose trigger queues
 * the job, run through tasks/runtime/tracked-task.ts) against plain graphile-worker jobs
 * (addJob of a noop task), both run by one worker runner child and both measured on the
 * database clock from the start of the enqueueing transaction to the handler's first
 * statement. Enqueued at a steady pace, kinds alternating by phase, each phase drained before
 * the next starts.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Logger, makeWorkerUtils } from "graphile-worker";
import type pg from "pg";
import { graphileLogFactory } from "../../config/logger.ts";
import type { BenchChild } from "./children.ts";
import { percentile } from "./stats.ts";

export interface LatencyStats {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

export interface TaskLatencyResult {
  perKind: number;
  ratePerSecond: number;
  workerConcurrency: number;
  tracked: LatencyStats;
  plain: LatencyStats;
  /** tracked / plain */
  ratioP50: number;
  ratioP99: number;
}

export interface TaskLatencyOptions {
  owner: pg.Pool;
  worker: BenchChild;
  workerConcurrency: number;
  userId: string;
  projectId: string;
  /** jobs of each kind, split over the rounds */
  count: number;
  rounds: number;
  ratePerSecond: number;
  signal: AbortSignal;
  progress: (line: string) => void;
}

type Kind = "tracked" | "plain";

function stats(values: readonly number[]): LatencyStats {
  return {
    count: values.length,
    p50Ms: percentile(values, 50),
    p90Ms: percentile(values, 90),
    p99Ms: percentile(values, 99),
    maxMs: values.length > 0 ? Math.max(...values) : Number.NaN,
    meanMs: values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : Number.NaN,
  };
}

export async function measureTaskLatency(options: TaskLatencyOptions): Promise<TaskLatencyResult> {
  const { owner, signal } = options;
  const utils = await makeWorkerUtils({ pgPool: owner, logger: new Logger(graphileLogFactory("bench")) });
  const plainLatency = new Map<number, number>();
  options.worker.onMessage((message) => {
    if (message.type === "plain-job") plainLatency.set(message.seq, message.latencyMs);
  });
  let nextSeq = 0;

  const enqueue: Record<Kind, () => Promise<string | number>> = {
    plain: async () => {
      const seq = nextSeq++;
      await utils.addJob("bench_plain", { seq });
      return seq;
    },
    tracked: async () => {
      const { rows } = await owner.query<{ id: string }>(
        `insert into app_public.tasks (user_id, project_id, task_name, worker_task)
         values ($1, $2, 'bench.noop', 'bench_noop') returning id`,
        [options.userId, options.projectId],
      );
      return rows[0]!.id;
    },
  };

  /** Enqueues `count` jobs at the configured pace and waits until the worker started them all. */
  async function phase(kind: Kind, count: number): Promise<(string | number)[]> {
    const ids: (string | number)[] = [];
    const intervalMs = 1000 / options.ratePerSecond;
    const start = performance.now();
    for (let i = 0; i < count; i++) {
      const wait = start + i * intervalMs - performance.now();
      if (wait > 0) await sleep(wait, undefined, { signal });
      ids.push(await enqueue[kind]());
    }
    const deadline = Date.now() + 60_000;
    for (;;) {
      signal.throwIfAborted();
      if (!options.worker.running()) throw new Error("the worker exited during the benchmark");
      let pending: number;
      if (kind === "plain") {
        pending = ids.filter((seq) => typeof seq === "number" && !plainLatency.has(seq)).length;
      } else {
        const { rows } = await owner.query<{ pending: number; failed: number }>(
          `select count(*) filter (where status in ('queued', 'running'))::int as pending,
                  count(*) filter (where status not in ('queued', 'running', 'success'))::int as failed
             from app_public.tasks where id = any($1::uuid[])`,
          [ids],
        );
        if ((rows[0]?.failed ?? 0) > 0) throw new Error(`${rows[0]?.failed} bench_noop tasks did not succeed`);
        pending = rows[0]?.pending ?? 0;
      }
      if (pending === 0) return ids;
      if (Date.now() > deadline) throw new Error(`${pending} ${kind} jobs did not start within 60 s`);
      await sleep(50, undefined, { signal });
    }
  }

  try {
    options.progress("tasks: warm-up");
    await phase("plain", 10);
    await phase("tracked", 10);

    const measured: Record<Kind, (string | number)[]> = { plain: [], tracked: [] };
    const perRound = Math.ceil(options.count / options.rounds);
    for (let round = 1; round <= options.rounds; round++) {
      const order: Kind[] = round % 2 === 1 ? ["tracked", "plain"] : ["plain", "tracked"];
      for (const kind of order) {
        options.progress(`tasks: round ${round}/${options.rounds}, ${perRound} ${kind} at ${options.ratePerSecond}/s`);
        measured[kind].push(...(await phase(kind, perRound)));
      }
    }

    const { rows } = await owner.query<{ ms: number }>(
      `select (extract(epoch from started_at - created_at) * 1000)::float8 as ms
         from app_public.tasks where id = any($1::uuid[])`,
      [measured.tracked],
    );
    const tracked = stats(rows.map((r) => r.ms));
    const plain = stats(
      measured.plain.map((seq) => plainLatency.get(seq as number)).filter((v): v is number => v !== undefined),
    );
    return {
      perKind: perRound * options.rounds,
      ratePerSecond: options.ratePerSecond,
      workerConcurrency: options.workerConcurrency,
      tracked,
      plain,
      ratioP50: tracked.p50Ms / plain.p50Ms,
      ratioP99: tracked.p99Ms / plain.p99Ms,
    };
  } finally {
    await utils.release();
  }
}
