/**
 * Getting down into a closed region (no air to descend in at the level): a helix, else a ramp,
 * else a straight plunge, else nothing (the region is skipped and reported).
 *
 * - Helix: about the point of the region furthest from its edge, a centre-path diameter of
 *   0.9 D down to 0.5 D (so no core is left standing in the middle), at HELIX_ANGLE_DEG, starting
 *   APPROACH_MM above the material and ending with a full flat turn at the level. Arcs are
 *   emitted as half turns (G2/G3 with z changing).
 * - Ramp: the longest straight centre line through that point inside the region (8 directions
 *   tried), at least RAMP_MIN_LENGTH_D x D, used up to RAMP_MAX_LENGTH_D x D, zig-zagging down at
 *   RAMP_ANGLE_DEG, then one flat pass each way at the level.
 * - Plunge: only for centre-cutting tools, and only PLUNGE_MAX_DEPTH_D x D deep at most (the
 *   depth from the material top to the level): a drilling cut with chips packed under the tool.
 *
 * Both the helix and the ramp also suit non-centre-cutting tools at these angles: the dead zone
 * in the middle of the end face meets no more than its radius x tan(angle) of material.
 */
import type { Cutter, CuttingParameters, Move, Vec2, Vec3 } from "../types.ts";
import { APPROACH_MM } from "./linking.ts";
import {
  area,
  clipOpen,
  components,
  contains,
  disk,
  distanceToBoundary,
  isEmpty,
  offset,
  pathOf,
  pathLength,
  vecOf,
  COARSE_TOLERANCE_MM,
  type Path64,
  type Paths64,
} from "./polygons.ts";

export const HELIX_ANGLE_DEG = 2.5;
export const RAMP_ANGLE_DEG = 2.5;
export const HELIX_MAX_DIAMETER_D = 0.9;
export const HELIX_MIN_DIAMETER_D = 0.5;
export const RAMP_MIN_LENGTH_D = 0.5;
export const RAMP_MAX_LENGTH_D = 2;
export const PLUNGE_MAX_DEPTH_D = 0.25;
/** how close to the region's edge the entry's centre path may come */
const EDGE_MARGIN_MM = 0.01;

export interface Entry {
  kind: "helix" | "ramp" | "plunge";
  /** above the material: the tool comes straight down to it */
  start: Vec3;
  moves: Move[];
  /** the centre path at the level (a circle, a segment or a point) */
  path: Path64;
  end: Vec3;
}

export interface EntrySpec {
  /** the closed region (tool centre) */
  region: Paths64;
  z: number;
  cutter: Cutter;
  parameters: CuttingParameters;
  /** highest material over an area */
  topOver: (area: Paths64) => number;
}

export type EntryResult = { entry: Entry; reason: null } | { entry: null; reason: string };

export function planEntry(spec: EntrySpec): EntryResult {
  const { region, z, cutter } = spec;
  const d = cutter.diameter;
  const deepest = deepestPoint(region);
  if (deepest === null) return { entry: null, reason: "the region is too thin to enter" };
  const room = deepest.clearance - EDGE_MARGIN_MM;
  const minHelix = (HELIX_MIN_DIAMETER_D * d) / 2;
  if (room >= minHelix) {
    const radius = Math.min((HELIX_MAX_DIAMETER_D * d) / 2, room);
    return { entry: helix(spec, deepest.point, radius), reason: null };
  }
  const line = longestLine(region, deepest.point);
  const minRamp = RAMP_MIN_LENGTH_D * d;
  if (line !== null && line.length >= minRamp) return { entry: ramp(spec, line.a, line.b), reason: null };
  const top = Math.max(spec.topOver(pointDisk(deepest.point, d / 2)), z);
  const depth = top - z;
  const plungeLimit = PLUNGE_MAX_DEPTH_D * d;
  if (cutter.centre_cutting && depth <= plungeLimit + 1e-9)
    return { entry: plunge(spec, deepest.point, top), reason: null };
  const lacks = `no room for a helix (${(2 * minHelix).toFixed(2)} mm centre-path diameter, ${(2 * Math.max(0, room)).toFixed(2)} mm fits) or a ramp (${minRamp.toFixed(2)} mm straight, ${(line?.length ?? 0).toFixed(2)} mm fits)`;
  const plungeWhy = cutter.centre_cutting
    ? `a plunge would be ${depth.toFixed(2)} mm deep (at most ${plungeLimit.toFixed(2)} mm)`
    : `${cutter.name} is not centre cutting, so it cannot plunge`;
  return { entry: null, reason: `closed region: ${lacks}, and ${plungeWhy}` };
}

function pointDisk(p: Vec2, radius: number): Paths64 {
  return disk(p, radius);
}

/**
 * The point of the region furthest from its edge (within 1 %), found by shrinking the region
 * until it vanishes, with its distance to the edge (measured on the region itself). The shrunk
 * regions only guide the search: their arcs are coarse (COARSE_TOLERANCE_MM: 2.4 times fewer
 * vertices on an arc than the fine tolerance), at each of up to 14 steps over a whole pocket.
 */
export function deepestPoint(region: Paths64): { point: Vec2; clearance: number } | null {
  if (isEmpty(region)) return null;
  let lo = 0;
  let hi = Math.sqrt(Math.abs(area(region)) / Math.PI) + 1e-3;
  let inner: Paths64 = region;
  for (let i = 0; i < 14 && hi - lo > Math.max(1e-3, 0.005 * hi); i += 1) {
    const mid = (lo + hi) / 2;
    const shrunk = offset(region, -mid, COARSE_TOLERANCE_MM);
    if (isEmpty(shrunk, 1e-8)) hi = mid;
    else {
      lo = mid;
      inner = shrunk;
    }
  }
  // the largest piece of what is left: its centroid, or a vertex when the centroid falls outside
  const pieces = components(inner).sort((a, b) => area(b) - area(a));
  const piece = pieces[0];
  if (piece === undefined) return null;
  const candidates = [centroid(piece), ...(piece[0] ?? []).map(vecOf)];
  let best: { point: Vec2; clearance: number } | null = null;
  for (const c of candidates.slice(0, 64)) {
    if (c === null || !contains(region, c)) continue;
    const clearance = distanceToBoundary(region, c);
    if (best === null || clearance > best.clearance) best = { point: c, clearance };
  }
  return best;
}

function centroid(region: Paths64): Vec2 | null {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (const path of region) {
    for (let i = 0; i < path.length; i += 1) {
      const p = path[i] as { x: number; y: number };
      const q = path[(i + 1) % path.length] as { x: number; y: number };
      const cross = p.x * q.y - q.x * p.y;
      a += cross;
      cx += (p.x + q.x) * cross;
      cy += (p.y + q.y) * cross;
    }
  }
  if (a === 0) return null;
  return vecOf({ x: cx / (3 * a), y: cy / (3 * a) });
}

/** The longest straight centre line through p inside the region, over 8 directions. */
function longestLine(region: Paths64, p: Vec2): { a: Vec2; b: Vec2; length: number } | null {
  const shrunk = offset(region, -EDGE_MARGIN_MM);
  const reachMm = 1e4;
  let best: { a: Vec2; b: Vec2; length: number } | null = null;
  for (let k = 0; k < 8; k += 1) {
    const angle = (k * Math.PI) / 8;
    const dx = Math.cos(angle);
    const dy = Math.sin(angle);
    const line = pathOf([
      [p[0] - reachMm * dx, p[1] - reachMm * dy],
      [p[0] + reachMm * dx, p[1] + reachMm * dy],
    ]);
    for (const piece of clipOpen([line], shrunk, "inside")) {
      const a = vecOf(piece[0] as { x: number; y: number });
      const b = vecOf(piece[piece.length - 1] as { x: number; y: number });
      // the piece through p
      const t = (p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1]);
      const l2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2;
      if (t < -1e-6 || t > l2 + 1e-6) continue;
      const length = pathLength(piece);
      if (best === null || length > best.length) best = { a, b, length };
    }
  }
  return best;
}

function helix(spec: EntrySpec, centre: Vec2, radius: number): Entry {
  const { z, parameters } = spec;
  const top = Math.max(spec.topOver(pointDisk(centre, radius + spec.cutter.diameter / 2)), z);
  const startZ = top + APPROACH_MM;
  const slope = Math.tan((HELIX_ANGLE_DEG * Math.PI) / 180);
  // total angle turned while descending, counter-clockwise (climb in a pocket)
  const turn = (startZ - z) / (radius * slope);
  const at = (angle: number): Vec2 => [centre[0] + radius * Math.cos(angle), centre[1] + radius * Math.sin(angle)];
  const start = at(0);
  const moves: Move[] = [];
  const halfTurns = Math.max(1, Math.ceil(turn / Math.PI));
  for (let i = 1; i <= halfTurns; i += 1) {
    const angle = (turn * i) / halfTurns;
    const p = at(angle);
    moves.push({
      kind: "arc",
      to: [p[0], p[1], startZ - ((startZ - z) * i) / halfTurns],
      centre,
      clockwise: false,
      feed: parameters.plunge_feed_mm_min,
    });
  }
  // a flat turn at the level: the helix leaves a sloped bottom
  for (let i = 1; i <= 2; i += 1) {
    const p = at(turn + i * Math.PI);
    moves.push({ kind: "arc", to: [p[0], p[1], z], centre, clockwise: false, feed: parameters.feed_mm_min });
  }
  const circle: Path64 = [];
  for (let i = 0; i <= 64; i += 1) circle.push(pathOf([at((2 * Math.PI * i) / 64)])[0] as { x: number; y: number });
  const last = at(turn + 2 * Math.PI);
  const end: Vec3 = [last[0], last[1], z];
  return { kind: "helix", start: [start[0], start[1], startZ], moves, path: circle, end };
}

function ramp(spec: EntrySpec, a: Vec2, b: Vec2): Entry {
  const { z, parameters, cutter } = spec;
  // centred on the line's middle, at most RAMP_MAX_LENGTH_D x D long
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const use = Math.min(length, RAMP_MAX_LENGTH_D * cutter.diameter);
  const mid: Vec2 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  const ux = (b[0] - a[0]) / length;
  const uy = (b[1] - a[1]) / length;
  const p: Vec2 = [mid[0] - (ux * use) / 2, mid[1] - (uy * use) / 2];
  const q: Vec2 = [mid[0] + (ux * use) / 2, mid[1] + (uy * use) / 2];
  const segment = pathOf([p, q]);
  const top = Math.max(spec.topOver(offset([segment], cutter.diameter / 2)), z);
  const startZ = top + APPROACH_MM;
  const drop = use * Math.tan((RAMP_ANGLE_DEG * Math.PI) / 180);
  const moves: Move[] = [];
  let zNow = startZ;
  let atP = true;
  while (zNow > z + 1e-9) {
    const target = atP ? q : p;
    const from = atP ? p : q;
    if (zNow - drop > z) {
      zNow -= drop;
      moves.push({ kind: "linear", to: [target[0], target[1], zNow], feed: parameters.plunge_feed_mm_min });
      atP = !atP;
    } else {
      // reach the level part way along, then finish the pass flat
      const f = (zNow - z) / drop;
      moves.push({
        kind: "linear",
        to: [from[0] + (target[0] - from[0]) * f, from[1] + (target[1] - from[1]) * f, z],
        feed: parameters.plunge_feed_mm_min,
      });
      moves.push({ kind: "linear", to: [target[0], target[1], z], feed: parameters.feed_mm_min });
      atP = !atP;
      zNow = z;
    }
  }
  // one flat pass back over the whole line: the ramp leaves a sloped bottom
  const back = atP ? q : p;
  const end: Vec3 = [back[0], back[1], z];
  moves.push({ kind: "linear", to: end, feed: parameters.feed_mm_min });
  return { kind: "ramp", start: [p[0], p[1], startZ], moves, path: segment, end };
}

function plunge(spec: EntrySpec, at: Vec2, top: number): Entry {
  const { z, parameters } = spec;
  const start: Vec3 = [at[0], at[1], top + APPROACH_MM];
  const end: Vec3 = [at[0], at[1], z];
  return {
    kind: "plunge",
    start,
    moves: [{ kind: "linear", to: end, feed: parameters.plunge_feed_mm_min }],
    path: [pathOf([at])[0] as { x: number; y: number }],
    end,
  };
}
