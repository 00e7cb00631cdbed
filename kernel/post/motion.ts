/**
 * The motion stream every postprocessor writes from: one setup of a stored plan as a sequence of
 * typed events, made lazily (a generator), so a program of millions of moves is written with the
 * memory of one move.
 *
 * What the stream decides once, for every control:
 * - where the tool is: every move carries its start;
 * - which arcs stay arcs: one whose sagitta is under ARC_AS_LINE_SAGITTA_MM or whose radius is
 *   over ARC_AS_LINE_RADIUS_MM is a line (a control rejects or misreads both: the end point's
 *   rounding moves the centre of a nearly straight arc by millimetres), and so is one of zero
 *   radius;
 * - tool changes: only when the assembly changes; after it the operation's spindle speed and
 *   coolant, and only then the approach: a rapid over the operation's first point and down to
 *   its clearance height (the tool comes from the tool change position, above everything), so
 *   the spindle turns and the coolant runs before the tool comes near the stock;
 * - the header's facts (kernel/job/setup-facts.ts), the same the setup sheet and the quote show.
 * Drill cycles stay cycles: a control that has no canned cycles expands them with
 * expandDrillCycle (../cam/holes/cycles.ts), the same expansion the simulation verified.
 */
import { arcSweep, firstPosition } from "../cam/machining-time.ts";
import type { WorkholdingSummary } from "../cam/plan-types.ts";
import type { DrillCycle, Move, Operation, Vec2, Vec3 } from "../cam/types.ts";
import type { CamPlan } from "../job/plan.ts";
import {
  cycleTimeS,
  setupTools,
  setupTurnWords,
  stockFacts,
  workOffsetFacts,
  type SetupTool,
  type StockFacts,
  type WorkOffsetFacts,
} from "../job/setup-facts.ts";
import type { Box3 } from "../math/box3.ts";

/** arcs flatter than this (mm between the chord's middle and the arc) are written as lines */
export const ARC_AS_LINE_SAGITTA_MM = 0.001;
/** arcs wider than this radius (mm) are written as lines */
export const ARC_AS_LINE_RADIUS_MM = 5000;

export type Coolant = Operation["parameters"]["coolant"];

/** A tool as a program calls it: the setup's tool from the header's tool list (its number is the job's T, H and D). */
export type ToolCall = SetupTool;

export interface ProgramStart {
  kind: "program_start";
  /** the project's name, for the header comment */
  project: string;
  /** index: 0-based, the order the shop runs the setups, and the work offset each control gives it */
  setup: { name: string; index: number; count: number };
  /** the stock box in the setup's frame (the work offset is at its top corner) */
  stock: { min: Vec3; max: Vec3 };
  /** what holds the stock, for the setter's lines after the tool list; null: the plan does not say (nothing is written) */
  workholding: WorkholdingSummary | null;
  /** what the header tells the setter (header-lines.ts) */
  facts: HeaderFacts;
}

/** The setter's facts of the setup, each from kernel/job/setup-facts.ts. */
export interface HeaderFacts {
  /** the workpiece's file name; null when not known */
  part: string | null;
  /** the material's name; null when not known */
  material: string | null;
  /** how the part is turned from the way it was modelled */
  turn: string;
  work_offset: WorkOffsetFacts;
  stock: StockFacts;
  cycle_time_s: number;
  tools: SetupTool[];
}

export type Motion =
  | ProgramStart
  | { kind: "operation"; name: string }
  /**
   * `first`: the first tool change of the program (nothing to stop before it); `spindle_rpm`: the
   * speed the spindle event right after sets
   */
  | { kind: "tool_change"; tool: ToolCall; first: boolean; spindle_rpm: number }
  /** after a tool change, its spindle and coolant: over the operation's first point `to`, at its clearance */
  | { kind: "approach"; tool: ToolCall; to: Vec3 }
  | { kind: "spindle"; rpm: number }
  | { kind: "coolant"; mode: Coolant }
  | { kind: "rapid"; from: Vec3; to: Vec3 }
  | { kind: "linear"; from: Vec3; to: Vec3; feed: number }
  | { kind: "arc"; from: Vec3; to: Vec3; centre: Vec2; clockwise: boolean; feed: number }
  | { kind: "drill"; from: Vec3; cycle: DrillCycle }
  | { kind: "program_end" };

/** The events that move the tool along the toolpath. */
type MoveMotion = Extract<Motion, { kind: "rapid" | "linear" | "arc" | "drill" }>;

/** What the program's header names beyond the plan. */
export interface StreamOptions {
  project: string;
  /** the workpiece's file name */
  part?: string | null;
  /** the material's name */
  material?: string | null;
  /** the part's bounding box in workpiece coordinates, for where it sits in the stock */
  partBox?: Box3 | null;
  /** the machine's postprocessor: the work offset's name depends on it */
  control: string;
  /**
   * told just before each move of the plan is handed on (by its operation's and its own index in
   * the setup), so a caller can tell which program line a move became (program-lines.ts)
   */
  onMove?: (operation: number, move: number) => void;
}

/** The setup's program as motion events, start to end. */
export function* motionStream(plan: CamPlan, setupIndex: number, options: StreamOptions): Generator<Motion> {
  const setup = plan.setups[setupIndex];
  if (setup === undefined)
    throw new RangeError(`setup ${setupIndex} is not in the plan (it has ${plan.setups.length})`);
  const listed = setupTools(plan, setupIndex);
  const tools = new Map(listed.map((tool) => [tool.assembly_uuid, tool]));
  yield {
    kind: "program_start",
    project: options.project,
    setup: { name: setup.name, index: setup.index, count: plan.setups.length },
    stock: { min: setup.stock.min, max: setup.stock.max },
    workholding: setup.workholding ?? null,
    facts: {
      part: options.part ?? null,
      material: options.material ?? null,
      turn: setupTurnWords(setup),
      work_offset: workOffsetFacts(setup, options.control),
      stock: stockFacts(setup, options.partBox ?? null),
      cycle_time_s: cycleTimeS(setup),
      tools: listed,
    },
  };
  let here: Vec3 | null = null;
  let toolNow: string | null = null;
  let spindle = 0;
  let coolant: Coolant | null = null;
  let approach: Vec3 | null = null;
  for (const [operationIndex, operation] of setup.operations.entries()) {
    if (operation.moves.length === 0) continue;
    const tool = tools.get(operation.tool.assembly_uuid);
    if (tool === undefined) throw new RangeError(`operation ${operation.id} uses a tool the setup does not list`);
    yield { kind: "operation", name: operation.name };
    if (toolNow !== operation.tool.assembly_uuid) {
      yield { kind: "tool_change", tool, first: toolNow === null, spindle_rpm: operation.parameters.spindle_rpm };
      toolNow = operation.tool.assembly_uuid;
      approach = firstPosition(operation);
      // spindle and coolant are told again after every change (a control without a changer stops both for it)
      spindle = 0;
      coolant = null;
      here = approach;
    }
    if (operation.parameters.spindle_rpm !== spindle) {
      spindle = operation.parameters.spindle_rpm;
      yield { kind: "spindle", rpm: spindle };
    }
    if (operation.parameters.coolant !== coolant) {
      coolant = operation.parameters.coolant;
      yield { kind: "coolant", mode: coolant };
    }
    if (approach !== null) {
      yield { kind: "approach", tool, to: approach };
      approach = null;
    }
    for (const [moveIndex, move] of operation.moves.entries()) {
      const from: Vec3 = here ?? firstPosition(operation);
      const motion = motionOf(move, from);
      if (motion === null) continue;
      options.onMove?.(operationIndex, moveIndex);
      yield motion;
      here = motion.kind === "drill" ? drillEnd(move as DrillCycle, from) : motion.to;
    }
  }
  yield { kind: "program_end" };
}

/** Where a drill cycle leaves the tool: at R over its last hole (G99). */
function drillEnd(cycle: DrillCycle, from: Vec3): Vec3 {
  const last = cycle.at[cycle.at.length - 1];
  return last === undefined ? from : [last[0], last[1], cycle.retract_z];
}

/** A move as the stream's event; null for a move that goes nowhere. */
function motionOf(move: Move, from: Vec3): MoveMotion | null {
  switch (move.kind) {
    case "drill":
      return move.at.length === 0 ? null : { kind: "drill", from, cycle: move };
    case "rapid":
      return samePoint(from, move.to) ? null : { kind: "rapid", from, to: move.to };
    case "linear":
      return samePoint(from, move.to) ? null : { kind: "linear", from, to: move.to, feed: move.feed };
    case "arc":
      return arcAsLine(from, move)
        ? { kind: "linear", from, to: move.to, feed: move.feed }
        : { kind: "arc", from, to: move.to, centre: move.centre, clockwise: move.clockwise, feed: move.feed };
  }
}

function samePoint(a: Vec3, b: Vec3): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

/** Whether an arc is better written as the line to its end (flat, huge or degenerate). */
export function arcAsLine(from: Vec3, arc: Extract<Move, { kind: "arc" }>): boolean {
  const radius = Math.hypot(from[0] - arc.centre[0], from[1] - arc.centre[1]);
  if (!(radius > 1e-6) || radius > ARC_AS_LINE_RADIUS_MM) return true;
  const sweep = arcSweep(from, arc);
  return sweep < Math.PI && radius * (1 - Math.cos(sweep / 2)) < ARC_AS_LINE_SAGITTA_MM;
}
