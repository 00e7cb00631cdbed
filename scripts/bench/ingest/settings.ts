/** What `npm run bench:ingest` does, from BENCH_INGEST_* environment variables; bounded. */
import path from "node:path";
import { z } from "zod";
import { parseBenchSettings } from "../parse-settings.ts";
import { repoRoot } from "../../../config/env.ts";

const Settings = z.object({
  /** timed uploads per part, after one warm-up (and as many timed native runs) */
  BENCH_INGEST_RUNS: z.coerce.number().int().min(1).max(50).default(5),
  /** the parts: every regular file in this directory */
  BENCH_INGEST_PARTS_DIR: z.string().min(1).default(path.resolve(repoRoot, "../shared/fixtures/parts")),
  /** the native baseline: Debian's occt-draw (a name on PATH or a path) */
  BENCH_INGEST_OCCT_DRAW: z.string().min(1).default("occt-draw"),
});

export interface IngestSettings {
  runs: number;
  partsDir: string;
  occtDraw: string;
}

export function readIngestSettings(source: NodeJS.ProcessEnv = process.env): IngestSettings {
  const s = parseBenchSettings("bench:ingest", Settings, source);
  return {
    runs: s.BENCH_INGEST_RUNS,
    partsDir: path.resolve(repoRoot, s.BENCH_INGEST_PARTS_DIR),
    occtDraw: s.BENCH_INGEST_OCCT_DRAW,
  };
}
