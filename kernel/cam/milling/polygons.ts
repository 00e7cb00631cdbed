/**
 * Planar regions for milling, on Clipper2: booleans and offsets in its C++ build
 * (native-clipper.ts), the linear helpers in its TypeScript port, both at a fixed scale of SCALE
 * integer units per millimetre (0.1 µm), so results are exact integers and repeatable. A region
 * is a Paths64 under the NonZero rule: outer loops counter-clockwise (y up), holes clockwise, as
 * Clipper returns them.
 *
 * Round offsets put their vertices on the true arc, so a polygonal offset lies inside the true
 * one by at most ARC_TOLERANCE_MM: that is the whole of the error budget toolpaths spend on
 * polygons (far below the 0.01 mm gouge tolerance and the 1e-3 mm wall test).
 */
import { Clipper, PointInPolygonResult, type Path64, type Paths64, type Rect64 } from "clipper2-ts";
import type { Vec2 } from "../types.ts";
import { booleanOp, clipOpenPaths, inflate, outersWithHoles, rectClipPaths } from "./native-clipper.ts";
import { ramerDouglasPeucker } from "./simplify.ts";

export type { Path64, Paths64, Rect64 };

/** integer units per millimetre */
export const SCALE = 1e4;
/** largest distance a polygonal round offset lies inside the true arc, where the part is concerned */
export const ARC_TOLERANCE_MM = 0.0005;
/**
 * The same for bookkeeping of material (what is cleared, where the tool is free), where vertex
 * counts decide the speed. Swept areas are grown by it (sweepCleared), so the material model is
 * never larger than the truth and never more than this smaller; offsets of material are inside
 * the true ones by at most this. A tool the model says is clear of material therefore grazes it
 * by at most 2 x COARSE + 2 x TIDY_MM = 0.008 mm, under the 0.01 mm the simulation counts.
 */
export const COARSE_TOLERANCE_MM = 0.003;
/** what tidy() may move a boundary */
export const TIDY_MM = 0.001;
const TIDY = TIDY_MM * SCALE;

export const toUnits = (mm: number): number => Math.round(mm * SCALE);
export const toMm = (units: number): number => units / SCALE;

export function pointOf(p: Vec2): { x: number; y: number } {
  return { x: toUnits(p[0]), y: toUnits(p[1]) };
}

export function vecOf(p: { x: number; y: number }): Vec2 {
  return [p.x / SCALE, p.y / SCALE];
}

export function pathOf(points: Vec2[]): Path64 {
  return points.map(pointOf);
}

/** An axis-aligned rectangle (mm). */
export function rectangle(min: Vec2, max: Vec2): Paths64 {
  return [pathOf([min, [max[0], min[1]], max, [min[0], max[1]]])];
}

export function union(...regions: Paths64[]): Paths64 {
  const all = regions.flat();
  if (all.length === 0) return [];
  return booleanOp("union", all, []);
}

export function difference(subject: Paths64, clip: Paths64): Paths64 {
  if (subject.length === 0) return [];
  if (clip.length === 0) return subject;
  return booleanOp("difference", subject, clip);
}

/**
 * The subject less all of `clips` in one boolean, not a union and then a difference: under the
 * NonZero rule, regions laid over one another cover their union (every region Clipper makes has
 * its outer loops one way round and its holes the other, so a point's winding counts the regions
 * it lies in). NIST STC-06's planner: unions 0.7 s of CPU instead of 2.8, all booleans 6.9 s
 * instead of 7.7.
 */
export function differenceAll(subject: Paths64, clips: readonly Paths64[]): Paths64 {
  return difference(subject, clips.flat());
}

export function intersection(subject: Paths64, clip: Paths64): Paths64 {
  if (subject.length === 0 || clip.length === 0) return [];
  return booleanOp("intersection", subject, clip);
}

/**
 * The region grown (positive mm) or shrunk (negative) with round joins.
 *
 * Loops the offset makes vanish are left out first (withoutVanishing): the result is the same,
 * and Clipper no longer sorts out the crossings of their collapsing edges, which grow with the
 * square of their vertex count (a bored hole of 120 chords inside a part's shadow grown by a
 * 10 mm tool's radius was most of the cost of the offset).
 */
export function offset(region: Paths64, mm: number, tolerance_mm = ARC_TOLERANCE_MM): Paths64 {
  if (region.length === 0) return [];
  if (mm === 0) return region;
  return inflate(withoutVanishing(outersFirst(region), mm, tolerance_mm), mm * SCALE, "polygon", tolerance_mm * SCALE);
}

/**
 * The region's loops, those wound as its outer loops first (the sign of its total area tells
 * which way that is). Clipper's offset, like withoutVanishing, reads a region's winding from the
 * first loop holding its lowest point; a union can return a hole that touches its outer loop
 * there, and when the hole came first the offset grew the region inside out (a NIST part's
 * shadow came back with no area).
 */
export function outersFirst(region: Paths64): Paths64 {
  if (region.length < 2) return region;
  const areas = region.map((path) => loopArea(path));
  const outerSign = Math.sign(areas.reduce((sum, a) => sum + a, 0)) || 1;
  const outers: Paths64 = [];
  const inners: Paths64 = [];
  for (const [i, path] of region.entries()) (Math.sign(areas[i] as number) === outerSign ? outers : inners).push(path);
  return inners.length === 0 || outers.length === 0 ? region : [...outers, ...inners];
}

/** how far growKeepOut's simplification may move a boundary; the slicer's shadows are simplified by as much */
export const KEEP_OUT_SIMPLIFY_MM = 0.0002;
/** what growKeepOut adds to the offset: its own simplification and the shadow's */
const KEEP_OUT_MARGIN_MM = 2 * KEEP_OUT_SIMPLIFY_MM;

/**
 * A keep-out: the region grown by `mm`, where the result may be a little larger than the exact
 * offset but never smaller (the part and the stock a tool must stay away from). The region is
 * first simplified (Ramer-Douglas-Peucker: no boundary point moves more than
 * KEEP_OUT_SIMPLIFY_MM) and grown by KEEP_OUT_MARGIN_MM more: its own simplification, and the
 * one the slicer's shadows (the usual input) went through.
 *
 * Why: a meshed part's shadow has vertices every few micrometres along its curves and 0.1 µm
 * zigzags where neighbouring triangles meet. Clipper joins every concave vertex with a spike back
 * to the vertex itself, as long as the offset, and the union that removes the spikes costs the
 * vertex count times the spikes crossing each scanline. Measured on a NIST part's shadow (2,100
 * vertices, grown by 5 mm): 310 ms exact, 84 ms simplified (1,480 vertices).
 */
export function growKeepOut(region: Paths64, mm: number, tolerance_mm = ARC_TOLERANCE_MM): Paths64 {
  if (region.length === 0 || !(mm > 0)) return offset(region, mm, tolerance_mm);
  return offset(simplify(region, KEEP_OUT_SIMPLIFY_MM), mm + KEEP_OUT_MARGIN_MM, tolerance_mm);
}

/**
 * The region's boundaries simplified (Ramer-Douglas-Peucker): no point moves more than `mm`.
 * Loops left with fewer than three points are dropped. The result may cross itself where two
 * boundaries were closer than `mm`; a union or offset sorts that out.
 */
export function simplify(region: Paths64, mm: number): Paths64 {
  return region.map((path) => ramerDouglasPeucker(path, mm * SCALE)).filter((path) => path.length >= 3);
}

/**
 * Inside the region and smoother: shrunk by `mm`, then simplified (Ramer-Douglas-Peucker) by
 * as much, so no point of the result lies outside the region, and a staircase of steps up to
 * about 1.4 x mm becomes its diagonal. For regions built from grid cells, whose every step corner
 * would otherwise be a vertex for each offset to grow a spike at, and for regions whose edges are
 * fine arcs where coarse ones do (clearing.ts).
 */
export function smoothInside(region: Paths64, mm: number): Paths64 {
  const simplified = simplify(offset(region, -mm, COARSE_TOLERANCE_MM), mm);
  return union(simplified);
}

/**
 * The region without the holes a growing offset by `mm` fills entirely: clockwise loops (as
 * Clipper returns holes) narrower than 2 x (mm - tolerance) across. Every point of such a hole is
 * less than mm - tolerance from its edge (its inscribed circle is at most half its bounding box's
 * narrower side), so the edges' offsets and the round joins, whose chords lie within the arc
 * tolerance of the true arcs, cover it. Islands inside a dropped hole are loops of their own and stay. A region wound the other way
 * round (its outermost loop clockwise) is read the other way round, as Clipper reads it.
 * Shrinking offsets are left as they are.
 */
export function withoutVanishing(region: Paths64, mm: number, tolerance_mm: number): Paths64 {
  if (!(mm > tolerance_mm) || region.length < 2) return region;
  // two units of rounding to spare
  const limit = 2 * (mm - tolerance_mm) * SCALE - 2;
  const holeSign = loopArea(outermost(region)) >= 0 ? -1 : 1;
  let kept: Paths64 | null = null;
  for (let i = 0; i < region.length; i += 1) {
    const path = region[i] as Path64;
    // the box first: it rules out most loops for less than their area costs
    const vanishes = narrowerThan(path, limit) && Math.sign(loopArea(path)) === holeSign;
    if (vanishes && kept === null) kept = region.slice(0, i);
    else if (!vanishes && kept !== null) kept.push(path);
  }
  return kept ?? region;
}

/** The loop holding the region's lowest point (an outer loop, whatever the winding). */
function outermost(region: Paths64): Path64 {
  let best = region[0] as Path64;
  let lowest = Infinity;
  for (const path of region) {
    for (const p of path) {
      if (p.y < lowest) {
        lowest = p.y;
        best = path;
      }
    }
  }
  return best;
}

function narrowerThan(path: Path64, limit: number): boolean {
  let left = Infinity,
    right = -Infinity,
    bottom = Infinity,
    top = -Infinity;
  for (const p of path) {
    if (p.x < left) left = p.x;
    if (p.x > right) right = p.x;
    if (p.y < bottom) bottom = p.y;
    if (p.y > top) top = p.y;
  }
  return right - left < limit || top - bottom < limit;
}

/** The area an open polyline sweeps with a disk of `radius` (round ends): what a tool clears. */
export function sweep(paths: Paths64, radius: number, tolerance_mm = ARC_TOLERANCE_MM): Paths64 {
  const pieces: Paths64 = [];
  const lines: Paths64 = [];
  for (const path of paths) {
    const first = path[0];
    if (first === undefined) continue;
    // a polyline that never leaves its first point sweeps a disk (Clipper drops it)
    if (path.every((p) => p.x === first.x && p.y === first.y)) pieces.push(...disk(vecOf(first), radius, tolerance_mm));
    else lines.push(path);
  }
  if (lines.length === 0) return union(pieces);
  const swept = inflate(lines, radius * SCALE, "round", tolerance_mm * SCALE);
  // Clipper's offset unites what it returns: only disks beside it need another union
  return pieces.length === 0 ? swept : union([...pieces, ...swept]);
}

/** A disk as a polygon whose vertices lie on the circle (so it is inside the true disk). */
export function disk(centre: Vec2, radius: number, tolerance_mm = ARC_TOLERANCE_MM): Paths64 {
  const r = radius * SCALE;
  if (!(r > 0)) return [];
  const steps = Math.max(8, Math.ceil(Math.PI / Math.acos(Math.max(-1, 1 - (tolerance_mm * SCALE) / r))));
  const cx = centre[0] * SCALE;
  const cy = centre[1] * SCALE;
  const path: Path64 = [];
  for (let i = 0; i < steps; i += 1) {
    const a = (2 * Math.PI * i) / steps;
    path.push({ x: Math.round(cx + r * Math.cos(a)), y: Math.round(cy + r * Math.sin(a)) });
  }
  return [path];
}

/**
 * Near-collinear vertices (within TIDY_MM of the line through their neighbours) dropped. Round
 * offsets of polygons that are themselves offsets add two vertices at every slight bend; without
 * this, repeated offsetting doubles the vertex count each time.
 */
export function tidy(region: Paths64): Paths64 {
  return Clipper.simplifyPaths(region, TIDY, true).filter((path) => path.length >= 3);
}

/** Material bookkeeping: a coarse offset, tidied. */
export function offsetCoarse(region: Paths64, mm: number): Paths64 {
  return tidy(offset(region, mm, COARSE_TOLERANCE_MM));
}

/** Material bookkeeping: a coarse sweep, tidied (inside the true one by at most COARSE). */
export function sweepCoarse(paths: Paths64, radius: number): Paths64 {
  return tidy(sweep(paths, radius, COARSE_TOLERANCE_MM));
}

/**
 * offsetCovering's simplification: a tool then counts as touching material up to twice this
 * sooner. Measured on 400 of NIST STC-06's clearing passes: growing the material to where the tool
 * touches it took 1.05 s instead of 2.05, and no fixture part's removal changed. Not for what
 * decides where a tool goes: clearing's passes 0.02 mm farther from the material left more of it
 * (partC 97.37 % removed instead of 97.44), and so did the keep-out of stock deeper than a depth
 * of cut (97.35 %).
 */
export const COVERING_SLACK_MM = 0.01;

/**
 * Material bookkeeping where more is harmless and less is not: the region grown by `mm` at least
 * (as offsetCoarse; its arcs within `tolerance_mm` of the true ones), and by at most 2 x `slack`
 * more. The region is simplified by `slack` first (Ramer-Douglas-Peucker) and grown by as much
 * more.
 *
 * Why: the material's boundary is the arcs of the cuts that made it, a vertex every fraction of a
 * millimetre, and growing it by about the radius of those arcs makes every vertex's round join
 * cross its neighbours' (Clipper's offset then sorts out crossings that grow with the square of
 * the vertices on each arc).
 */
export function offsetCovering(
  region: Paths64,
  mm: number,
  slack = COVERING_SLACK_MM,
  tolerance_mm = COARSE_TOLERANCE_MM,
): Paths64 {
  return tidy(offset(simplify(region, slack), mm + slack, tolerance_mm));
}

/**
 * What a tool of `radius` cleared along paths, for the material model: a coarse sweep of the
 * radius + COARSE, so it covers the true swept area and exceeds it by at most COARSE. (A sweep
 * inside the true one would leave crescents of phantom stock along every wall a pass touched,
 * which later passes at the same offset would take for material.)
 */
export function sweepCleared(paths: Paths64, radius: number): Paths64 {
  return tidy(sweep(paths, radius + COARSE_TOLERANCE_MM, COARSE_TOLERANCE_MM));
}

/**
 * Morphological opening: shrink then grow by `mm`, which drops slivers and necks thinner than
 * 2 mm wide and never adds area.
 */
export function open(region: Paths64, mm: number): Paths64 {
  return tidy(offset(tidy(offset(region, -mm)), mm));
}

/**
 * Whether the region's opening by `mm` (open) keeps anything: whether shrinking it by `mm` leaves
 * anything, since growing what is left back never empties it (and makes it at least a disk of
 * `mm`). Half the offsets of opening and testing.
 */
export function outlastsOpening(region: Paths64, mm: number): boolean {
  return !isEmpty(tidy(offset(region, -mm)), 0);
}

/**
 * A loop's signed area in square Clipper units: clipper2-ts's shoelace formula, the same sums in
 * the same order (so the same result to the last bit), with an index loop instead of its for-of.
 * In CPU profiles of NIST STC-06's planning, Clipper.area was 10.6 % of the samples, this 6 %.
 */
export function loopArea(path: Path64): number {
  const count = path.length;
  if (count < 3) return 0;
  let a = 0;
  let prev = path[count - 1] as { x: number; y: number };
  for (let i = 0; i < count; i += 1) {
    const pt = path[i] as { x: number; y: number };
    a += (prev.y + pt.y) * (prev.x - pt.x);
    prev = pt;
  }
  return a * 0.5;
}

export function area(region: Paths64): number {
  let units = 0;
  for (const path of region) units += loopArea(path);
  return units / (SCALE * SCALE);
}

export function isEmpty(region: Paths64, tolerance_mm2 = 1e-6): boolean {
  return region.length === 0 || Math.abs(area(region)) <= tolerance_mm2;
}

/** Open polylines (as paths) cut to what lies inside (`keep` "inside") or outside a region. */
export function clipOpen(paths: Paths64, region: Paths64, keep: "inside" | "outside"): Paths64 {
  if (paths.length === 0) return [];
  if (region.length === 0) return keep === "inside" ? [] : paths;
  return clipOpenPaths(paths, region, keep);
}

/** A closed loop as an open polyline that returns to its first point. */
export function closeLoop(path: Path64): Path64 {
  const first = path[0];
  return first === undefined ? [] : [...path, first];
}

export function pathLength(path: Path64): number {
  let length = 0;
  for (let i = 1; i < path.length; i += 1) {
    const a = path[i - 1] as { x: number; y: number };
    const b = path[i] as { x: number; y: number };
    length += Math.hypot(b.x - a.x, b.y - a.y);
  }
  return length / SCALE;
}

/** A region as its connected pieces, each an outer loop with its holes. */
export function components(region: Paths64): Paths64[] {
  if (region.length === 0) return [];
  return outersWithHoles(region);
}

/** The region's outer loops with their holes filled. */
export function fillHoles(region: Paths64): Paths64 {
  return union(region.filter((path) => loopArea(path) > 0));
}

export function bounds(region: Paths64): Rect64 {
  return Clipper.getBoundsPaths(region);
}

export function boundsOverlap(a: Rect64, b: Rect64): boolean {
  return a.left <= b.right && b.left <= a.right && a.top <= b.bottom && b.top <= a.bottom;
}

/** A rectangle (Clipper units) grown by `mm` on every side. */
export function expandRect(rect: Rect64, mm: number): Rect64 {
  const d = Math.ceil(mm * SCALE) + 1;
  return { left: rect.left - d, top: rect.top - d, right: rect.right + d, bottom: rect.bottom + d };
}

/**
 * The part of a region inside a rectangle (fast, for queries over a small area): Clipper2's
 * RectClip in its C++ build. clipper2-ts 2.0.1's RectClip64 drops a rectangle's corner when a
 * hole's only edge across it runs near another corner (a NIST FTC-10 stock layer: the hole came
 * back with half its area, so a query saw stock cleared where it was not, and a rest roughing came
 * down 1.6 mm into it); the C++ one clips it right (polygons.test.ts).
 */
export function clipToRect(region: Paths64, rect: Rect64): Paths64 {
  if (region.length === 0 || rect.right <= rect.left || rect.bottom <= rect.top) return [];
  // loops wholly beside the rectangle need not be copied into the WASM memory
  const near = region.filter((path) => boundsOverlap(bounds([path]), rect));
  return near.length === 0 ? [] : rectClipPaths(near, rect);
}

/** true when the point (mm) is inside the region or on its boundary. */
export function contains(region: Paths64, p: Vec2): boolean {
  return containsPoint(region, pointOf(p));
}

/** The same for a point in Clipper units (NonZero winding). */
export function containsPoint(region: Paths64, point: { x: number; y: number }): boolean {
  let winding = 0;
  for (const path of region) {
    const where = Clipper.pointInPolygon(point, path);
    if (where === PointInPolygonResult.IsOn) return true;
    if (where === PointInPolygonResult.IsInside) winding += loopArea(path) > 0 ? 1 : -1;
  }
  return winding > 0;
}

/** Distance (mm) from a point to the nearest edge of a region's loops. */
export function distanceToBoundary(region: Paths64, p: Vec2): number {
  return Math.sqrt(nearestOnBoundary(region, p).distance2);
}

/** The nearest point (mm) of a region's boundary to `p`, with its squared distance. */
export function nearestOnBoundary(region: Paths64, p: Vec2): { point: Vec2; distance2: number } {
  const px = p[0] * SCALE;
  const py = p[1] * SCALE;
  let best = Infinity;
  let bx = 0;
  let by = 0;
  for (const path of region) {
    const n = path.length;
    for (let i = 0; i < n; i += 1) {
      const a = path[i] as { x: number; y: number };
      const b = path[(i + 1) % n] as { x: number; y: number };
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / l2)) : 0;
      const qx = a.x + t * dx;
      const qy = a.y + t * dy;
      const d2 = (px - qx) ** 2 + (py - qy) ** 2;
      if (d2 < best) {
        best = d2;
        bx = qx;
        by = qy;
      }
    }
  }
  return { point: [bx / SCALE, by / SCALE], distance2: best / (SCALE * SCALE) };
}

/** Signed distance (mm) from a point to a region: negative inside. */
export function signedDistance(region: Paths64, p: Vec2): number {
  if (region.length === 0) return Infinity;
  const d = distanceToBoundary(region, p);
  return contains(region, p) ? -d : d;
}

/** Collinear and duplicate points dropped from an open polyline (its ends are kept). */
export function simplifyOpen(path: Path64): Path64 {
  if (path.length <= 2) return path;
  return Clipper.trimCollinear(Clipper.stripDuplicates(path, false), true);
}
