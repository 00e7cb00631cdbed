/**
 * What `npm run bench:load` does: command-line flags (`npm run bench:load -- --seconds 10`)
 * over BENCH_LOAD_* environment variables over the defaults; bounded, so a typo cannot start
 * an hour-long run.
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { FIXTURE_PARTS } from "../../../kernel/geometry/test-support.ts";

const int = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);

const Settings = z.object({
  /** length of the mixed load */
  seconds: int(60, 5, 600),
  /** users, one API key each, one virtual client per key */
  keys: int(20, 1, 100),
  /** length of the baseline (GET /healthz at the same pace and concurrency) */
  baselineSeconds: int(10, 3, 60),
  /** requests each client offers, as a multiple of the key's per-minute limit: over 1 asks for some 429s */
  rateFactor: z.coerce.number().min(0.1).max(3).default(1.25),
  /** a client's requests in flight at once at most */
  inFlight: int(4, 1, 16),
  /**
   * CAM plannings each client starts at most, each on a project of its own with a workpiece and
   * stock. The server runs one at a time (a geometry pool of n threads plans on n - 1; a user's
   * plannings queue one behind the other), so more only lengthens the queue
   */
  plansPerKey: int(1, 0, 10),
  /** seed of the clients' choices */
  seed: int(1, 0, 2 ** 31 - 1),
  /** partC.step and partC.stl are read from here */
  partsDir: z.string().min(1).default(FIXTURE_PARTS),
  /** where the JSON figures go; outside the repository */
  out: z.string().min(1).default(path.join(os.tmpdir(), "swarf-bench-load-results.json")),
  /** set: the server child writes V8 CPU profiles (.cpuprofile, one per thread) into this directory */
  cpuProfileDir: z.string().min(1).optional(),
});

export type LoadSettings = z.infer<typeof Settings>;

/** flag name -> environment variable */
const SOURCES: Record<keyof LoadSettings, string> = {
  seconds: "BENCH_LOAD_SECONDS",
  keys: "BENCH_LOAD_KEYS",
  baselineSeconds: "BENCH_LOAD_BASELINE_SECONDS",
  rateFactor: "BENCH_LOAD_RATE_FACTOR",
  inFlight: "BENCH_LOAD_IN_FLIGHT",
  plansPerKey: "BENCH_LOAD_PLANS_PER_KEY",
  seed: "BENCH_LOAD_SEED",
  partsDir: "BENCH_LOAD_PARTS_DIR",
  out: "BENCH_LOAD_OUT",
  cpuProfileDir: "BENCH_LOAD_CPU_PROFILE_DIR",
};

const FLAGS: Record<keyof LoadSettings, string> = {
  seconds: "seconds",
  keys: "keys",
  baselineSeconds: "baseline-seconds",
  rateFactor: "rate-factor",
  inFlight: "in-flight",
  plansPerKey: "plans-per-key",
  seed: "seed",
  partsDir: "parts-dir",
  out: "out",
  cpuProfileDir: "cpu-profile-dir",
};

export function readLoadSettings(
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): LoadSettings {
  const { values } = parseArgs({
    args: [...argv],
    options: Object.fromEntries(Object.values(FLAGS).map((flag) => [flag, { type: "string" as const }])),
    strict: true,
    allowPositionals: false,
  });
  const raw: Record<string, string | undefined> = {};
  for (const name of Object.keys(SOURCES) as (keyof LoadSettings)[]) {
    const flag = values[FLAGS[name]];
    raw[name] = typeof flag === "string" ? flag : env[SOURCES[name]];
  }
  const parsed = Settings.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path[0] as keyof LoadSettings | undefined;
      return `  ${name ? `--${FLAGS[name]} (${SOURCES[name]})` : "?"}: ${issue.message}`;
    });
    throw new Error(`invalid benchmark settings:\n${lines.join("\n")}`);
  }
  return { ...parsed.data, partsDir: path.resolve(parsed.data.partsDir) };
}
