/**
 * How close a setup's program, read back by rs274 (rs274.ts), brings its tools to the vise that
 * holds the setup (its workholding summary: jaws, supports and clamps as boxes in the setup's
 * frame), and whether the jaws close on what they grip (issue 35, "Done when").
 *
 * The program, not the plan, is judged: it is postprocessed for LinuxCNC and every canonical
 * motion rs274 reports is sampled at most SAMPLE_STEP_MM apart (arcs along the arc). Each tool is
 * a cylinder of its radius from its tip up, as the setup's tool table gives its diameter for the
 * T number in the spindle. The work offsets are put HOME_ABOVE_MM below machine zero, so the way
 * home (G53 G0 Z0) goes up as on a machine rather than to the work offset's zero.
 *
 * Two readings of "stays 1 mm plus the tool radius away from every box":
 * - the tool's solid: the cylinder stays 1 mm from the box, that is its tip at least 1 mm above
 *   the box's top, or its axis at least the radius + 1 mm from the box sideways (the margin is
 *   max(sideways gap - radius, tip - top) - 1);
 * - the literal one: the tool's tip point at least the radius + 1 mm from the box in space (the
 *   margin is that distance - radius - 1). It is stricter over a box: a flat tool passing 1.5 mm
 *   above a jaw keeps its solid 1.5 mm away, but its tip is nearer than radius + 1.
 * A negative margin is a sample that breaks the reading.
 */
import { toFrame } from "../../kernel/cam/frames.ts";
import { fixtureBoxes } from "../../kernel/cam/simulation/fixtures.ts";
import { distanceToBoxXY } from "../../kernel/math/box3.ts";
import type { Box3, Frame, Vec3 } from "../../kernel/cam/types.ts";
import type { CamPlan } from "../../kernel/job/plan.ts";
import { programText } from "./program-checks.ts";
import { type CanonicalMove, readRs274 } from "./rs274.ts";

/** the largest step between two sampled tool positions along a motion, mm */
export const SAMPLE_STEP_MM = 0.5;
/** the distance the tools must keep from the workholding, beyond their radius, mm */
export const CLEARANCE_MM = 1;
/** how far above the work offsets machine zero is put, mm */
export const HOME_ABOVE_MM = 500;

/** The tool positions along a motion, at most `step` apart, its start and end included. */
export function* sampled(move: CanonicalMove, step = SAMPLE_STEP_MM): Generator<Vec3> {
  const { from, to } = move;
  if (move.kind === "arc") {
    const [cx, cy] = move.centre;
    const radius = Math.hypot(from[0] - cx, from[1] - cy);
    const a0 = Math.atan2(from[1] - cy, from[0] - cx);
    const length = Math.hypot(Math.abs(move.sweep) * radius, to[2] - from[2]);
    const steps = Math.max(1, Math.ceil(length / step));
    for (let k = 0; k <= steps; k += 1) {
      const t = k / steps;
      const a = a0 + move.sweep * t;
      yield k === steps ? to : [cx + radius * Math.cos(a), cy + radius * Math.sin(a), from[2] + (to[2] - from[2]) * t];
    }
    return;
  }
  const length = Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]);
  const steps = Math.max(1, Math.ceil(length / step));
  for (let k = 0; k <= steps; k += 1) {
    const t = k / steps;
    yield k === steps
      ? to
      : [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t];
  }
}

/** how far `v` lies outside [lo, hi], 0 inside */
const outside = (v: number, lo: number, hi: number): number => Math.max(lo - v, 0, v - hi);

/** The margins of a tool of `radius` with its tip at `p` to `box` (both readings; negative: too near). */
export function margins(p: Vec3, radius: number, box: Box3): { solid: number; literal: number } {
  const dz = outside(p[2], box.min[2], box.max[2]);
  const sideways = distanceToBoxXY(box, p[0], p[1]);
  return {
    solid: Math.max(sideways - radius, p[2] - box.max[2]) - CLEARANCE_MM,
    literal: Math.hypot(sideways, dz) - radius - CLEARANCE_MM,
  };
}

/** The nearest a program came to the workholding under one reading: where, and by which motion. */
export interface Nearest {
  margin_mm: number;
  box: string;
  at: Vec3;
  tool: number;
  radius_mm: number;
  /** the operation's name (the program's comment before the motion) */
  operation: string;
  motion: { kind: CanonicalMove["kind"]; from: Vec3; to: Vec3; call: number };
}

export interface ProgramClearance {
  /** rs274's exit status and complaint: 0 and "" when it read the program to its end */
  status: number | null;
  complaint: string;
  motions: number;
  samples: number;
  /** motions before the first tool change (the way home), which carry no tool and are not judged */
  toolless: number;
  /** the nearest sample under each reading; null when there is no box or no motion */
  solid: Nearest | null;
  literal: Nearest | null;
  /** every motion with a sample that breaks the tool's-solid reading, its worst sample */
  breaking: Nearest[];
}

/** The setup's LinuxCNC program read back by rs274, and how near its tools come to the setup's workholding. */
export function programClearance(plan: CamPlan, setupIndex: number): ProgramClearance {
  const setup = plan.setups[setupIndex];
  if (setup === undefined) throw new RangeError(`no setup ${setupIndex}`);
  const radii = new Map(setup.tools.map((tool) => [tool.number, tool.diameter_mm / 2]));
  // the jaws, supports and clamps, named as the simulation names them ("fixed jaw", "parallel 1")
  const boxes = setup.workholding === undefined ? [] : fixtureBoxes(setup.workholding);
  const read = readRs274(programText(plan, setupIndex, "linuxcnc"), { workOffsetsBelowHomeMm: HOME_ABOVE_MM });
  const found: ProgramClearance = {
    status: read.status,
    complaint: read.complaint,
    motions: read.moves.length,
    samples: 0,
    toolless: 0,
    solid: null,
    literal: null,
    breaking: [],
  };
  for (const move of read.moves) {
    if (move.tool === null) {
      found.toolless += 1;
      continue;
    }
    const radius = radii.get(move.tool);
    if (radius === undefined) throw new Error(`${setup.name}: T${move.tool} is not in the setup's tools`);
    let worst: Nearest | null = null;
    for (const p of sampled(move)) {
      found.samples += 1;
      for (const { name, box } of boxes) {
        const m = margins(p, radius, box);
        const nearest = (margin_mm: number): Nearest => ({
          margin_mm,
          box: name,
          at: p,
          tool: move.tool as number,
          radius_mm: radius,
          operation: move.comment,
          motion: { kind: move.kind, from: move.from, to: move.to, call: move.call },
        });
        if (found.solid === null || m.solid < found.solid.margin_mm) found.solid = nearest(m.solid);
        if (found.literal === null || m.literal < found.literal.margin_mm) found.literal = nearest(m.literal);
        if (m.solid < 0 && (worst === null || m.solid < worst.margin_mm)) worst = nearest(m.solid);
      }
    }
    if (worst !== null) found.breaking.push(worst);
  }
  return found;
}

/** A jaw's contact with what it grips along the grip axis: the plane it closes on and what lies there. */
export interface JawContact {
  jaw: string;
  /** the jaw's face towards the work, along the grip axis (setup frame) */
  plane: number;
  /** the gripped faces' (or the stock's) distance from that plane: the largest of them, mm */
  gap_mm: number;
  /** how far the jaw and what it grips overlap in height, mm */
  height_mm: number;
}

/** the two jaws' faces towards the work along axis `a`: the jaw on the + side closes with its min */
function jawPlanes(jaws: Box3[], a: 0 | 1): { jaw: string; plane: number; side: 1 | -1 }[] {
  const centres = jaws.map((j) => (j.min[a] + j.max[a]) / 2);
  const middle = centres.reduce((s, c) => s + c, 0) / centres.length;
  return jaws.map((j, i) => {
    const side = (centres[i] as number) > middle ? 1 : -1;
    return { jaw: `jaw ${i + 1}`, plane: side > 0 ? j.min[a] : j.max[a], side };
  });
}

/** How each jaw of a setup gripping the stock touches the stock box's faces (setup frame). */
export function stockContacts(jaws: Box3[], gripAxis: "x" | "y", stock: Box3): JawContact[] {
  const a = gripAxis === "x" ? 0 : 1;
  return jawPlanes(jaws, a).map(({ jaw, plane, side }, i) => {
    const face = side > 0 ? stock.max[a] : stock.min[a];
    const box = jaws[i] as Box3;
    const height = Math.min(box.max[2], stock.max[2]) - Math.max(box.min[2], stock.min[2]);
    return { jaw, plane, gap_mm: Math.abs(plane - face), height_mm: height };
  });
}

/** A part's mesh in workpiece coordinates, each vertex with its B-rep face id. */
export interface FacedMesh {
  positions: ArrayLike<number>;
  faceIds: ArrayLike<number>;
}

/**
 * How each jaw of a setup gripping part faces touches them: every gripped face on the jaw's side
 * (its vertices' mean beyond the jaws' middle), turned into the setup frame, lies within gap_mm
 * of the jaw's plane. A jaw with no gripped face on its side has gap_mm Infinity.
 */
export function faceContacts(
  jaws: Box3[],
  gripAxis: "x" | "y",
  frame: Frame,
  mesh: FacedMesh,
  faces: readonly number[],
): JawContact[] {
  const a = gripAxis === "x" ? 0 : 1;
  const wanted = new Set(faces);
  const points = new Map<number, Vec3[]>();
  for (let v = 0; v < mesh.faceIds.length; v += 1) {
    const face = mesh.faceIds[v] as number;
    if (!wanted.has(face)) continue;
    const p: Vec3 = [
      mesh.positions[3 * v] as number,
      mesh.positions[3 * v + 1] as number,
      mesh.positions[3 * v + 2] as number,
    ];
    const list = points.get(face) ?? [];
    list.push(toFrame(frame, p));
    points.set(face, list);
  }
  const planes = jawPlanes(jaws, a);
  const middle = planes.reduce((s, p) => s + p.plane, 0) / planes.length;
  return planes.map(({ jaw, plane, side }, i) => {
    const box = jaws[i] as Box3;
    let gap = -Infinity;
    let low = Infinity;
    let high = -Infinity;
    for (const list of points.values()) {
      const mean = list.reduce((s, p) => s + p[a], 0) / list.length;
      if ((mean - middle) * side <= 0) continue;
      for (const p of list) {
        gap = Math.max(gap, Math.abs(p[a] - plane));
        low = Math.min(low, p[2]);
        high = Math.max(high, p[2]);
      }
    }
    const height = Math.min(box.max[2], high) - Math.max(box.min[2], low);
    return { jaw, plane, gap_mm: gap === -Infinity ? Infinity : gap, height_mm: height };
  });
}
