/**
 * Wall passes: the tool centre along the part's shadow grown by exactly radius + allowance_xy
 * (allowance 0 for finishing: the flank touches the wall), at each level from the part's top to
 * the bottom, landing on every floor. Shared by wall finishing (every wall) and outer profile
 * contouring (the outer silhouette only).
 *
 * - Climb milling: each loop runs with the part on its right (clockwise around the outside,
 *   counter-clockwise inside pockets).
 * - A closed loop starts in the middle of its longest edge (or the next longest), is entered by a
 *   quarter-circle lead-in arc from the free side (tangent to the wall, radius 0.75, 0.5 or 0.25
 *   of the tool radius, the first that stays in the allowed region and starts where no material
 *   is), runs round, overlaps OVERLAP_MM past its start and leaves by a lead-out arc. A piece cut
 *   open starts at its start or a little further along.
 * - Parts of a loop the tool may not reach (shank or holder in the way, stock deeper than the
 *   stepdown above) are cut out of it; so are places where more than the engagement limit
 *   (the larger of the stepover and a quarter of the diameter) of stock is still there: a
 *   finishing tool does not slot through what roughing left, those places are reported; and,
 *   for wall finishing, the walls with no stock left on them (wall-stock.ts).
 */
import type { Move, OperationKind, Vec2, Vec3 } from "../types.ts";
import { LINK_TOLERANCE_MM } from "./clearing.ts";
import { zLevels } from "./levels.ts";
import { materialHeights, xy, type Cut } from "./linking.ts";
import {
  makeOperation,
  refusal,
  requestWriter,
  unusableTool,
  writtenOutcome,
  type MillingOutcome,
  type MillingRequest,
  type SkippedRegion,
} from "./operation.ts";
import {
  ARC_TOLERANCE_MM,
  COARSE_TOLERANCE_MM,
  clipOpen,
  closeLoop,
  contains,
  difference,
  fillHoles,
  isEmpty,
  offset,
  offsetCoarse,
  offsetCovering,
  pathLength,
  pathOf,
  simplifyOpen,
  sweepCleared,
  union,
  vecOf,
  type Path64,
  type Paths64,
} from "./polygons.ts";
import { CLEARANCE_MM, nearWindows, regionWithin, ShadowsAhead, workWindows } from "./regions.ts";
import { passesOverStock } from "./wall-stock.ts";
import type { ClearedLayer } from "./stock.ts";

export const OVERLAP_MM = 1;
const LEAD_RADII = [0.75, 0.5, 0.25];
/** loop pieces shorter than this are not worth a pass */
const MIN_WALL_PIECE_MM = 0.05;
/** edges a closed loop may start from */
const START_TRIES = 6;

export function wallPasses(request: MillingRequest, kind: OperationKind, outerOnly: boolean): MillingOutcome {
  const { part, tool, parameters } = request;
  const unusable = unusableTool(tool, parameters);
  if (unusable) return refusal(unusable);
  const radius = tool.diameter / 2;
  const allowance = parameters.allowance_xy_mm;
  const bottom = request.bottom_z ?? part.bottom_z;
  const top = Math.min(part.top_z, request.stock.highest());
  const levels = zLevels({
    top,
    bottom,
    floors: part.floors,
    stepdown: parameters.stepdown_mm,
    allowance_z: parameters.allowance_z_mm,
  });
  if (levels.length === 0) return refusal("no wall lies between the part's top and the bottom");
  const engagement = Math.max(parameters.stepover_mm, tool.diameter / 4);

  let stock = request.stock;
  let forgiving = request.stock;
  const writer = requestWriter(request);
  const cleared: ClearedLayer[] = [];
  const skipped: SkippedRegion[] = [];
  const shadows = new ShadowsAhead(part, tool, levels, allowance, parameters.stepdown_mm);
  // the pass the tool is at the end of
  let last: (WallPass & { end: Vec3 }) | null = null;
  for (const [i, z] of levels.entries()) {
    shadows.before(i);
    const shadow = part.shadow(z);
    if (shadow.length === 0) {
      shadows.decided(i, false);
      continue;
    }
    const walls = outerOnly ? fillHoles(shadow) : shadow;
    // the part on the right: Clipper's loops keep their region on the left, so turn them round
    // (grown by the arc tolerance as regions.ts does: the chords stay radius + allowance away)
    const material = stock.remainingAbove(z);
    // only where stock is left on the walls (a second, smaller finishing tool: the corners the
    // first could not reach)
    const outside = difference(material, shadow);
    const windows = workWindows(part, stock, tool, outside, z, allowance, request.focus);
    shadows.decided(i, windows === null || windows.length > 0);
    if (windows !== null && windows.length === 0) continue;
    const loops = (
      outerOnly
        ? offset(walls, radius + allowance + ARC_TOLERANCE_MM)
        : part.grownShadow(z, radius + allowance + ARC_TOLERANCE_MM)
    ).map((loop) => closeLoop([...loop].reverse()));
    const allowed = regionWithin(
      {
        part,
        stock,
        cutter: tool,
        z,
        allowance_xy: allowance,
        depth_of_cut: parameters.stepdown_mm,
        depth_stock: forgiving,
      },
      windows,
    );
    // computed whole and empty: no level below has room either (regions.ts: belowNothing)
    if (windows === null && isEmpty(allowed)) break;
    const allowedGrown = offset(allowed, LINK_TOLERANCE_MM);
    // the material that can reach the windows' tool positions
    const nearby = nearWindows(material, windows, radius + 1);
    const free = difference(allowed, offsetCovering(nearby, radius + CLEARANCE_MM));
    const freeGrown = offset(free, LINK_TOLERANCE_MM);
    let pieces = clipOpen(loops, allowedGrown, "inside");
    // a finisher after a larger one runs only where that one left stock (wall-stock.ts)
    if (!outerOnly) pieces = passesOverStock(pieces, part, outside, z, allowance, radius);
    const heavy = radius - engagement > 0 && nearby.length > 0 ? offsetCoarse(nearby, radius - engagement) : [];
    if (heavy.length > 0) {
      const light = clipOpen(pieces, heavy, "outside");
      const dropped = pathsLength(pieces) - pathsLength(light);
      if (dropped > MIN_WALL_PIECE_MM) {
        const at = firstPoint(clipOpen(pieces, heavy, "inside")) ?? [0, 0];
        skipped.push({
          z,
          at,
          area_mm2: 0,
          reason: `${dropped.toFixed(1)} mm of wall skipped: more than ${engagement.toFixed(2)} mm of stock is left there (rough or rest rough it first)`,
        });
      }
      pieces = light;
    }
    pieces = pieces.filter((piece) => pathLength(piece) > MIN_WALL_PIECE_MM);
    if (pieces.length === 0) continue;
    writer.heights = materialHeights(part, stock);
    const sweeps: Paths64[] = [];
    const unentered: { at: Vec2; length: number }[] = [];
    const left: WallPass[] = [];
    for (const piece of pieces) {
      const pass = wallPass(piece, { z, radius, allowedGrown, free, feed: parameters.feed_mm_min });
      if (pass !== null) left.push(pass);
      else unentered.push({ at: vecOf(piece[0] as { x: number; y: number }), length: pathLength(piece) });
    }
    while (left.length > 0) {
      // the pass starting nearest: from the level above, most often the same wall's (stay down)
      const pass = left.splice(nearestStart(left, writer.position), 1)[0] as WallPass;
      const before = last;
      const cut: Cut = {
        start: pass.start,
        moves: pass.moves,
        linkInAir: true,
        linkFrom: (from: Vec3) => {
          if (segmentIn(xy(from), xy(pass.start), freeGrown)) return [pass.start];
          // from the level above, back along the pass just cut there to its start, and down
          // beside it: the next level's pass on the same wall starts below that start
          if (before === null || !sameXy(from, before.end) || from[2] <= pass.start[2]) return null;
          return segmentIn(xy(before.start), xy(pass.start), freeGrown) ? [...backAlong(before), pass.start] : null;
        },
      };
      writer.append(cut);
      last = { ...pass, end: writer.position as Vec3 };
      sweeps.push(sweepCleared([pass.path], radius));
    }
    const first = unentered[0];
    if (first !== undefined) {
      const length = unentered.reduce((sum, piece) => sum + piece.length, 0);
      skipped.push({
        z,
        at: first.at,
        area_mm2: 0,
        reason: `${length.toFixed(1)} mm of wall in ${unentered.length} piece(s) skipped: no lead-in from free space fits, the pass would start in material`,
      });
    }
    if (sweeps.length > 0) {
      const layer = { z, area: union(...sweeps) };
      cleared.push(layer);
      stock = stock.withCleared([layer]);
      // the corner a pass leaves is exactly a radius from it: the next level's pass along the
      // same loop touches it there, which the depth-of-cut check must not take for a collision
      forgiving = forgiving.withCleared([
        { z, area: offsetCoarse(layer.area, CLEARANCE_MM + 2 * COARSE_TOLERANCE_MM) },
      ]);
    }
  }
  const label = kind === "contour" ? "Contouring the outer profile" : "Finishing walls";
  const operation = makeOperation(request, kind, `${label} with ${tool.name}`, writer.clearance_z, writer.moves);
  return writtenOutcome(
    operation,
    writer,
    { cleared, skipped },
    { failed: "no wall pass could be made", nothingNear: "no wall is within the tool's reach" },
  );
}

/** Where a level's wall passes run and may start. */
interface PassSpace {
  z: number;
  radius: number;
  /** where the tool centre may go, grown by LINK_TOLERANCE_MM */
  allowedGrown: Paths64;
  /** where it touches no material: lead-ins start there */
  free: Paths64;
  feed: number;
}

interface WallPass {
  start: Vec3;
  moves: Move[];
  /** the centre path (lead arcs as chords), for the area it sweeps */
  path: Path64;
}

/**
 * One wall piece with its lead-in and lead-out; null when no lead-in starts in free space.
 * A closed loop is tried from the middle of its longest edges in turn, an open piece from its
 * start and then a little further along each time (what is given up lies against stock the
 * lead-in could not start beside).
 */
function wallPass(piece: Path64, space: PassSpace): WallPass | null {
  const first = piece[0] as { x: number; y: number };
  const last = piece[piece.length - 1] as { x: number; y: number };
  if (first.x === last.x && first.y === last.y) {
    for (let rank = 0; rank < START_TRIES; rank += 1) {
      const points = startOnEdge(piece, rank).map(vecOf);
      const pass = passFrom([...points, ...overlap(points, OVERLAP_MM)], space);
      if (pass !== null) return pass;
    }
    return null;
  }
  const points = simplifyOpen(piece).map(vecOf);
  const length = pathLength(piece);
  for (const along of [0, 0.5, 1, 2, 4, 8, 16]) {
    if (length - along < MIN_WALL_PIECE_MM) break;
    const pass = passFrom(along === 0 ? points : trimStart(points, along), space);
    if (pass !== null) return pass;
  }
  return null;
}

function passFrom(points: Vec2[], space: PassSpace): WallPass | null {
  const { z, radius, allowedGrown, free, feed } = space;
  if (points.length < 2) return null;
  const s = points[0] as Vec2;
  const t0 = direction(s, points[1] as Vec2);
  const e = points[points.length - 1] as Vec2;
  const t1 = direction(points[points.length - 2] as Vec2, e);

  let leadIn: { start: Vec2; centre: Vec2; chord: Vec2[] } | null = null;
  for (const k of LEAD_RADII) {
    const arc = leadArc(s, t0, k * radius, "in");
    if (arc.chord.every((p) => contains(allowedGrown, p)) && contains(free, arc.start)) {
      leadIn = arc;
      break;
    }
  }
  const moves: Move[] = [];
  let start: Vec2 = s;
  const path: Vec2[] = [];
  if (leadIn !== null) {
    start = leadIn.start;
    path.push(...leadIn.chord);
    moves.push({ kind: "arc", to: [s[0], s[1], z], centre: leadIn.centre, clockwise: false, feed });
  } else if (!contains(free, s)) {
    return null;
  }
  for (let i = 1; i < points.length; i += 1) {
    const p = points[i] as Vec2;
    moves.push({ kind: "linear", to: [p[0], p[1], z], feed });
  }
  path.push(...points);
  for (const k of LEAD_RADII) {
    const arc = leadArc(e, t1, k * radius, "out");
    if (arc.chord.every((p) => contains(allowedGrown, p))) {
      const end = arc.chord[arc.chord.length - 1] as Vec2;
      moves.push({ kind: "arc", to: [end[0], end[1], z], centre: arc.centre, clockwise: false, feed });
      path.push(...arc.chord);
      break;
    }
  }
  return { start: [start[0], start[1], z], moves, path: pathOf(path) };
}

/**
 * A quarter circle turning left, tangent to the wall at p (direction t): "in" ends at p coming
 * from the free side, "out" starts at p and leaves to the free side. Both run counter-clockwise.
 */
function leadArc(p: Vec2, t: Vec2, r: number, way: "in" | "out"): { start: Vec2; centre: Vec2; chord: Vec2[] } {
  const left: Vec2 = [-t[1], t[0]];
  const centre: Vec2 = [p[0] + r * left[0], p[1] + r * left[1]];
  // angle of p seen from the centre, and the quarter turn before (in) or after (out) it
  const at = Math.atan2(p[1] - centre[1], p[0] - centre[0]);
  const from = way === "in" ? at - Math.PI / 2 : at;
  const chord: Vec2[] = [];
  for (let i = 0; i <= 16; i += 1) {
    const a = from + (Math.PI / 2) * (i / 16);
    chord.push([centre[0] + r * Math.cos(a), centre[1] + r * Math.sin(a)]);
  }
  return { start: chord[0] as Vec2, centre, chord };
}

/** A closed loop (first point repeated last) restarted in the middle of its rank-th longest edge. */
function startOnEdge(loop: Path64, rank: number): Path64 {
  const ring = simplifyOpen(loop.slice(0, loop.length - 1));
  const edges = ring.map((a, i) => {
    const b = ring[(i + 1) % ring.length] as { x: number; y: number };
    return { i, length: Math.hypot(b.x - a.x, b.y - a.y) };
  });
  edges.sort((p, q) => q.length - p.length);
  const best = (edges[Math.min(rank, edges.length - 1)] ?? { i: 0 }).i;
  const a = ring[best] as { x: number; y: number };
  const b = ring[(best + 1) % ring.length] as { x: number; y: number };
  const mid = { x: Math.round((a.x + b.x) / 2), y: Math.round((a.y + b.y) / 2) };
  const after = [...ring.slice(best + 1), ...ring.slice(0, best + 1)];
  return [mid, ...after, mid];
}

/** A polyline without its first `length` mm. */
function trimStart(points: Vec2[], length: number): Vec2[] {
  let left = length;
  for (let i = 1; i < points.length; i += 1) {
    const a = points[i - 1] as Vec2;
    const b = points[i] as Vec2;
    const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (d > left) return [[a[0] + ((b[0] - a[0]) * left) / d, a[1] + ((b[1] - a[1]) * left) / d], ...points.slice(i)];
    left -= d;
  }
  return [];
}

/** The first `length` mm of a polyline (which starts the loop again). */
function overlap(points: Vec2[], length: number): Vec2[] {
  const out: Vec2[] = [];
  let left = length;
  for (let i = 1; i < points.length && left > 0; i += 1) {
    const a = points[i - 1] as Vec2;
    const b = points[i] as Vec2;
    const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (d >= left) {
      out.push([a[0] + ((b[0] - a[0]) * left) / d, a[1] + ((b[1] - a[1]) * left) / d]);
      left = 0;
    } else {
      out.push(b);
      left -= d;
    }
  }
  return out;
}

/** The way back along a pass from its end to its start, at its level, as the tool swept it (lead arcs as their chords). */
function backAlong(pass: WallPass): Vec3[] {
  const z = pass.start[2];
  const points = pass.path.map((p) => vecOf(p)).reverse();
  return [...points.slice(1, -1).map((p): Vec3 => [p[0], p[1], z]), pass.start];
}

function sameXy(a: Vec3, b: Vec3): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

function direction(a: Vec2, b: Vec2): Vec2 {
  const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
  return d > 0 ? [(b[0] - a[0]) / d, (b[1] - a[1]) / d] : [1, 0];
}

/** The straight segment ab lies in the (already grown) region. */
function segmentIn(a: Vec2, b: Vec2, grown: Paths64): boolean {
  if (isEmpty(grown)) return false;
  const outside = clipOpen([pathOf([a, b])], grown, "outside");
  return pathsLength(outside) < LINK_TOLERANCE_MM;
}

function pathsLength(paths: Paths64): number {
  return paths.reduce((sum, path) => sum + pathLength(path), 0);
}

function firstPoint(paths: Paths64): Vec2 | null {
  const p = paths[0]?.[0];
  return p === undefined ? null : vecOf(p);
}

function nearestStart(passes: readonly WallPass[], from: Vec3 | null): number {
  if (from === null) return 0;
  let best = 0;
  let bestD = Infinity;
  passes.forEach((pass, index) => {
    const d = (pass.start[0] - from[0]) ** 2 + (pass.start[1] - from[1]) ** 2;
    if (d < bestD) {
      bestD = d;
      best = index;
    }
  });
  return best;
}
