/**
 * Rays along one direction against a triangle mesh, fast: the triangles are projected onto the
 * plane across the direction and binned in a uniform 2D grid, so a ray only tests the triangles
 * whose shadow covers its cell.
 */
import type { TriangleMesh } from "../../mesh/types.ts";
import type { Vec3 } from "../types.ts";
import { basisAround, dot } from "../../math/vec3.ts";

const EPSILON = 1e-12;

export class DirectionalRays {
  readonly #u: Vec3;
  readonly #v: Vec3;
  readonly #cells: number[][];
  readonly #n: number;
  readonly #min: [number, number];
  readonly #size: [number, number];

  constructor(
    readonly mesh: Pick<TriangleMesh, "positions" | "indices">,
    readonly direction: Vec3,
  ) {
    [this.#u, this.#v] = basisAround(direction);
    const count = mesh.indices.length / 3;
    const p = mesh.positions;
    const us = new Float64Array(p.length / 3),
      vs = new Float64Array(p.length / 3);
    let uMin = Infinity,
      uMax = -Infinity,
      vMin = Infinity,
      vMax = -Infinity;
    for (let i = 0; i < us.length; i++) {
      const x = p[3 * i] as number,
        y = p[3 * i + 1] as number,
        z = p[3 * i + 2] as number;
      const u = x * this.#u[0] + y * this.#u[1] + z * this.#u[2];
      const v = x * this.#v[0] + y * this.#v[1] + z * this.#v[2];
      us[i] = u;
      vs[i] = v;
      if (u < uMin) uMin = u;
      if (u > uMax) uMax = u;
      if (v < vMin) vMin = v;
      if (v > vMax) vMax = v;
    }
    this.#n = Math.max(1, Math.min(128, Math.ceil(Math.sqrt(count) * 1.5)));
    const pad = 1e-6 * (uMax - uMin + vMax - vMin + 1);
    this.#min = [uMin - pad, vMin - pad];
    this.#size = [(uMax - uMin + 2 * pad) / this.#n || 1, (vMax - vMin + 2 * pad) / this.#n || 1];
    this.#cells = Array.from({ length: this.#n * this.#n }, () => []);
    const idx = mesh.indices;
    for (let t = 0; t < count; t++) {
      const a = idx[3 * t] as number,
        b = idx[3 * t + 1] as number,
        c = idx[3 * t + 2] as number;
      const [i0, i1] = this.#cellRange(Math.min(us[a]!, us[b]!, us[c]!), Math.max(us[a]!, us[b]!, us[c]!), 0);
      const [j0, j1] = this.#cellRange(Math.min(vs[a]!, vs[b]!, vs[c]!), Math.max(vs[a]!, vs[b]!, vs[c]!), 1);
      for (let i = i0; i <= i1; i++) for (let j = j0; j <= j1; j++) this.#cells[i * this.#n + j]!.push(t);
    }
  }

  #cellRange(lo: number, hi: number, axis: 0 | 1): [number, number] {
    const a = Math.floor((lo - this.#min[axis]) / this.#size[axis]);
    const b = Math.floor((hi - this.#min[axis]) / this.#size[axis]);
    return [Math.max(0, Math.min(this.#n - 1, a)), Math.max(0, Math.min(this.#n - 1, b))];
  }

  /** The first triangle the ray from `origin` along the direction hits beyond `tMin`, or null. */
  firstHit(origin: Vec3, tMin: number): { triangle: number; t: number } | null {
    const u = dot(origin, this.#u),
      v = dot(origin, this.#v);
    const i = Math.floor((u - this.#min[0]) / this.#size[0]);
    const j = Math.floor((v - this.#min[1]) / this.#size[1]);
    if (i < 0 || j < 0 || i >= this.#n || j >= this.#n) return null;
    let best: { triangle: number; t: number } | null = null;
    for (const t of this.#cells[i * this.#n + j]!) {
      const hit = intersect(this.mesh, t, origin, this.direction);
      if (hit !== null && hit > tMin && (best === null || hit < best.t)) best = { triangle: t, t: hit };
    }
    return best;
  }
}

/** Möller-Trumbore: the ray parameter of the hit on triangle t, or null. Both sides count. */
function intersect(mesh: Pick<TriangleMesh, "positions" | "indices">, t: number, o: Vec3, d: Vec3): number | null {
  const p = mesh.positions,
    idx = mesh.indices;
  const a = 3 * (idx[3 * t] as number),
    b = 3 * (idx[3 * t + 1] as number),
    c = 3 * (idx[3 * t + 2] as number);
  const ax = p[a] as number,
    ay = p[a + 1] as number,
    az = p[a + 2] as number;
  const e1x = (p[b] as number) - ax,
    e1y = (p[b + 1] as number) - ay,
    e1z = (p[b + 2] as number) - az;
  const e2x = (p[c] as number) - ax,
    e2y = (p[c + 1] as number) - ay,
    e2z = (p[c + 2] as number) - az;
  const px = d[1] * e2z - d[2] * e2y,
    py = d[2] * e2x - d[0] * e2z,
    pz = d[0] * e2y - d[1] * e2x;
  const det = e1x * px + e1y * py + e1z * pz;
  if (Math.abs(det) < EPSILON) return null;
  const inv = 1 / det;
  const tx = o[0] - ax,
    ty = o[1] - ay,
    tz = o[2] - az;
  const s = (tx * px + ty * py + tz * pz) * inv;
  if (s < 0 || s > 1) return null;
  const qx = ty * e1z - tz * e1y,
    qy = tz * e1x - tx * e1z,
    qz = tx * e1y - ty * e1x;
  const w = (d[0] * qx + d[1] * qy + d[2] * qz) * inv;
  if (w < 0 || s + w > 1) return null;
  return (e2x * qx + e2y * qy + e2z * qz) * inv;
}
