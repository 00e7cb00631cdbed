/**
 * Trochoidal loops along a slot's centre line: D-shaped loops of radius r, each a half circle
 * ahead (counter-clockwise, an arc move: the material ahead on the tool's right, climb milling
 * with a clockwise spindle), a chord back through the loop's centre over what the half circle
 * cleared, and a step of s along the line to the next loop. Each half circle takes a crescent of
 * the slot: where the last one left off to s further on.
 *
 * The advance s is what holds the engagement: the tool's edge on a half circle of radius r
 * about c meets the envelope the last loop cleared, the circle of radius r + R about c - s, and
 * the engaged arc's width across the travel is largest near the loop's front, about
 * s · (R + r) / r for small s. loopAdvance finds the s whose largest width on the half circle is
 * the target, numerically (the arc and the envelope on LOOP_SAMPLES and EDGE_SAMPLES points).
 * Small loops advance little per loop but travel little too: per mm of slot the loops' path is
 * about (π + 2) · (R + r) / ae long, a little shorter for smaller loops, so r is what fits, up to
 * MAX_LOOP_D of the diameter (the advance is at most r: a longer step along the side would cut
 * ahead of the half circle).
 */
import type { Move, Vec2 } from "../types.ts";

/** the largest loop radius as a share of the tool's diameter */
export const MAX_LOOP_D = 0.25;
/** the smallest loop radius as a share of the diameter: narrower slots are cut in shallower passes (slotting.ts) */
export const MIN_LOOP_D = 0.05;
/** the advance holds the engagement this far under the target (the line's bends, the cells' measure) */
const ENGAGEMENT_MARGIN = 0.9;
const LOOP_SAMPLES = 36;
const EDGE_SAMPLES = 90;
/** the half circles' points for the swept area, at most this angle apart (a 1 mm loop: 0.4 µm inside the arc) */
const SWEEP_ANGLE = Math.PI / 36;

/**
 * The widest radial engagement (mm, across the travel) of a tool of `radius` on the half circle
 * of a loop of radius `loop` advanced `advance` from the last loop.
 */
export function loopEngagement(radius: number, loop: number, advance: number): number {
  const envelope = loop + radius;
  let widest = 0;
  for (let i = 0; i <= LOOP_SAMPLES; i += 1) {
    const theta = -Math.PI / 2 + (Math.PI * i) / LOOP_SAMPLES;
    const px = loop * Math.cos(theta);
    const py = loop * Math.sin(theta);
    // travel (counter-clockwise) and its left
    const tx = -Math.sin(theta);
    const ty = Math.cos(theta);
    let low = Infinity;
    let high = -Infinity;
    for (let k = 0; k <= EDGE_SAMPLES; k += 1) {
      const phi = -Math.PI / 2 + (Math.PI * k) / EDGE_SAMPLES;
      const c = Math.cos(phi);
      const s = Math.sin(phi);
      const qx = px + radius * (c * tx - s * ty);
      const qy = py + radius * (c * ty + s * tx);
      if ((qx + advance) ** 2 + qy ** 2 <= envelope * envelope) continue;
      const lateral = radius * s;
      low = Math.min(low, lateral);
      high = Math.max(high, lateral);
    }
    if (high > low) widest = Math.max(widest, high - low);
  }
  return widest;
}

/** The advance per loop (mm) whose engagement is the target (ENGAGEMENT_MARGIN under it), at most the loop's radius. */
export function loopAdvance(radius: number, loop: number, engagement: number): number {
  const key = `${radius} ${loop} ${engagement}`;
  let advance = advances.get(key);
  if (advance === undefined) {
    advance = solveAdvance(radius, loop, engagement);
    if (advances.size > 10_000) advances.clear();
    advances.set(key, advance);
  }
  return advance;
}

/** loopAdvance's answers: a plan asks the same few questions again and again */
const advances = new Map<string, number>();

function solveAdvance(radius: number, loop: number, engagement: number): number {
  const target = ENGAGEMENT_MARGIN * engagement;
  let low = 0;
  let high = loop;
  if (loopEngagement(radius, loop, high) <= target) return high;
  for (let i = 0; i < 24; i += 1) {
    const middle = (low + high) / 2;
    if (loopEngagement(radius, loop, middle) <= target) low = middle;
    else high = middle;
  }
  return low;
}

export interface Loops {
  /** from the line's start (where the tool is) to its end, at height z */
  moves: Move[];
  /** the tool centre's path, arcs as points, for the area swept */
  path: Vec2[];
}

/**
 * Loops of radius `loop` centred on `line`, `advance` apart, from the tool at `from` (inside the
 * first loop's reach) to `to` (inside the last one's), where the tool ends.
 */
export function trochoidLoops(spec: {
  from: Vec2;
  line: readonly Vec2[];
  to: Vec2;
  loop: number;
  advance: number;
  z: number;
  feed: number;
}): Loops {
  const { line, loop: r, advance, z, feed } = spec;
  const lengths = [0];
  for (let i = 1; i < line.length; i += 1)
    lengths.push((lengths[i - 1] as number) + dist(line[i - 1] as Vec2, line[i] as Vec2));
  const total = lengths[lengths.length - 1] as number;
  const stations: number[] = [];
  for (let at = 0; at < total - 1e-9; at += advance) stations.push(at);
  stations.push(total);
  const moves: Move[] = [];
  const path: Vec2[] = [spec.from];
  const to = (p: Vec2): void => {
    moves.push({ kind: "linear", to: [p[0], p[1], z], feed });
    path.push(p);
  };
  let segment = 1;
  for (const at of stations) {
    while (segment < line.length - 1 && (lengths[segment] as number) < at) segment += 1;
    const a = line[segment - 1] as Vec2;
    const b = line[segment] as Vec2;
    const length = dist(a, b);
    const t = length > 0 ? (at - (lengths[segment - 1] as number)) / length : 0;
    const c: Vec2 = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    const ex = length > 0 ? (b[0] - a[0]) / length : 1;
    const ey = length > 0 ? (b[1] - a[1]) / length : 0;
    const right: Vec2 = [c[0] + r * ey, c[1] - r * ex];
    const left: Vec2 = [c[0] - r * ey, c[1] + r * ex];
    to(right);
    moves.push({ kind: "arc", to: [left[0], left[1], z], centre: c, clockwise: false, feed });
    const from = Math.atan2(-ex, ey);
    const steps = Math.ceil(Math.PI / SWEEP_ANGLE);
    for (let k = 1; k <= steps; k += 1) {
      const angle = from + (Math.PI * k) / steps;
      path.push([c[0] + r * Math.cos(angle), c[1] + r * Math.sin(angle)]);
    }
    path[path.length - 1] = left;
    to(right);
  }
  to(line[line.length - 1] as Vec2);
  to(spec.to);
  return { moves, path };
}

function dist(a: Vec2, b: Vec2): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}
