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

/**
 * The XY projection of the part of triangle t between heights low and high, counter-clockwise,
 * in Clipper units; null when it has no area. Edge crossings are computed from the edge's
 * endpoints in a fixed order, so two triangles sharing an edge get the same crossing point.
 */
export function projectClipped(triangles: Triangles, t: number, low: number, high: number): Path64 | null {
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
