/** What `npm run bench:post` does, from BENCH_POST_* environment variables. */
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseBenchSettings } from "../parse-settings.ts";
import { FIXTURE_PARTS } from "../../../kernel/geometry/test-support.ts";

const Settings = z.object({
  BENCH_POST_PARTS_DIR: z.string().min(1).default(FIXTURE_PARTS),
  /** the fixture part whose plan is written: the one with the most moves (STC-06's plan: 120,000) */
  BENCH_POST_PART: z.string().min(1).default("nist_stc_06"),
  /** moves of the synthetic toolpath; it is also written with a tenth of them, to compare memory */
  BENCH_POST_MOVES: z.coerce.number().int().min(10_000).max(20_000_000).default(1_000_000),
  /** times each program is written; the fastest counts (the machine is shared) */
  BENCH_POST_ROUNDS: z.coerce.number().int().min(1).max(20).default(5),
  BENCH_POST_OUT: z.string().min(1).default(path.join(os.tmpdir(), "swarf-bench-post-results.json")),
});

export interface PostBenchSettings {
  partsDir: string;
  part: string;
  moves: number;
  rounds: number;
  out: string;
}

export function readPostSettings(env: NodeJS.ProcessEnv = process.env): PostBenchSettings {
  const s = parseBenchSettings("bench:post", Settings, env);
  return {
    partsDir: s.BENCH_POST_PARTS_DIR,
    part: s.BENCH_POST_PART,
    moves: s.BENCH_POST_MOVES,
    rounds: s.BENCH_POST_ROUNDS,
    out: s.BENCH_POST_OUT,
  };
}
