/** What `npm run bench:catalogue` does, from BENCH_CATALOGUE_* environment variables; bounded. */
import { z } from "zod";
import { parseBenchSettings } from "../parse-settings.ts";

const int = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);

const Settings = z.object({
  /** synthetic entries loaded besides the standard range */
  BENCH_CATALOGUE_ENTRIES: int(100_000, 1000, 500_000),
  /** timed requests of each kind in each phase (sequential, concurrent) */
  BENCH_CATALOGUE_REQUESTS: int(300, 20, 5000),
  /** requests in flight at once in the concurrent phase */
  BENCH_CATALOGUE_CONCURRENCY: int(4, 2, 64),
  /** untimed requests of each kind before the timed ones */
  BENCH_CATALOGUE_WARMUP: int(50, 0, 1000),
  /** the synthetic catalogue's and the request mix's seed */
  BENCH_CATALOGUE_SEED: int(1, 0, 2 ** 31 - 1),
  /**
   * The catalogue's read policy in the scratch database, a what-if for a pending migration
   * (docs/benchmarks.md, "The read policy"): committed (as 000004 has it), open (`using
   * (true)`) or off (row-level security disabled on the table)
   */
  BENCH_CATALOGUE_READ_POLICY: z.enum(["committed", "open", "off"]).default("committed"),
});

export interface CatalogueBenchSettings {
  entries: number;
  requests: number;
  concurrency: number;
  warmup: number;
  seed: number;
  readPolicy: "committed" | "open" | "off";
}

export function readCatalogueSettings(source: NodeJS.ProcessEnv = process.env): CatalogueBenchSettings {
  const s = parseBenchSettings("bench:catalogue", Settings, source);
  return {
    entries: s.BENCH_CATALOGUE_ENTRIES,
    requests: s.BENCH_CATALOGUE_REQUESTS,
    concurrency: s.BENCH_CATALOGUE_CONCURRENCY,
    warmup: s.BENCH_CATALOGUE_WARMUP,
    seed: s.BENCH_CATALOGUE_SEED,
    readPolicy: s.BENCH_CATALOGUE_READ_POLICY,
  };
}
