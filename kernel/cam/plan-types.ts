/**
 * What the CAM planner (plan.ts) takes and gives: the task (tasks/automated_cam_planning.ts)
 * builds a PlanInput from the project, runs the planner on a geometry thread and saves the
 * PlanResult as a new CAM job. Snake_case fields are the ones the API's task result and the job
 * file carry.
 */
import type { WorkpieceFormat } from "../geometry/types.ts";
import type { MachineArchetype } from "../machines/archetypes.ts";
import type { Assembly } from "../tools/assembly.ts";
import type { SetupHole } from "./holes/setup-hole.ts";
import type { Box3, Frame, Operation, OperationKind, TriangleSoup, Vec3, Verification } from "./types.ts";
import type { ShadowSource } from "./milling/shadows.ts";
import type { Triangles } from "./milling/triangles.ts";
import type { ColumnTops } from "./simulation/carried-stock.ts";
import type { HeightField } from "./simulation/height-field.ts";

export interface PlanOptions {
  /** face the stock's top down to the part in each setup first */
  include_face_milling: boolean;
  /** order operations from the top down (highest first) within a setup, instead of by tool */
  sort_by_height: boolean;
  /**
   * the share of the part's surface (0..100 %) material thicker than the finishing tolerance may
   * be left on before the plan is incomplete (Completeness); planner/completeness.ts's
   * DEFAULT_SURFACE_LIMIT_PCT when not given
   */
  completeness_surface_limit_pct?: number;
}

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
  /** the assemblies of the project's equipment library, in library order */
  library: Assembly[];
  options: PlanOptions;
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
export interface ToolSummary {
  /** T number in the setup's program: 1, 2, ... in order of first use */
  number: number;
  assembly_uuid: string;
  name: string;
  tool_type: string;
  diameter_mm: number;
}

/** An operation as the task result lists it (the job file keeps the moves). */
export interface OperationSummary {
  id: string;
  kind: OperationKind;
  name: string;
  tool_number: number;
  features: number[];
  machining_time_s: number;
}

/**
 * The shop's stages of a setup: what a programmer calls a setup's roughing or its holes.
 * planner/blocks.ts says which operation kinds fall into which.
 */
export type BlockKind = "facing" | "roughing" | "finishing" | "holes" | "chamfering";

/**
 * Consecutive operations of a setup in one stage: the level between setups and operations the
 * API's CAM job has, so a postprocessor can comment and number the stages and a user can see
 * them without reading every operation.
 */
export interface PlannedBlock {
  /** a UUID, named after the setup's id and the block's index (planner/blocks.ts) */
  id: string;
  /** "Roughing"; "Roughing 1", "Roughing 2" when the stage recurs in the setup */
  name: string;
  /** 0-based, the order the blocks run within the setup */
  index: number;
  kind: BlockKind;
  /** the block's operations, in the order they run */
  operation_ids: string[];
}

export interface PlannedSetup {
  id: string;
  name: string;
  /** 0-based, the order the shop runs them */
  index: number;
  /** tool axis in workpiece coordinates, from the part towards the spindle */
  direction: Vec3;
  /** the work coordinate system in workpiece coordinates (kernel/cam/frames.ts says where) */
  wcs: Frame;
  /** G54, G55, ... */
  work_offset: string;
  /** the stock box in the setup's frame */
  stock: Box3;
  machining_time_s: number;
  /** the operations in their stages: each operation in exactly one block, in operation order */
  blocks: PlannedBlock[];
  operations: Operation[];
  tools: ToolSummary[];
  verification: Verification;
}

/** Something the plan does not machine, and why (a user can act on it). */
export interface Unmachined {
  code: string;
  message: string;
  /** recognised features concerned */
  features: number[];
  /** part faces concerned (face ids of the workpiece's B-rep) */
  faces: number[];
  /** material left there, when measured */
  volume_mm3: number | null;
}

/** A sharp internal corner no rotating tool makes: listed, but not by itself a reason the plan is incomplete. */
export interface SharpCorner {
  /** the two part faces that meet in the corner (face ids of the workpiece's B-rep) */
  faces: number[];
  /** the radius the smallest tool that reaches it leaves there */
  radius_left_mm: number;
  length_mm: number;
}

/** A tool the plan would have used had the library held it. */
export interface ToolMissing {
  tool_type: string;
  diameter_mm: number;
  /** what it was for: "drill feature 12", "finish the floor of pocket 4" */
  purpose: string;
  features: number[];
}

/** A setup direction the plan leaves out (no toolpath survived, or its stock exceeds the travel), and what it was for. */
export interface SetupLeftOut {
  name: string;
  direction: Vec3;
  /** no_toolpaths, exceeds_travel */
  reason: string;
  message: string;
  /**
   * exceeds_travel: the features and faces it would have made that no setup that fits makes (the
   * setups that fit take over the rest). The faces are also in the setup plan's unreachable_faces
   * (face_unreachable entries) and the holes among the features in hole_unreachable entries: count
   * each once
   */
  features: number[];
  faces: number[];
}

/**
 * How complete the plan is, in figures. `incomplete` when any hole is not made, any face is
 * unreachable, or material thicker than the finishing tolerance is left (sharp corners aside) on
 * more than `material_left.surface_limit_pct` of the part's surface. The task still succeeds: the
 * plan is what the library and the part allow, and this says what it lacks.
 */
export interface Completeness {
  status: "complete" | "incomplete";
  /** one per failed criterion, with its figures in the message; empty when complete */
  reasons: { code: "material_left" | "hole_not_made" | "face_unreachable"; message: string }[];
  material_left: {
    volume_mm3: number;
    /** of the volume to remove (stock minus part) */
    pct_of_removable: number;
    /** share of the part's surface under material thicker than tolerance_mm, sharp corners excepted */
    surface_pct: number;
    surface_limit_pct: number;
    tolerance_mm: number;
  };
  /** feature ids of holes no operation makes */
  holes_not_made: number[];
  /** face ids no setup reaches */
  faces_unreachable: number[];
  operations_dropped: number;
  tools_missing: ToolMissing[];
  setups_left_out: SetupLeftOut[];
  sharp_corners: SharpCorner[];
}

export interface PlanResult {
  machining_time_s: number;
  warnings: { code: string; message: string }[];
  unmachined: Unmachined[];
  setups: PlannedSetup[];
  completeness: Completeness;
}

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
