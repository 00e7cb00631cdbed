/** What `npm run bench:setup-sheet` does, from BENCH_SETUP_SHEET_* environment variables. */
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { FIXTURE_PARTS } from "../../../kernel/geometry/test-support.ts";
import { parseBenchSettings } from "../parse-settings.ts";

const Settings = z.object({
  BENCH_SETUP_SHEET_PARTS_DIR: z.string().min(1).default(FIXTURE_PARTS),
  /** the fixture part planned (its operations repeated to BENCH_SETUP_SHEET_OPERATIONS) and pictured */
  BENCH_SETUP_SHEET_PART: z.string().min(1).default("partC.step"),
  BENCH_SETUP_SHEET_OPERATIONS: z.coerce.number().int().min(1).max(10_000).default(100),
  /** times each sheet is made after the first; the fastest counts (the machine is shared) */
  BENCH_SETUP_SHEET_ROUNDS: z.coerce.number().int().min(1).max(20).default(5),
  BENCH_SETUP_SHEET_OUT: z.string().min(1).default(path.join(os.tmpdir(), "swarf-bench-setup-sheet-results.json")),
});

export interface SetupSheetBenchSettings {
  partsDir: string;
  part: string;
  operations: number;
  rounds: number;
  out: string;
}

export function readSetupSheetSettings(env: NodeJS.ProcessEnv = process.env): SetupSheetBenchSettings {
  const s = parseBenchSettings("bench:setup-sheet", Settings, env);
  return {
    partsDir: s.BENCH_SETUP_SHEET_PARTS_DIR,
    part: s.BENCH_SETUP_SHEET_PART,
    operations: s.BENCH_SETUP_SHEET_OPERATIONS,
    rounds: s.BENCH_SETUP_SHEET_ROUNDS,
    out: s.BENCH_SETUP_SHEET_OUT,
  };
}
