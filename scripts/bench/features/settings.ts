/** What `npm run bench:features` does, from BENCH_FEATURES_* environment variables. */
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseBenchSettings } from "../parse-settings.ts";
import { MFCAD } from "../../../kernel/features/test-support.ts";

const Settings = z.object({
  /** the MFCAD fixtures: step/<model>.step, labels/<model>.json, manifest.json */
  BENCH_FEATURES_MFCAD_DIR: z.string().min(1).default(MFCAD),
  /** at most this many models (sorted by name); all by default */
  BENCH_FEATURES_MODELS: z.coerce.number().int().min(1).max(100_000).optional(),
  /** plan setups too (tessellation and rays), timed apart: 1 or 0 */
  BENCH_FEATURES_SETUPS: z.enum(["0", "1"]).default("1"),
  /** score the MFCAD sample: 1 or 0 */
  BENCH_FEATURES_MFCAD: z.enum(["0", "1"]).default("1"),
  /** generated parts from the held-back seed (generated.ts); 0 skips the section */
  BENCH_FEATURES_GENERATED_PARTS: z.coerce.number().int().min(0).max(100_000).default(500),
  /** start no generated part after this many seconds (a loaded machine scores fewer parts); none by default */
  BENCH_FEATURES_GENERATED_MAX_S: z.coerce.number().positive().optional(),
  /** where the JSON figures go; outside the repository */
  BENCH_FEATURES_OUT: z.string().min(1).default(path.join(os.tmpdir(), "swarf-bench-features-results.json")),
});

export interface FeaturesBenchSettings {
  mfcadDir: string;
  models: number | null;
  setups: boolean;
  mfcad: boolean;
  generatedParts: number;
  generatedMaxSeconds: number | null;
  out: string;
}

export function readFeaturesSettings(env: NodeJS.ProcessEnv = process.env): FeaturesBenchSettings {
  const s = parseBenchSettings("bench:features", Settings, env);
  return {
    mfcadDir: s.BENCH_FEATURES_MFCAD_DIR,
    models: s.BENCH_FEATURES_MODELS ?? null,
    setups: s.BENCH_FEATURES_SETUPS === "1",
    mfcad: s.BENCH_FEATURES_MFCAD === "1",
    generatedParts: s.BENCH_FEATURES_GENERATED_PARTS,
    generatedMaxSeconds: s.BENCH_FEATURES_GENERATED_MAX_S ?? null,
    out: s.BENCH_FEATURES_OUT,
  };
}
