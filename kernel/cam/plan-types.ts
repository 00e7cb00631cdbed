/**
 * What the CAM planner (plan.ts) takes and gives: the task (tasks/automated_cam_planning.ts)
 * builds a PlanInput from the project, runs the planner on a geometry thread and saves the
 * PlanResult as a new CAM job. Snake_case fields are the ones the API's task result and the job
 * file carry; the shapes the job keeps are inferred from plan-schemas.ts's zod schemas.
 */
import type { z } from "zod";
import type { WorkpieceFormat } from "../geometry/types.ts";
import type { MachineArchetype } from "../machines/archetypes.ts";
import type { Assembly } from "../tools/assembly.ts";
import type { Workholding } from "../workholding/schema.ts";
import type { SetupHole } from "./holes/setup-hole.ts";
import type { Box3, Engagement, Operation, TriangleSoup, Verification } from "./types.ts";
import type { ShadowSource } from "./milling/shadows.ts";
import type { Triangles } from "./milling/triangles.ts";
import type { ColumnTops } from "./simulation/carried-stock.ts";
import type { FixtureBox } from "./simulation/fixtures.ts";
import type { HeightField } from "./simulation/height-field.ts";
import type {
  BlockKindSchema,
  BlockSchema,
  CompletenessSchema,
  PlannedSetupSchema,
  WorkholdingSummarySchema,
  PlanOptionsSchema,
  PlanResultSchema,
  SetupLeftOutSchema,
  SharpCornerSchema,
  ToolMissingSchema,
  ToolSummarySchema,
  UnmachinedSchema,
  WarningSchema,
} from "./plan-schemas.ts";

/** How the planner was asked to plan (plan-schemas.ts says what each option does). */
export type PlanOptions = z.infer<typeof PlanOptionsSchema>;

export interface PlanInput {
  workpiece: {
    format: WorkpieceFormat;
    /** the B-rep (OCCT BREP) when the workpiece has one, else the original STL */
    bytes: Uint8Array;
    bytes_format: "brep" | "stl";
  };
  /** the stock box in the workpiece's coordinates (mm) */
  stock: Box3;
  machine: MachineArchetype;
  material_id: string;
  /** the assemblies of the project's equipment library, in library order (their pocket numbers are the job's T numbers) */
  library: Assembly[];
  options: PlanOptions;
  /**
   * what holds the stock: every setup is clamped in it (planner/hold-setup.ts), its tools keep
   * clear of the jaws and the verification drops what comes near them. Absent, the machine's
   * default (workholding/defaults.ts); null, the setups are planned as if nothing held the stock
   * (the benchmarks' comparison, and tests of geometry the jaws would only hide)
   */
  workholding?: Workholding | null;
}

export interface PlanHooks {
  /** 0..1, called at least every 10 % of the work */
  progress(fraction: number): void;
  /** true once the user cancelled: the planner stops at its next check and throws PlanCancelled */
  cancelled(): boolean;
  /** each step as it ends, timed (the bench prints them with BENCH_CAM_STEPS=1) */
  step?(step: PlanStep): void;
  /**
   * The verification of a setup (planner/verify.ts). Default: on a simulation thread beside the
   * planner's (planner/verify-thread.ts); plan.ts's inlineChecks keeps it in the planner's thread.
   */
  checks?(setup: SimulatedSetup, carried: ColumnTops | null): OperationCheck;
  /**
   * Where a setup's part shadows are made (milling/shadows.ts). Default: on a shadow thread ahead
   * of the levels that read them (planner/shadow-thread.ts); plan.ts's inlineShadows makes them in
   * the planner's thread as they are read. The plan is the same either way.
   */
  shadows?(triangles: Triangles): ShadowSource;
}

/** What the simulation needs of a setup: its stock, part and drilled holes, in its frame. */
export interface SimulatedSetup {
  name: string;
  stock: Box3;
  soup: TriangleSoup;
  holes: SetupHole[];
  /**
   * What holds the stock: the raw jaw, parallel and clamp boxes in the setup's frame, named
   * (simulation/fixtures.ts: fixtureBoxes). A move that comes near one drops its operation, and the
   * verification counts `workholding_collisions`. Not given, the workholding is not simulated and
   * the verification is as it was before it.
   */
  fixtures?: FixtureBox[];
}

/** A verdict on a submitted operation; "void": made on the stock of one dropped before it (planner/verify.ts). */
export type Verdict = "kept" | "dropped" | "void";

export interface Judgement {
  verdict: Verdict;
  /** seconds the simulation took */
  seconds: number;
}

export interface VerifiedSetup {
  operations: Operation[];
  verification: Verification;
  /** the kept operations' engagement as the simulation measured it, by operation id (none: nothing cut) */
  engagement: Record<string, Engagement>;
  /** the setup's stock after its last kept operation */
  field: HeightField;
  dropped: Unmachined[];
  /** the simulation's cell size (mm) */
  cellSize: number;
}

/**
 * What the planner sees of the verification: operations submitted in order, verdicts taken in the
 * same order. A dropped operation voids the speculative ones submitted after it: they get no
 * verdict (next() passes over them), and the planner submits them again, remade.
 */
export interface OperationCheck {
  /** queues the operation after those before it; `speculative`: made on the stock the open ones before it would leave if kept */
  submit(operation: Operation, speculative: boolean): void;
  /**
   * The operation being made, its moves so far (final: only more are added): the simulation may
   * start on them. submit() then ends it; discard() forgets it when no operation comes of it.
   */
  stream(operation: Operation, speculative: boolean): void;
  discard(): void;
  /** the oldest open submission's judgement (never "void"); null when it is not there yet and `wait` is false */
  next(wait: boolean): Judgement | null;
  /** the setup's verification after the last verdict taken (every submission must have had its verdict) */
  result(): VerifiedSetup;
  /** lets go of what the verification holds; no call after this one */
  close(): void;
}

/** One step of a setup's planning: an operation generated and verified, or the setup's holes. */
export interface PlanStep {
  setup: string;
  /** an operation kind, or "holes" */
  kind: string;
  tool: string | null;
  /** generating the toolpath (holes: all of the setup's hole operations) */
  generate_s: number;
  /** simulating it */
  verify_s: number;
  moves: number;
  /** how many operations were made, and kept by the verification */
  made: number;
  kept: number;
}

/** A tool as a setup's result lists it. */
export type ToolSummary = z.infer<typeof ToolSummarySchema>;

/** The shop's stages of a setup (planner/blocks.ts says which operation kinds fall into which). */
export type BlockKind = z.infer<typeof BlockKindSchema>;
/** Consecutive operations of a setup in one stage. */
export type PlannedBlock = z.infer<typeof BlockSchema>;
export type PlannedSetup = z.infer<typeof PlannedSetupSchema>;
/** How a setup is held: its jaws, supports or clamps as boxes in its frame, and what they grip. */
export type WorkholdingSummary = z.infer<typeof WorkholdingSummarySchema>;
/** Something the plan does not machine, and why (a user can act on it). */
export type Unmachined = z.infer<typeof UnmachinedSchema>;

export type PlanWarning = z.infer<typeof WarningSchema>;
/** A sharp internal corner no rotating tool makes: listed, but not by itself a reason the plan is incomplete. */
export type SharpCorner = z.infer<typeof SharpCornerSchema>;
/** A tool the plan would have used had the library held it. */
export type ToolMissing = z.infer<typeof ToolMissingSchema>;
/** A setup direction the plan leaves out, and what it was for. */
export type SetupLeftOut = z.infer<typeof SetupLeftOutSchema>;
/** How complete the plan is, in figures (plan-schemas.ts says when it is incomplete). */
export type Completeness = z.infer<typeof CompletenessSchema>;
export type PlanResult = z.infer<typeof PlanResultSchema>;

/** The plan cannot be made; `code` names why (part_exceeds_travel, no_tool_fits, empty_library...). */
export class PlanError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "PlanError";
    this.code = code;
  }
}

/** The user cancelled; nothing of the plan is kept. */
export class PlanCancelled extends Error {
  constructor() {
    super("the planning was cancelled");
    this.name = "PlanCancelled";
  }
}
