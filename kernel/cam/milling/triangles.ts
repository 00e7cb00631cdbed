/**
 * A part's triangles as the slicer reads them (float64 corners, each triangle's z range), and a
 * triangle's XY projection between two heights.
 */
import type { TriangleSoup } from "../types.ts";
import { SCALE, type Path64 } from "./polygons.ts";

/** material less than this above a height counts as at the height (floors, float32 noise) */
export const SHADOW_EPSILON_MM = 1e-4;

export interface Triangles {
  /** x, y, z of three corners per triangle, in float64 */
  corners: Float64Array;
  count: number;
  zmin: Float64Array;
  zmax: Float64Array;
}

export function readTriangles(soup: TriangleSoup): Triangles {
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

/** Twice the projected (XY) area of triangle t: > 0 facing up, < 0 facing down, 0 vertical. */
export function signedArea(triangles: Triangles, t: number): number {
  const c = triangles.corners;
  const o = 9 * t;
  const ax = c[o] as number;
  const ay = c[o + 1] as number;
  return (
    ((c[o + 3] as number) - ax) * ((c[o + 7] as number) - ay) -
    ((c[o + 4] as number) - ay) * ((c[o + 6] as number) - ax)
  );
}

/**
 * The triangles facing up (counter-clockwise seen from above). Of a closed part whose triangles
 * face out, these alone cast its shadow: above any point of it the last crossing of the surface
 * leaves the material through a face pointing up (simulation/part-heights.ts says why).
 */
export function facingUp(triangles: Triangles): Triangles {
  const c = triangles.corners;
  const up: number[] = [];
  for (let t = 0; t < triangles.count; t += 1) if (signedArea(triangles, t) > 0) up.push(t);
  const corners = new Float64Array(up.length * 9);
  const zmin = new Float64Array(up.length);
  const zmax = new Float64Array(up.length);
  up.forEach((t, i) => {
    corners.set(c.subarray(9 * t, 9 * t + 9), 9 * i);
    zmin[i] = triangles.zmin[t] as number;
    zmax[i] = triangles.zmax[t] as number;
  });
  return { corners, count: up.length, zmin, zmax };
}

/** a triangle clipped by two planes has at most five corners: x, y, z of each, two buffers */
const CLIPPED_A = new Float64Array(15);
const CLIPPED_B = new Float64Array(15);

/**
 * The XY projection of the part of triangle t between heights low and high, counter-clockwise,
 * in Clipper units; null when it has no area. Edge crossings are computed from the edge's
 * endpoints in a fixed order, so two triangles sharing an edge get the same crossing point.
 * The corners are clipped in two fixed buffers: this runs for every triangle of every band of
 * every shadow (millions of times a plan), and arrays per corner kept the collector busy.
 */
export function projectClipped(triangles: Triangles, t: number, low: number, high: number): Path64 | null {
  const c = triangles.corners;
  const o = 9 * t;
  let corners = CLIPPED_A;
  for (let k = 0; k < 9; k += 1) corners[k] = c[o + k] as number;
  let n = 3;
  if (low > -Infinity) {
    n = clipAt(corners, n, low, true, CLIPPED_B);
    corners = CLIPPED_B;
  }
  if (high < Infinity && n > 0) {
    const into = corners === CLIPPED_A ? CLIPPED_B : CLIPPED_A;
    n = clipAt(corners, n, high, false, into);
    corners = into;
  }
  if (n < 3) return null;
  const path: Path64 = [];
  for (let i = 0; i < n; i += 1) {
    const q = {
      x: Math.round((corners[3 * i] as number) * SCALE),
      y: Math.round((corners[3 * i + 1] as number) * SCALE),
    };
    const last = path[path.length - 1];
    if (!last || last.x !== q.x || last.y !== q.y) path.push(q);
  }
  while (path.length > 1 && path[0]?.x === path[path.length - 1]?.x && path[0]?.y === path[path.length - 1]?.y)
    path.pop();
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

/**
 * Sutherland-Hodgman against one horizontal plane: the n corners (x, y, z each) of `polygon`
 * that keep z >= h (above) or z <= h, and the crossings, written to `out`; their count.
 */
function clipAt(polygon: Float64Array, n: number, h: number, keepAbove: boolean, out: Float64Array): number {
  let m = 0;
  for (let i = 0; i < n; i += 1) {
    const a = 3 * i;
    const b = 3 * ((i + 1) % n);
    const za = polygon[a + 2] as number;
    const zb = polygon[b + 2] as number;
    const ina = keepAbove ? za >= h : za <= h;
    const inb = keepAbove ? zb >= h : zb <= h;
    if (ina) {
      out[3 * m] = polygon[a] as number;
      out[3 * m + 1] = polygon[a + 1] as number;
      out[3 * m + 2] = za;
      m += 1;
    }
    if (ina !== inb) {
      // from the lower endpoint (then the one lower in x, y): the same point for ab and ba
      const aFirst = before(polygon, a, b);
      const p = aFirst ? a : b;
      const q = aFirst ? b : a;
      const t = (h - (polygon[p + 2] as number)) / ((polygon[q + 2] as number) - (polygon[p + 2] as number));
      out[3 * m] = (polygon[p] as number) + t * ((polygon[q] as number) - (polygon[p] as number));
      out[3 * m + 1] = (polygon[p + 1] as number) + t * ((polygon[q + 1] as number) - (polygon[p + 1] as number));
      out[3 * m + 2] = h;
      m += 1;
    }
  }
  return m;
}

function before(polygon: Float64Array, a: number, b: number): boolean {
  if (polygon[a + 2] !== polygon[b + 2]) return (polygon[a + 2] as number) < (polygon[b + 2] as number);
  if (polygon[a] !== polygon[b]) return (polygon[a] as number) < (polygon[b] as number);
  return (polygon[a + 1] as number) < (polygon[b + 1] as number);
}
