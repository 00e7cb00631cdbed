/**
 * Clearing one region at one level by offsets grown from the entry.
 *
 * "Free" is where the tool centre touches no material: the region minus the material grown by
 * the radius. Each pass is the boundary of where the tool takes at most a stepover (the region
 * minus the material grown by radius - stepover), where the tool still cuts: it is cut, the
 * material it sweeps taken away, and the next pass computed from what is really left (corners and
 * cusps included). So the cut grows from where the tool got in, a stepover at a time:
 *
 * - a region with air at the level (outside the stock, or cleared by an earlier operation) is
 *   cut from that air inwards: the tool comes down in the air and the passes work outside-in
 *   towards the part;
 * - a closed region (pocket) is entered with a helix, ramp or plunge (entry.ts) and cut from
 *   there outwards, inside-out, to its walls.
 *
 * Either way the engagement stays near one stepover (no full-width slotting beyond the entry),
 * corners and walls are picked up by the last passes, which run along the region's edge at the
 * exact offset, and the tool never has to enter material anywhere but at the entry. Passes keep
 * the free side on their left, the material on their right: climb milling with a clockwise
 * spindle.
 */
import type { Cutter, CuttingParameters, Move, Vec2, Vec3 } from "../types.ts";
import { planEntry } from "./entry.ts";
import { readingStep, readPass, resample, type PassReading } from "./full-width.ts";
import { xy, type Cut, type Heights } from "./linking.ts";
import type { SkippedRegion } from "./operation.ts";
import {
  area,
  bounds,
  clipOpen,
  clipToRect,
  closeLoop,
  contains,
  difference,
  differenceAll,
  intersection,
  isEmpty,
  nearestOnBoundary,
  offsetCoarse,
  offsetCovering,
  outlastsOpening,
  pathLength,
  pathOf,
  simplify,
  simplifyOpen,
  smoothInside,
  sweepCleared,
  sweepCoarse,
  union,
  vecOf,
  COARSE_TOLERANCE_MM,
  SCALE,
  type Path64,
  type Paths64,
} from "./polygons.ts";
import { CLEARANCE_MM } from "./regions.ts";
import { withoutSlotting } from "./slotting.ts";
import { thinChipMoves } from "./thin-chip.ts";
import { SLIVER_MM } from "./stock.ts";

/** touching material by less than this is free (more than the bookkeeping error, polygons.ts) */
const FRONT_TOLERANCE_MM = 0.025;
/** a pass that takes less material than this per mm of its length (mm²/mm) is not made */
const MIN_REMOVAL_MM = 0.01;
/** pieces shorter than this are dropped */
const MIN_PIECE_MM = 0.02;
/** a straight link may leave the allowed region by this much (a gouge far under 0.01 mm) */
export const LINK_TOLERANCE_MM = 0.001;
/** how far into the free area a piece's approach point is moved from its edge */
const NUDGE_MM = 3 * CLEARANCE_MM;
/** a feed link may shave material thinner than this (where it leaves a free spot that tight) */
const LINK_GRAZE_MM = 0.05;
/**
 * How much simplifying may move the material when it is grown to where the tool touches it
 * (polygons.ts: offsetCovering): a pass then reaches up to twice this farther into the air at
 * each end, and the tool comes down as much farther from the material. The material's boundary
 * is the arcs the cuts left, and every vertex on their inside grows a spike as long as the
 * stepover: at 0.01 mm this offset was a sixth of NIST STC-06's clearing (2.7 of 15.7 s CPU),
 * at 0.05 mm 1.2 s; the plan removed the same 98.36 %, its machining 191.3 min instead of 191.8.
 */
const TOUCHING_SLACK_MM = 0.05;
/**
 * The same for growing the material to where a pass runs (`reach`), which may not be larger than
 * the exact offset (a pass farther from the material leaves more of it): the material simplified
 * by this (every point of it then within this of the material) and grown by as much less, so
 * passes run up to twice this nearer the material, never farther.
 */
const REACH_SLACK_MM = 0.02;

export interface ClearSpec {
  z: number;
  /** the region to clear (tool centre), inside `allowed` */
  region: Paths64;
  /** where the tool centre may be at this level, grown by LINK_TOLERANCE_MM (for links) */
  allowedGrown: Paths64;
  /** stock at heights >= z when the level began */
  material: Paths64;
  cutter: Cutter;
  parameters: CuttingParameters;
  heights: Heights;
  /** where the tool is (XY), to start near it */
  from: Vec2 | null;
  /** the machine's max feed: passes are fed for their chip (thin-chip.ts); absent, at the cutting feed */
  max_feed_mm_min?: number;
}

export interface ClearResult {
  cuts: Cut[];
  /** the area the tool swept at this level */
  swept: Paths64;
  skipped: SkippedRegion | null;
  end: Vec2 | null;
}

/**
 * Clearing keeps the material left shrunk by SLIVER_MM, so slivers and necks thinner than twice
 * that (where two cuts meet) are gone: the first half of a morphological opening (stock.ts). The
 * second, growing back by SLIVER_MM, is added to the offsets that grow the material anyway.
 *
 * The material is shrunk once. A cut then takes its swept area grown by SLIVER_MM from the
 * shrunk material, which is the material cut and opened, shrunk: shrinking (A minus S) is
 * shrinking A minus S grown, and shrinking an opened A is shrinking A. Shrinking what was left
 * after every pass instead moved the boundaries no pass touched by SLIVER_MM a pass, and cutting
 * the material unshrunk kept every sliver (NIST STC-06: 2.6 times the material's vertices).
 */
function shrunkMaterial(material: Paths64): Paths64 {
  return offsetCoarse(material, -SLIVER_MM);
}

/** The shrunk material less what a cut swept (see shrunkMaterial). */
function cutFrom(shrunk: Paths64, swept: Paths64): Paths64 {
  return difference(shrunk, offsetCoarse(swept, SLIVER_MM));
}

export function clearRegion(spec: ClearSpec): ClearResult {
  const { z, cutter, parameters } = spec;
  // The region's edge is the part's keep-out, arcs within ARC_TOLERANCE_MM: every pass along it
  // carried those vertices, and sweeping a pass grows a spike at every vertex on the inside of
  // its bends. Smoothed inside by COARSE_TOLERANCE_MM (roughing leaves its allowance anyway):
  // NIST STC-06's clearing 12.8 to 10.7 s CPU, its passes' sweeps 3.4 to 1.4 s.
  const region = smoothInside(spec.region, COARSE_TOLERANCE_MM);
  const radius = cutter.diameter / 2;
  const inner = radius;
  const stepover = Math.min(parameters.stepover_mm, 0.95 * cutter.diameter);
  // With the material m (shrunk: shrunkMaterial): `reach` is the material grown by the radius
  // less a stepover, so the region outside it (`grown`) is where the tool takes at most a
  // stepover of material, and the boundary of that is the next pass; `touching` is the material
  // grown by the radius (less FRONT_TOLERANCE_MM), and `free`, the region outside it, where the
  // tool cuts nothing. Two offsets of the material per pass, since growing by a and then by b is
  // growing by a + b. `touching` may be a little large (polygons.ts: offsetCovering), `reach` may
  // not: passes farther from the material would leave more of it.
  const passes = (m: Paths64): { grown: Paths64; touching: Paths64; free: Paths64 } => {
    const reach = offsetCoarse(simplify(m, REACH_SLACK_MM), SLIVER_MM + radius - stepover - REACH_SLACK_MM);
    // grown by what simplifying may have taken off the material
    const touching = offsetCovering(
      reach,
      Math.max(stepover - FRONT_TOLERANCE_MM, stepover / 2) + 2 * REACH_SLACK_MM,
      TOUCHING_SLACK_MM,
    );
    return { grown: difference(region, reach), touching, free: difference(region, touching) };
  };
  const feed = parameters.feed_mm_min;
  // the material the tool reaches from the region by more than FRONT_TOLERANCE_MM: farther, it
  // places no pass and is not touched, and the band of it along every wall (in the allowance the
  // region keeps from the part) would be in every offset after
  let material = shrunkMaterial(intersection(spec.material, offsetCovering(region, radius - FRONT_TOLERANCE_MM)));
  const nothing: ClearResult = { cuts: [], swept: [], skipped: null, end: spec.from };
  if (isEmpty(material, 1e-4)) return nothing;

  const cuts: Cut[] = [];
  const sweeps: Paths64[] = [];
  let position = spec.from;
  let next = passes(material);
  let free = next.free;

  if (isEmpty(free, 1e-4)) {
    const entry = planEntry({ region, z, cutter, parameters, topOver: (a) => spec.heights.over(a) });
    if (entry.entry === null) {
      const at = vecOf(region[0]?.[0] ?? { x: 0, y: 0 });
      return { ...nothing, skipped: { z, at, area_mm2: area(region), reason: entry.reason } };
    }
    const swept = sweepCleared([entry.entry.path], radius);
    cuts.push({ start: entry.entry.start, moves: entry.entry.moves, swept });
    sweeps.push(swept);
    position = xy(entry.entry.end);
    material = cutFrom(material, swept);
    next = passes(material);
    // the entry's own path is free, however tight the region is round it
    free = union(next.free, intersection(sweepCoarse([entry.entry.path], 0.02), region));
  }

  const box = bounds(region);
  const span = Math.hypot(box.right - box.left, box.bottom - box.top) / SCALE;
  const guard = Math.ceil(span / stepover) * 8 + 50;
  let materialArea = area(material);
  let lastPath: Path64 | null = null;
  for (let pass = 0; pass < guard && !isEmpty(material, 1e-4); pass += 1) {
    const pieces = clipOpen(next.grown.map(closeLoop), next.touching, "inside").filter(
      (piece) => pathLength(piece) > MIN_PIECE_MM,
    );
    if (pieces.length === 0) break;
    const cutsBefore = cuts.length;
    const passMaterial = material;
    const passSweeps: Paths64[] = [];
    const left = [...pieces];
    while (left.length > 0) {
      const { index, path } = nearestPiece(left, position);
      left.splice(index, 1);
      const first = vecOf(path[0] as { x: number; y: number });
      const approach = approachPoint(first, free, spec.allowedGrown, stepover);
      if (approach === null) continue;
      const cutPath: Path64 = approach === first ? path : [...pathOf([approach]), ...path];
      const straight = sweepCleared([cutPath], radius);
      // what the pass had here (its other pieces seldom meet this one)
      const ahead = clipToRect(passMaterial, bounds(straight));
      // a piece along what is already cut (round-offset noise) would be cut again and again
      if (area(intersection(straight, ahead)) < MIN_REMOVAL_MM * pathLength(cutPath)) continue;
      // read on what it cuts: where it would slot at full width, loops or shallower runs
      // (slotting.ts); elsewhere each move fed for its chip (thin-chip.ts), when asked
      const reading = readPass(resample(simplifyOpen(cutPath).map(vecOf), readingStep(radius)), ahead, radius);
      const slotted = withoutSlotting({
        reading,
        material: ahead,
        allowed: spec.allowedGrown,
        radius,
        engagement: stepover,
        z,
        feed,
        depth: parameters.stepdown_mm,
        heights: spec.heights,
      });
      const swept = slotted === null ? straight : sweepCleared(slotted.swept, radius);
      // a piece the tool cannot feed to from where it is: first finish what is near (the next
      // pass there is computed from what is cut so far), so the far side costs one retract
      const previous = position;
      const before = [...passSweeps];
      const start: Vec3 = [approach[0], approach[1], z];
      const clear = (from: Vec2, to: Vec2): boolean =>
        linkIsClear(from, to, spec.allowedGrown, passMaterial, before, inner);
      const link = previous === null ? null : linkPath(previous, approach, lastPath, clear);
      if (link === null && previous !== null && cuts.length > cutsBefore) break;
      cuts.push({
        start,
        moves: slotted !== null ? slotted.moves : passMoves(reading, z, spec),
        swept,
        linkFrom: (from) => {
          if (previous !== null && from[0] === previous[0] && from[1] === previous[1])
            return link === null ? null : [...link.map((p): Vec3 => [p[0], p[1], z]), start];
          return clear(xy(from), approach) ? [start] : null;
        },
      });
      lastPath = slotted === null ? cutPath : slotted.path;
      passSweeps.push(swept);
      sweeps.push(swept);
      position = vecOf(cutPath[cutPath.length - 1] as { x: number; y: number });
    }
    if (cuts.length === cutsBefore) break;
    material = cutFrom(material, union(...passSweeps));
    next = passes(material);
    free = next.free;
    // no progress: what is left cannot be reached from here
    const remaining = area(material);
    if (remaining > materialArea - 1e-3) break;
    materialArea = remaining;
  }
  return { cuts, swept: union(...sweeps), skipped: null, end: position };
}

/** A pass that does not slot: its moves at the cutting feed, or each at its chip-thinned one when spec asks. */
function passMoves(reading: PassReading, z: number, spec: ClearSpec): Move[] {
  const feed = spec.parameters.feed_mm_min;
  if (spec.max_feed_mm_min === undefined)
    return reading.points
      .slice(1)
      .flatMap((p, i) =>
        reading.vertex[i + 1] === 1 ? [{ kind: "linear" as const, to: [p[0], p[1], z] as Vec3, feed }] : [],
      );
  return thinChipMoves(reading, z, { feed, diameter: spec.cutter.diameter, max_feed_mm_min: spec.max_feed_mm_min });
}

/** The piece starting nearest `from`; a closed piece is turned to start at its nearest vertex. */
function nearestPiece(pieces: Paths64, from: Vec2 | null): { index: number; path: Path64 } {
  if (from === null) return { index: 0, path: pieces[0] as Path64 };
  const fx = from[0] * SCALE;
  const fy = from[1] * SCALE;
  let best = { index: 0, vertex: 0, d2: Infinity };
  pieces.forEach((piece, index) => {
    const firstPoint = piece[0] as { x: number; y: number };
    const lastPoint = piece[piece.length - 1] as { x: number; y: number };
    const closed = firstPoint.x === lastPoint.x && firstPoint.y === lastPoint.y;
    const candidates = closed ? piece.length - 1 : 1;
    for (let v = 0; v < candidates; v += 1) {
      const p = piece[v] as { x: number; y: number };
      const d2 = (p.x - fx) ** 2 + (p.y - fy) ** 2;
      if (d2 < best.d2) best = { index, vertex: v, d2 };
    }
  });
  const piece = pieces[best.index] as Path64;
  if (best.vertex === 0) return { index: best.index, path: piece };
  const loop = piece.slice(0, piece.length - 1);
  const turned = [...loop.slice(best.vertex), ...loop.slice(0, best.vertex)];
  return { index: best.index, path: [...turned, turned[0] as { x: number; y: number }] };
}

/**
 * Where the tool comes down (or arrives) for a piece starting at p: p itself when it is free,
 * else the nearest free point from which a straight feed to p stays in the allowed region.
 */
function approachPoint(p: Vec2, free: Paths64, allowedGrown: Paths64, stepover: number): Vec2 | null {
  if (contains(free, p)) return p;
  const nearest = nearestOnBoundary(free, p);
  const candidates: Vec2[] = [nearest.point];
  const reach2 = (2 * stepover) ** 2 + nearest.distance2;
  for (const path of free) {
    for (const vertex of path) {
      const v = vecOf(vertex);
      if ((v[0] - p[0]) ** 2 + (v[1] - p[1]) ** 2 <= reach2) candidates.push(v);
    }
  }
  candidates.sort((a, b) => (a[0] - p[0]) ** 2 + (a[1] - p[1]) ** 2 - ((b[0] - p[0]) ** 2 + (b[1] - p[1]) ** 2));
  for (const c of candidates.slice(0, 40)) {
    if (!segmentInside(c, p, allowedGrown)) continue;
    // a little further into the free area, where the tool may come down without grazing the
    // material whose edge c touches (the linking's rapids keep CLEARANCE_MM from it)
    const d = Math.hypot(c[0] - p[0], c[1] - p[1]);
    if (d > 0) {
      const nudged: Vec2 = [c[0] + ((c[0] - p[0]) / d) * NUDGE_MM, c[1] + ((c[1] - p[1]) / d) * NUDGE_MM];
      if (contains(free, nudged) && segmentInside(nudged, p, allowedGrown)) return nudged;
    }
    return c;
  }
  return null;
}

function segmentInside(a: Vec2, b: Vec2, allowedGrown: Paths64): boolean {
  if (a[0] === b[0] && a[1] === b[1]) return contains(allowedGrown, a);
  const segment = pathOf([a, b]);
  // only the region around the segment matters (and clipping to a box is cheap)
  const box = bounds([segment]);
  const margin = Math.round(SCALE * 0.01);
  const near = clipToRect(allowedGrown, {
    left: box.left - margin,
    top: box.top - margin,
    right: box.right + margin,
    bottom: box.bottom + margin,
  });
  const outside = clipOpen([segment], near, "outside");
  return outside.every((piece) => pathLength(piece) < LINK_TOLERANCE_MM);
}

/** How far back along the last pass a link may go, as a multiple of the straight distance. */
const BACK_LINK_FACTOR = 3;
const BACK_LINK_MIN_MM = 10;
const BACK_LINK_TRIES = 12;

/**
 * Points to feed through (before b) from a to b, or null: straight when that is clear, else back
 * along the pass just cut (which is cut, so free) to the first of its points from which the
 * straight line to b is clear.
 */
function linkPath(a: Vec2, b: Vec2, lastPath: Path64 | null, clear: (from: Vec2, to: Vec2) => boolean): Vec2[] | null {
  if (clear(a, b)) return [];
  if (lastPath === null || lastPath.length < 2) return null;
  const direct = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const limit = Math.max(BACK_LINK_MIN_MM, BACK_LINK_FACTOR * direct);
  // the pass's points walking back from its end, tried BACK_LINK_TRIES times along the way
  const back: Vec2[] = [];
  let walked = 0;
  let previous = vecOf(lastPath[lastPath.length - 1] as { x: number; y: number });
  if (previous[0] !== a[0] || previous[1] !== a[1]) return null;
  const spacing = limit / BACK_LINK_TRIES;
  let next = spacing;
  for (let i = lastPath.length - 2; i >= 0 && walked <= limit; i -= 1) {
    const p = vecOf(lastPath[i] as { x: number; y: number });
    walked += Math.hypot(p[0] - previous[0], p[1] - previous[1]);
    back.push(p);
    previous = p;
    if (walked < next && i > 0) continue;
    next = walked + spacing;
    if (clear(p, b)) return back;
  }
  return null;
}

/** A straight feed from a to b at the level stays in bounds and cuts nothing still there. */
function linkIsClear(
  a: Vec2,
  b: Vec2,
  allowedGrown: Paths64,
  material: Paths64,
  cutSince: Paths64[],
  inner: number,
): boolean {
  if (!segmentInside(a, b, allowedGrown)) return false;
  const capsule = sweepCoarse([pathOf([a, b])], inner);
  const box = bounds(capsule);
  let hit = intersection(capsule, clipToRect(material, box));
  if (isEmpty(hit, 1e-6)) return true;
  const near = cutSince.map((swept) => clipToRect(swept, box)).filter((swept) => swept.length > 0);
  hit = differenceAll(hit, near);
  return isEmpty(hit, 1e-6) || !outlastsOpening(hit, LINK_GRAZE_MM / 2);
}
