/**
 * An operation's moves as one polyline for drawing: the points the tool tip passes through, each
 * with the class of the move that reached it (rapid, feed, plunge, ramp, arc, drill) and the move
 * it came from. Arcs and helices become chords no further than ARC_CHORD_SAGITTA_MM from the arc;
 * drill cycles become the moves the simulation verified (../holes/cycles.ts).
 */
import { expandDrillCycle } from "../holes/cycles.ts";
import { arcSweep, firstPosition } from "../machining-time.ts";
import type { Move, Operation, Vec3 } from "../types.ts";

/** how far (mm) a chord may stray from its arc on screen */
export const ARC_CHORD_SAGITTA_MM = 0.01;
const MAX_CHORDS_PER_TURN = 180;

/** The class of the move that reached a point; START for an operation's first point. */
export const MOVE_CLASS = { start: 0, rapid: 1, feed: 2, plunge: 3, ramp: 4, arc: 5, drill: 6 } as const;
export type MoveClass = (typeof MOVE_CLASS)[keyof typeof MOVE_CLASS];

export interface Polyline {
  /** x, y, z of each point, in the setup's frame */
  positions: Float32Array;
  /** per point: the MOVE_CLASS of the move that reached it */
  classes: Uint8Array;
  /** per point: the index of the move (in operation.moves) that reached it; the first point: 0 */
  moves: Uint32Array;
}

/** Grows typed arrays as points come. */
class PointSink {
  positions = new Float32Array(3 * 1024);
  classes = new Uint8Array(1024);
  moves = new Uint32Array(1024);
  count = 0;

  push(at: Vec3, moveClass: MoveClass, move: number): void {
    if (this.count === this.classes.length) this.grow();
    const i = this.count;
    this.positions[3 * i] = at[0];
    this.positions[3 * i + 1] = at[1];
    this.positions[3 * i + 2] = at[2];
    this.classes[i] = moveClass;
    this.moves[i] = move;
    this.count += 1;
  }

  private grow(): void {
    const size = this.classes.length * 2;
    const positions = new Float32Array(3 * size);
    positions.set(this.positions);
    const classes = new Uint8Array(size);
    classes.set(this.classes);
    const moves = new Uint32Array(size);
    moves.set(this.moves);
    Object.assign(this, { positions, classes, moves });
  }

  done(): Polyline {
    return {
      positions: this.positions.slice(0, 3 * this.count),
      classes: this.classes.slice(0, this.count),
      moves: this.moves.slice(0, this.count),
    };
  }
}

/** A straight feed move's class: down without moving across is a plunge, down and across a ramp. */
function linearClass(from: Vec3, to: Vec3): MoveClass {
  if (to[2] < from[2] - 1e-6) {
    const across = Math.hypot(to[0] - from[0], to[1] - from[1]);
    return across < 1e-6 ? MOVE_CLASS.plunge : MOVE_CLASS.ramp;
  }
  return MOVE_CLASS.feed;
}

function arcPoints(from: Vec3, move: Extract<Move, { kind: "arc" }>, index: number, sink: PointSink): void {
  const [cx, cy] = move.centre;
  const radius = Math.hypot(from[0] - cx, from[1] - cy);
  const sweep = arcSweep(from, move);
  // the chord of angle a strays r(1 - cos(a/2)) from its arc
  const maxStep = radius > ARC_CHORD_SAGITTA_MM ? 2 * Math.acos(1 - ARC_CHORD_SAGITTA_MM / radius) : Math.PI;
  const steps = Math.max(
    1,
    Math.min(Math.ceil(sweep / maxStep), Math.ceil((sweep / (2 * Math.PI)) * MAX_CHORDS_PER_TURN)),
  );
  const a0 = Math.atan2(from[1] - cy, from[0] - cx);
  const sign = move.clockwise ? -1 : 1;
  const moveClass = move.to[2] < from[2] - 1e-6 ? MOVE_CLASS.ramp : MOVE_CLASS.arc;
  for (let s = 1; s < steps; s += 1) {
    const t = s / steps;
    const a = a0 + sign * sweep * t;
    sink.push(
      [cx + radius * Math.cos(a), cy + radius * Math.sin(a), from[2] + (move.to[2] - from[2]) * t],
      moveClass,
      index,
    );
  }
  sink.push(move.to, moveClass, index);
}

/** The operation's polyline, from `from` (default: its first position at its clearance height). */
export function operationPolyline(operation: Operation, from: Vec3 = firstPosition(operation)): Polyline {
  const sink = new PointSink();
  let here = from;
  sink.push(here, MOVE_CLASS.start, 0);
  operation.moves.forEach((move, index) => {
    switch (move.kind) {
      case "rapid":
        sink.push(move.to, MOVE_CLASS.rapid, index);
        here = move.to;
        break;
      case "linear":
        sink.push(move.to, linearClass(here, move.to), index);
        here = move.to;
        break;
      case "arc":
        arcPoints(here, move, index, sink);
        here = move.to;
        break;
      case "drill":
        for (const step of expandDrillCycle(move, here)) {
          if (step.kind === "dwell") continue;
          sink.push(step.to, step.kind === "rapid" ? MOVE_CLASS.rapid : MOVE_CLASS.drill, index);
          here = step.to;
        }
        break;
    }
  });
  return sink.done();
}
