/**
 * What a run does, from BENCH_* environment variables (defaults: about two minutes in all).
 * Bounded, so a typo cannot start an hour-long run.
 */
import { z } from "zod";
import { parseBenchSettings } from "./parse-settings.ts";

const int = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);

const Settings = z.object({
  BENCH_CONNECTIONS: z
    .string()
    .default("50,200")
    .transform((text) => text.split(",").map((part) => Number(part.trim())))
    .pipe(z.array(z.number().int().min(1).max(1000)).min(1).max(4)),
  BENCH_ROUNDS: int(3, 1, 10),
  BENCH_SECONDS: int(5, 1, 30),
  BENCH_WARMUP_SECONDS: int(2, 1, 10),
  BENCH_TASKS: int(200, 10, 2000),
  BENCH_TASK_RATE: int(50, 1, 500),
  /** the default bucket's limit for the run: high, so the limiter counts but never blocks */
  BENCH_RATE_LIMIT_PER_MINUTE: int(100_000_000, 1, 2_000_000_000),
  /** set: the API server child writes a V8 CPU profile (.cpuprofile) into this directory */
  BENCH_CPU_PROFILE_DIR: z.string().min(1).optional(),
});

export interface BenchSettings {
  connections: number[];
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  tasks: number;
  taskRatePerSecond: number;
  rateLimitPerMinute: number;
  cpuProfileDir: string | undefined;
}

export function readSettings(source: NodeJS.ProcessEnv = process.env): BenchSettings {
  const s = parseBenchSettings("bench", Settings, source);
  return {
    connections: s.BENCH_CONNECTIONS,
    rounds: s.BENCH_ROUNDS,
    seconds: s.BENCH_SECONDS,
    warmupSeconds: s.BENCH_WARMUP_SECONDS,
    tasks: s.BENCH_TASKS,
    taskRatePerSecond: s.BENCH_TASK_RATE,
    rateLimitPerMinute: s.BENCH_RATE_LIMIT_PER_MINUTE,
    cpuProfileDir: s.BENCH_CPU_PROFILE_DIR,
  };
}
