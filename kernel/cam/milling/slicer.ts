/**
 * The part as a tool coming from +Z sees it: at each height, the XY shadow of all part material
 * above that height, where a tool tip at that height must not go. 2.5D milling needs nothing else
 * of the part (undercuts are invisible from +Z: the shadow covers them).
 *
 * shadow(z) is the union of the XY projections of every triangle's part above z. Every triangle
 * counts, up- and down-facing: material lies just below an up-facing triangle and just above a
 * down-facing one, so either way a triangle's part above z is material above z, and a soup whose
 * winding is wrong in places still gives the right shadow. Vertical triangles project to nothing
 * and are dropped; their neighbours' projections cover their edge.
 *
 * The shadows are computed from the top down and kept: shadow(z) is the nearest shadow above z
 * united with the projections of the band between, so a whole set of levels costs one pass over
 * the triangles per level. Triangles are clipped at z + SHADOW_EPSILON_MM: a face lying exactly
 * at z (a floor) is not above z, the tool tip may rest on it.
 */
import type { TriangleSoup } from "../types.ts";
import { outline } from "./outline.ts";
import { touchesRegion } from "./overlap.ts";
import { ARC_TOLERANCE_MM, bounds, clipToRect, expandRect, growSimplified, KEEP_OUT_MARGIN_MM, KEEP_OUT_SIMPLIFY_MM, offset, simplify, union, SCALE, type Path64, type Paths64, type Rect64 } from "./polygons.ts";

/** material less than this above a height counts as at the height (floors, float32 noise) */
export const SHADOW_EPSILON_MM = 1e-4;
/** horizontal faces closer in height than this are one floor */
const FLOOR_MERGE_MM = 1e-3;
/** cracks narrower than twice this between neighbouring projections are closed */
const CRACK_MM = 5e-4;
/** how far simplifying may move a shadow's boundary (polygons.ts: growKeepOut makes up for it) */
const SHADOW_SIMPLIFY_MM = KEEP_OUT_SIMPLIFY_MM;

export interface PartSlicer {
  /** the part's highest and lowest z */
  readonly top_z: number;
  readonly bottom_z: number;
  /** heights of up-facing horizontal faces, highest first (levels must land on them) */
  readonly floors: number[];
  /** XY shadow of the part material above z (what a tool tip at z must stay out of) */
  shadow(z: number): Paths64;
  /**
   * offset(shadow(z), mm, tolerance), kept: every operation of a setup grows the same shadows by
   * the same radii (the tool centre's keep-out, the wall passes, the holder's keep-out)
   */
  grownShadow(z: number, mm: number, tolerance_mm?: number): Paths64;
  /**
   * The same within a rectangle (Clipper units): the kept one clipped when there is one, else the
   * shadow near the rectangle grown (not kept: windows differ from call to call)
   */
  grownShadowWithin(z: number, mm: number, window: Rect64, tolerance_mm?: number): Paths64;
  /** XY extent of the up-facing horizontal faces at floor height z */
  floorArea(z: number): Paths64;
  /** the highest part z over a region, -Infinity when no part is over it (may be a little high) */
  topOver(region: Paths64): number;
}

interface Triangles {
  /** x, y, z of three corners per triangle, in float64 */
  corners: Float64Array;
  count: number;
  zmin: Float64Array;
  zmax: Float64Array;
}

export function createSlicer(soup: TriangleSoup): PartSlicer {
  const triangles = readTriangles(soup);
  const { top, bottom } = extent(triangles);
  const floors = floorHeights(triangles);
  const cache = new Map<number, Paths64>();
  // triangles by highest corner, highest first, for topOver
  const byTop = Array.from({ length: triangles.count }, (_, i) => i).sort((a, b) => (triangles.zmax[b] as number) - (triangles.zmax[a] as number));
  const projections = new Map<number, Path64>();
  const projection = (t: number): Path64 => {
    let path = projections.get(t);
    if (!path) {
      path = projectClipped(triangles, t, -Infinity, Infinity) ?? [];
      projections.set(t, path);
    }
    return path;
  };

  const shadow = (z: number): Paths64 => {
    const key = heightKey(z);
    const cached = cache.get(key);
    if (cached) return cached;
    if (key >= top) {
      cache.set(key, []);
      return [];
    }
    // the nearest computed shadow above: only the band between is new
    let above = Infinity;
    for (const z0 of cache.keys()) if (z0 > key && z0 < above) above = z0;
    const base = above === Infinity ? [] : (cache.get(above) as Paths64);
    const low = key + SHADOW_EPSILON_MM;
    const high = above === Infinity ? Infinity : above + SHADOW_EPSILON_MM;
    const pieces: Paths64 = [];
    for (let t = 0; t < triangles.count; t += 1) {
      if ((triangles.zmax[t] as number) <= low || (triangles.zmin[t] as number) >= high) continue;
      const piece = projectClipped(triangles, t, low, high);
      if (piece) pieces.push(piece);
    }
    let result = base;
    if (pieces.length > 0) {
      // the band's pieces as their outline (outline.ts): neighbours share their edges, and a
      // band of a NIST part's 24,000 slivers took Clipper 880 ms to unite as they were
      const merged = union(base, outline(pieces));
      // closing: fills the hairline cracks rounding leaves between neighbours. Simplified in
      // between: the 0.1 µm zigzags where neighbouring triangles meet made clipper2-ts 2.0.1
      // loop for good (fixSelfIntersects) uniting the next band with this shadow (NIST CTC-01)
      result = offset(simplify(offset(merged, CRACK_MM), SHADOW_SIMPLIFY_MM), -CRACK_MM);
    }
    cache.set(key, result);
    return result;
  };

  // each shadow simplified once for its keep-outs (polygons.ts growKeepOut): every operation
  // grows the same shadows by several radii (the tool, its neck, shank and holder)
  const simplified = new Map<number, Paths64>();
  const simplifiedShadow = (z: number): Paths64 => {
    const key = heightKey(z);
    let result = simplified.get(key);
    if (result === undefined) {
      result = simplify(shadow(z), KEEP_OUT_SIMPLIFY_MM);
      simplified.set(key, result);
    }
    return result;
  };
  /** growKeepOut(shadow(z), mm, tolerance), of the part within `near` only when given */
  const keepOut = (z: number, mm: number, tolerance_mm: number, near?: Rect64): Paths64 => {
    const within = (region: Paths64) => (near === undefined ? region : clipToRect(region, near));
    return mm > 0 ? growSimplified(within(simplifiedShadow(z)), mm, tolerance_mm) : offset(within(shadow(z)), mm, tolerance_mm);
  };

  const grown = new Map<string, Paths64>();
  const grownShadow = (z: number, mm: number, tolerance_mm = ARC_TOLERANCE_MM): Paths64 => {
    const key = `${heightKey(z)} ${mm} ${tolerance_mm}`;
    let result = grown.get(key);
    if (result === undefined) {
      result = keepOut(z, mm, tolerance_mm);
      grown.set(key, result);
    }
    return result;
  };

  const grownShadowWithin = (z: number, mm: number, window: Rect64, tolerance_mm = ARC_TOLERANCE_MM): Paths64 => {
    const kept = grown.get(`${heightKey(z)} ${mm} ${tolerance_mm}`);
    if (kept !== undefined) return clipToRect(kept, window);
    // all of the shadow that can reach into the window once grown (polygons.ts: expandRect)
    return clipToRect(keepOut(z, mm, tolerance_mm, expandRect(window, mm + tolerance_mm + KEEP_OUT_MARGIN_MM)), window);
  };

  const floorArea = (z: number): Paths64 => {
    const pieces: Paths64 = [];
    for (let t = 0; t < triangles.count; t += 1) {
      if (Math.abs((triangles.zmax[t] as number) - z) > FLOOR_MERGE_MM || Math.abs((triangles.zmin[t] as number) - z) > FLOOR_MERGE_MM) continue;
      if (signedArea(triangles, t) <= 0) continue;
      pieces.push(projection(t));
    }
    return pieces.length === 0 ? [] : offset(offset(union(outline(pieces)), CRACK_MM), -CRACK_MM);
  };

  // each triangle's XY box in Clipper units, widened to cover its rounded projection, in topOver's
  // order (highest first): its walk reads them one after another (in triangle order, a query over
  // a low corridor missed the cache on nearly every one of 100,000 boxes)
  const boxes = new Float64Array(4 * triangles.count);
  byTop.forEach((t, i) => {
    const c = triangles.corners;
    const o = 9 * t;
    const xs = [c[o] as number, c[o + 3] as number, c[o + 6] as number];
    const ys = [c[o + 1] as number, c[o + 4] as number, c[o + 7] as number];
    boxes.set([Math.floor(Math.min(...xs) * SCALE), Math.floor(Math.min(...ys) * SCALE), Math.ceil(Math.max(...xs) * SCALE), Math.ceil(Math.max(...ys) * SCALE)], 4 * i);
  });

  const topOver = (region: Paths64): number => {
    if (region.length === 0) return -Infinity;
    const box = bounds(region);
    for (let i = 0; i < byTop.length; i += 1) {
      const o = 4 * i;
      if ((boxes[o] as number) > box.right || (boxes[o + 2] as number) < box.left || (boxes[o + 1] as number) > box.bottom || (boxes[o + 3] as number) < box.top) continue;
      const t = byTop[i] as number;
      const path = projection(t);
      if (path.length < 3) continue;
      const near = { left: boxes[o] as number, top: boxes[o + 1] as number, right: boxes[o + 2] as number, bottom: boxes[o + 3] as number };
      if (touchesRegion(region, path, near)) return triangles.zmax[t] as number;
    }
    return -Infinity;
  };

  return { top_z: top, bottom_z: bottom, floors, shadow, grownShadow, grownShadowWithin, floorArea, topOver };
}

/** Heights closer than a nanometre share a cached shadow. */
const heightKey = (z: number): number => Math.round(z * 1e6) / 1e6;

function readTriangles(soup: TriangleSoup): Triangles {
  const count = Math.floor(soup.indices.length / 3);
  const corners = new Float64Array(count * 9);
  const zmin = new Float64Array(count);
  const zmax = new Float64Array(count);
  for (let t = 0; t < count; t += 1) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let v = 0; v < 3; v += 1) {
      const index = soup.indices[3 * t + v] as number;
      for (let k = 0; k < 3; k += 1) corners[9 * t + 3 * v + k] = soup.positions[3 * index + k] as number;
      const z = corners[9 * t + 3 * v + 2] as number;
      lo = Math.min(lo, z);
      hi = Math.max(hi, z);
    }
    zmin[t] = lo;
    zmax[t] = hi;
  }
  return { corners, count, zmin, zmax };
}

function extent(triangles: Triangles): { top: number; bottom: number } {
  let top = -Infinity;
  let bottom = Infinity;
  for (let t = 0; t < triangles.count; t += 1) {
    top = Math.max(top, triangles.zmax[t] as number);
    bottom = Math.min(bottom, triangles.zmin[t] as number);
  }
  return { top, bottom };
}

/** twice the projected (XY) area of a triangle: > 0 up-facing, < 0 down-facing, 0 vertical */
function signedArea(triangles: Triangles, t: number): number {
  const c = triangles.corners;
  const o = 9 * t;
  const ax = c[o] as number;
  const ay = c[o + 1] as number;
  return ((c[o + 3] as number) - ax) * ((c[o + 7] as number) - ay) - ((c[o + 4] as number) - ay) * ((c[o + 6] as number) - ax);
}

function floorHeights(triangles: Triangles): number[] {
  const byHeight = new Map<number, number>();
  const c = triangles.corners;
  for (let t = 0; t < triangles.count; t += 1) {
    const lo = triangles.zmin[t] as number;
    const hi = triangles.zmax[t] as number;
    if (hi - lo > 1e-5) continue;
    // up-facing and horizontal: the normal's z is its full length
    const o = 9 * t;
    const ux = (c[o + 3] as number) - (c[o] as number);
    const uy = (c[o + 4] as number) - (c[o + 1] as number);
    const vx = (c[o + 6] as number) - (c[o] as number);
    const vy = (c[o + 7] as number) - (c[o + 1] as number);
    const twiceArea = ux * vy - uy * vx;
    if (!(twiceArea > 1e-9)) continue;
    const z = (lo + hi) / 2;
    byHeight.set(z, (byHeight.get(z) ?? 0) + twiceArea / 2);
  }
  const heights = [...byHeight.keys()].sort((a, b) => b - a);
  const merged: number[] = [];
  for (const z of heights) {
    const last = merged[merged.length - 1];
    if (last === undefined || last - z > FLOOR_MERGE_MM) merged.push(z);
  }
  return merged;
}

/**
 * The XY projection of the part of triangle t between heights low and high, counter-clockwise,
 * in Clipper units; null when it has no area. Edge crossings are computed from the edge's
 * endpoints in a fixed order, so two triangles sharing an edge get the same crossing point.
 */
function projectClipped(triangles: Triangles, t: number, low: number, high: number): Path64 | null {
  const c = triangles.corners;
  const o = 9 * t;
  let polygon: [number, number, number][] = [
    [c[o] as number, c[o + 1] as number, c[o + 2] as number],
    [c[o + 3] as number, c[o + 4] as number, c[o + 5] as number],
    [c[o + 6] as number, c[o + 7] as number, c[o + 8] as number],
  ];
  if (low > -Infinity) polygon = clipAt(polygon, low, true);
  if (high < Infinity && polygon.length > 0) polygon = clipAt(polygon, high, false);
  if (polygon.length < 3) return null;
  const path: Path64 = [];
  for (const p of polygon) {
    const q = { x: Math.round(p[0] * SCALE), y: Math.round(p[1] * SCALE) };
    const last = path[path.length - 1];
    if (!last || last.x !== q.x || last.y !== q.y) path.push(q);
  }
  while (path.length > 1 && path[0]?.x === path[path.length - 1]?.x && path[0]?.y === path[path.length - 1]?.y) path.pop();
  if (path.length < 3) return null;
  let twice = 0;
  for (let i = 0; i < path.length; i += 1) {
    const a = path[i] as { x: number; y: number };
    const b = path[(i + 1) % path.length] as { x: number; y: number };
    twice += a.x * b.y - b.x * a.y;
  }
  if (twice === 0) return null;
  return twice > 0 ? path : path.reverse();
}

/** Sutherland-Hodgman against one horizontal plane: keep z >= h (above) or z <= h. */
function clipAt(polygon: [number, number, number][], h: number, keepAbove: boolean): [number, number, number][] {
  // no closure: this runs twice for every triangle of every band
  const out: [number, number, number][] = [];
  for (let i = 0; i < polygon.length; i += 1) {
    const a = polygon[i] as [number, number, number];
    const b = polygon[(i + 1) % polygon.length] as [number, number, number];
    const ina = keepAbove ? a[2] >= h : a[2] <= h;
    const inb = keepAbove ? b[2] >= h : b[2] <= h;
    if (ina) out.push(a);
    if (ina !== inb) out.push(crossing(a, b, h));
  }
  return out;
}

/** Where segment ab crosses height h, computed from the lower endpoint (same for ab and ba). */
function crossing(a: [number, number, number], b: [number, number, number], h: number): [number, number, number] {
  const [p, q] = before(a, b) ? [a, b] : [b, a];
  const t = (h - p[2]) / (q[2] - p[2]);
  return [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), h];
}

function before(a: [number, number, number], b: [number, number, number]): boolean {
  if (a[2] !== b[2]) return a[2] < b[2];
  if (a[0] !== b[0]) return a[0] < b[0];
  return a[1] < b[1];
}
