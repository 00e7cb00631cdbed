/**
 * Machining time of operations and setups, from the toolpaths: what a quote and a setup sheet
 * show. Seconds, unrounded; displaySeconds rounds to 0.1 s where a number is shown.
 *
 * - Feed moves: their length over their feed. Arcs and helices by their true length (the arc in
 *   XY, the z change along it); an arc that ends where it starts is a full turn.
 * - Rapids: their straight length over machine.rapid_mm_min. A simplification: real rapids move
 *   the axes at once, each at its own rate, and accelerate; rapid_mm_min is the slowest axis'
 *   rate (usually Z), so this errs long for long XY rapids and short for the accelerations of
 *   short ones, which roughly cancel on a part's worth of moves.
 * - Drill cycles: expanded as holes/cycles.ts does (feed in, rapid out, pecks, dwells; taps feed
 *   out too).
 * - Tool changes: one whenever an operation's assembly differs from the previous operation's,
 *   and one for the first tool, each machine.tool_change_s (chip to chip, which includes the
 *   travel to and from the change position). After a change an operation starts at its first
 *   position; with the same tool it starts where the previous one ended, and the rapid between
 *   them counts.
 */
import type { MachineArchetype } from "../machines/archetypes.ts";
import { expandDrillCycle } from "./holes/cycles.ts";
import type { Move, Operation, Vec3 } from "./types.ts";

export interface OperationTime {
  operation_id: string;
  /** the tool's assembly */
  assembly_uuid: string;
  feed_length_mm: number;
  rapid_length_mm: number;
  cutting_s: number;
  rapid_s: number;
  dwell_s: number;
  total_s: number;
  /** where the tool is at the end */
  end: Vec3;
}

export interface SetupTime {
  operations: OperationTime[];
  tool_changes: number;
  tool_change_s: number;
  /** operations and tool changes */
  total_s: number;
}

const TWO_PI = 2 * Math.PI;

/** The swept angle of an arc from `from` (radians, in (0, 2π]). */
export function arcSweep(from: Vec3, move: Extract<Move, { kind: "arc" }>): number {
  const [cx, cy] = move.centre;
  const a0 = Math.atan2(from[1] - cy, from[0] - cx);
  const a1 = Math.atan2(move.to[1] - cy, move.to[0] - cx);
  let sweep = move.clockwise ? a0 - a1 : a1 - a0;
  sweep = ((sweep % TWO_PI) + TWO_PI) % TWO_PI;
  return sweep < 1e-9 ? TWO_PI : sweep;
}

/** A move's length from `from`: straight, or along the arc or helix. */
export function moveLength(from: Vec3, move: Exclude<Move, { kind: "drill" }>): number {
  const dz = move.to[2] - from[2];
  if (move.kind !== "arc") return Math.hypot(move.to[0] - from[0], move.to[1] - from[1], dz);
  const [cx, cy] = move.centre;
  // the mean of the start and end radii: equal for a well-formed arc
  const radius = (Math.hypot(from[0] - cx, from[1] - cy) + Math.hypot(move.to[0] - cx, move.to[1] - cy)) / 2;
  return Math.hypot(arcSweep(from, move) * radius, dz);
}

function feedSeconds(length: number, feed: number, operationId: string): number {
  if (!(feed > 0)) throw new RangeError(`${operationId}: a feed move has feed ${feed}`);
  return (length / feed) * 60;
}

/** Where an operation starts when nothing came before it with its tool: its first move's position at its clearance height. */
export function firstPosition(operation: Operation): Vec3 {
  const first = operation.moves[0];
  if (!first) return [0, 0, operation.clearance_z];
  if (first.kind === "drill") {
    const at = first.at[0] ?? [0, 0];
    return [at[0], at[1], operation.clearance_z];
  }
  return [first.to[0], first.to[1], operation.clearance_z];
}

/** An operation's time on `machine`, from `from` (default: its own first position). */
export function operationTime(
  operation: Operation,
  machine: MachineArchetype,
  from: Vec3 = firstPosition(operation),
): OperationTime {
  const t: OperationTime = {
    operation_id: operation.id,
    assembly_uuid: operation.tool.assembly_uuid,
    feed_length_mm: 0,
    rapid_length_mm: 0,
    cutting_s: 0,
    rapid_s: 0,
    dwell_s: 0,
    total_s: 0,
    end: from,
  };
  let here = from;
  const step = (move: Exclude<Move, { kind: "drill" }>) => {
    const length = moveLength(here, move);
    if (move.kind === "rapid") t.rapid_length_mm += length;
    else {
      t.feed_length_mm += length;
      t.cutting_s += feedSeconds(length, move.feed, operation.id);
    }
    here = move.to;
  };
  for (const move of operation.moves) {
    if (move.kind !== "drill") {
      step(move);
      continue;
    }
    for (const expanded of expandDrillCycle(move, here)) {
      if (expanded.kind === "dwell") t.dwell_s += expanded.seconds;
      else step(expanded);
    }
  }
  t.rapid_s = (t.rapid_length_mm / machine.rapid_mm_min) * 60;
  t.total_s = t.cutting_s + t.rapid_s + t.dwell_s;
  t.end = here;
  return t;
}

/** Tool changes of a sequence of operations: the first tool, then each change of assembly. */
export function toolChanges(operations: readonly Operation[]): number {
  return operations.filter(
    (op, i) => i === 0 || op.tool.assembly_uuid !== (operations[i - 1] as Operation).tool.assembly_uuid,
  ).length;
}

/** A setup's time: its operations in order and its tool changes. */
export function setupMachiningTime(operations: readonly Operation[], machine: MachineArchetype): SetupTime {
  const times: OperationTime[] = [];
  operations.forEach((op, i) => {
    const previous = times[i - 1];
    const sameTool = previous !== undefined && previous.assembly_uuid === op.tool.assembly_uuid;
    times.push(sameTool ? operationTime(op, machine, previous.end) : operationTime(op, machine));
  });
  const changes = toolChanges(operations);
  const toolChangeS = changes * machine.tool_change_s;
  return {
    operations: times,
    tool_changes: changes,
    tool_change_s: toolChangeS,
    total_s: times.reduce((sum, t) => sum + t.total_s, 0) + toolChangeS,
  };
}

/** Seconds as shown: to 0.1 s. Only where a number leaves the kernel; sums use the unrounded values. */
export function displaySeconds(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
