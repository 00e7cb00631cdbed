/** What `npm run bench:cam` does, from BENCH_CAM_* environment variables. */
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { parseBenchSettings } from "../parse-settings.ts";
import { FIXTURE_PARTS } from "../../../kernel/geometry/test-support.ts";

const Settings = z.object({
  /** the fixture parts: every .step, .stp and .stl file in it */
  BENCH_CAM_PARTS_DIR: z.string().min(1).default(FIXTURE_PARTS),
  /** only parts whose file name contains this */
  BENCH_CAM_ONLY: z.string().optional(),
  /** also the first N MFCAD models (../mfcad/step beside the parts folder); 0 by default */
  BENCH_CAM_MFCAD: z.coerce.number().int().min(0).max(1000).default(0),
  /** stock around the part's box on every side, mm */
  BENCH_CAM_STOCK_MM: z.coerce.number().min(0).max(100).default(2),
  BENCH_CAM_MACHINE: z.string().min(1).default("vmc-850-fanuc"),
  BENCH_CAM_MATERIAL: z.string().min(1).default("aluminium-6061"),
  /** 1: every step of every setup on stderr as it ends (tool, generation and simulation time, moves) */
  BENCH_CAM_STEPS: z.enum(["0", "1"]).default("0"),
  /** as CAM_SIMULATION_THREAD: "false" verifies in the planner's thread (one core) */
  CAM_SIMULATION_THREAD: z.enum(["true", "false"]).default("true"),
  /** where the JSON figures go; outside the repository */
  BENCH_CAM_OUT: z.string().min(1).default(path.join(os.tmpdir(), "swarf-bench-cam-results.json")),
  /**
   * held (the service's way): each part held in the machine's workholding (its vise, else its
   * table); none: as if nothing held the stock; both: the two side by side
   */
  BENCH_CAM_WORKHOLDING: z.enum(["both", "none", "held"]).default("held"),
  /**
   * compare: each plan made as the planner chooses its clearing and again with offset clearing,
   * side by side; auto, adaptive or offset: one plan with that clearing
   */
  BENCH_CAM_CLEARING: z.enum(["compare", "auto", "adaptive", "offset"]).default("compare"),
  /** stock below the part for a held plan, mm (5 mm grip + 1.5 mm kept clear + 1.5) */
  BENCH_CAM_BELOW_MM: z.coerce.number().min(0).max(100).default(8),
  /** 1: plan the first part once, unrecorded, before the timed plans (a process's first plan runs colder) */
  BENCH_CAM_WARMUP: z.enum(["0", "1"]).default("1"),
  /** a folder to keep each plan's digested JSON in (<part>.json); unset: none kept */
  BENCH_CAM_PLANS_DIR: z.string().min(1).optional(),
});

export interface CamBenchSettings {
  partsDir: string;
  only: string | null;
  mfcad: number;
  stockMm: number;
  machine: string;
  material: string;
  steps: boolean;
  /** the simulation on its own thread beside the planner (the service's default) */
  simulationThread: boolean;
  out: string;
  plansDir: string | null;
  workholding: "both" | "none" | "held";
  clearing: "compare" | "auto" | "adaptive" | "offset";
  warmUp: boolean;
  belowMm: number;
}

export function readCamSettings(env: NodeJS.ProcessEnv = process.env): CamBenchSettings {
  const s = parseBenchSettings("bench:cam", Settings, env);
  return {
    partsDir: s.BENCH_CAM_PARTS_DIR,
    only: s.BENCH_CAM_ONLY ?? null,
    mfcad: s.BENCH_CAM_MFCAD,
    stockMm: s.BENCH_CAM_STOCK_MM,
    machine: s.BENCH_CAM_MACHINE,
    material: s.BENCH_CAM_MATERIAL,
    steps: s.BENCH_CAM_STEPS === "1",
    simulationThread: s.CAM_SIMULATION_THREAD === "true",
    out: s.BENCH_CAM_OUT,
    plansDir: s.BENCH_CAM_PLANS_DIR ?? null,
    workholding: s.BENCH_CAM_WORKHOLDING,
    clearing: s.BENCH_CAM_CLEARING,
    warmUp: s.BENCH_CAM_WARMUP === "1",
    belowMm: s.BENCH_CAM_BELOW_MM,
  };
}
