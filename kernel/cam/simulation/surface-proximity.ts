/**
 * Which points lie within a given distance of the part's surface: the triangles bucketed in a
 * uniform grid, each in every cell its neighbourhood of that distance can reach, so a point asks
 * only its own cell's triangles and measures the exact distance to each (closest point on a
 * triangle, Ericson, Real-Time Collision Detection 5.1.5) until one is near enough.
 *
 * The material-left measure (thick-material.ts) asks this of every voxel left over the part, so a
 * voxel far from any surface must cost a single cell look-up: the grid's cells are a few voxels
 * across, and a cell holds a triangle only when the cell's box, grown by the distance, meets the
 * triangle's plane within the triangle's box.
 */
import type { Box3, TriangleSoup } from "../types.ts";
import { triangleCorners, triangleCross, type TriangleCorners } from "../../math/triangle.ts";

/** about this many grid cells at most (CSR arrays of a few MB) */
const MAX_CELLS = 2_000_000;

export class SurfaceProximity {
  readonly radius: number;
  private readonly min: [number, number, number];
  private readonly size: number;
  private readonly n: [number, number, number];
  /** CSR: triangles of cell c are items[starts[c]] .. items[starts[c + 1] - 1] */
  private readonly starts: Uint32Array;
  private readonly items: Uint32Array;
  private readonly p: Float32Array;
  private readonly idx: Uint32Array;

  /** `box`: where points will be asked (the stock); `radius`: the distance "near" means. */
  constructor(soup: TriangleSoup, box: Box3, radius: number, cellMm = 1) {
    this.radius = radius;
    this.p = soup.positions;
    this.idx = soup.indices;
    const extent = [0, 1, 2].map((a) => (box.max[a] as number) - (box.min[a] as number) + 2 * radius);
    const volume = (extent[0] as number) * (extent[1] as number) * (extent[2] as number);
    this.size = Math.max(cellMm, Math.cbrt(volume / MAX_CELLS));
    this.min = [box.min[0] - radius, box.min[1] - radius, box.min[2] - radius];
    this.n = extent.map((e) => Math.max(1, Math.ceil(e / this.size))) as [number, number, number];
    const cells = this.n[0] * this.n[1] * this.n[2];
    const counts = new Uint32Array(cells + 1);
    this.eachCellOfTriangles((cell) => {
      counts[cell + 1] = (counts[cell + 1] as number) + 1;
    });
    for (let c = 0; c < cells; c += 1) counts[c + 1] = (counts[c + 1] as number) + (counts[c] as number);
    this.starts = counts;
    this.items = new Uint32Array(counts[cells] as number);
    const fill = counts.slice(0, cells);
    this.eachCellOfTriangles((cell, t) => {
      const at = fill[cell] as number;
      this.items[at] = t;
      fill[cell] = at + 1;
    });
  }

  /** Whether the point is within `radius` of a triangle. */
  near(x: number, y: number, z: number): boolean {
    const i = Math.floor((x - this.min[0]) / this.size);
    const j = Math.floor((y - this.min[1]) / this.size);
    const k = Math.floor((z - this.min[2]) / this.size);
    if (i < 0 || j < 0 || k < 0 || i >= this.n[0] || j >= this.n[1] || k >= this.n[2]) return false;
    const cell = (k * this.n[1] + j) * this.n[0] + i;
    const r2 = this.radius * this.radius;
    for (let m = this.starts[cell] as number, end = this.starts[cell + 1] as number; m < end; m += 1) {
      if (this.distance2(this.items[m] as number, x, y, z) <= r2) return true;
    }
    return false;
  }

  /** Each (cell, triangle) whose cell box grown by the radius meets the triangle's plane within its box. */
  private eachCellOfTriangles(visit: (cell: number, triangle: number) => void): void {
    const p = this.p,
      idx = this.idx,
      s = this.size,
      r = this.radius;
    const [nx, ny, nz] = this.n;
    // a cell's half diagonal plus the radius: the plane test's reach
    const reach = (Math.sqrt(3) / 2) * s + r;
    const corners: TriangleCorners = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (let t = 0; t * 3 < idx.length; t += 1) {
      const [ax, ay, az, bx, by, bz, cx, cy, cz] = triangleCorners(p, idx, t, corners);
      let [nX, nY, nZ] = triangleCross(corners, 0, 3, 6);
      const length = Math.hypot(nX, nY, nZ);
      if (length > 0) {
        nX /= length;
        nY /= length;
        nZ /= length;
      }
      const cell = (v: number, a: number) => Math.floor((v - (this.min[a] as number)) / s);
      const i0 = Math.max(0, cell(Math.min(ax, bx, cx) - r, 0)),
        i1 = Math.min(nx - 1, cell(Math.max(ax, bx, cx) + r, 0));
      const j0 = Math.max(0, cell(Math.min(ay, by, cy) - r, 1)),
        j1 = Math.min(ny - 1, cell(Math.max(ay, by, cy) + r, 1));
      const k0 = Math.max(0, cell(Math.min(az, bz, cz) - r, 2)),
        k1 = Math.min(nz - 1, cell(Math.max(az, bz, cz) + r, 2));
      for (let k = k0; k <= k1; k += 1) {
        const z = this.min[2] + (k + 0.5) * s - az;
        for (let j = j0; j <= j1; j += 1) {
          const y = this.min[1] + (j + 0.5) * s - ay;
          for (let i = i0; i <= i1; i += 1) {
            const x = this.min[0] + (i + 0.5) * s - ax;
            // a degenerate triangle (no normal) goes into every cell of its box
            if (length > 0 && Math.abs(x * nX + y * nY + z * nZ) > reach) continue;
            visit((k * ny + j) * nx + i, t);
          }
        }
      }
    }
  }

  /** Squared distance from (x, y, z) to triangle t: its closest point a + v ab + w ac by the Voronoi regions of its vertices, edges and face. */
  private distance2(t: number, x: number, y: number, z: number): number {
    const p = this.p,
      idx = this.idx;
    const a = 3 * (idx[3 * t] as number),
      b = 3 * (idx[3 * t + 1] as number),
      c = 3 * (idx[3 * t + 2] as number);
    const ax = p[a] as number,
      ay = p[a + 1] as number,
      az = p[a + 2] as number;
    const abx = (p[b] as number) - ax,
      aby = (p[b + 1] as number) - ay,
      abz = (p[b + 2] as number) - az;
    const acx = (p[c] as number) - ax,
      acy = (p[c + 1] as number) - ay,
      acz = (p[c + 2] as number) - az;
    const apx = x - ax,
      apy = y - ay,
      apz = z - az;
    const d1 = abx * apx + aby * apy + abz * apz,
      d2 = acx * apx + acy * apy + acz * apz;
    const d3 = d1 - (abx * abx + aby * aby + abz * abz),
      d4 = d2 - (acx * abx + acy * aby + acz * abz);
    const d5 = d1 - (abx * acx + aby * acy + abz * acz),
      d6 = d2 - (acx * acx + acy * acy + acz * acz);
    const va = d3 * d6 - d5 * d4,
      vb = d5 * d2 - d1 * d6,
      vc = d1 * d4 - d3 * d2;
    let v = 0,
      w = 0;
    if (d1 <= 0 && d2 <= 0) {
      // vertex a
    } else if (d3 >= 0 && d4 <= d3) {
      v = 1;
    } else if (d6 >= 0 && d5 <= d6) {
      w = 1;
    } else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
      v = d1 / (d1 - d3);
    } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
      w = d2 / (d2 - d6);
    } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
      // on edge bc: b + u (c - b)
      const u = (d4 - d3) / (d4 - d3 + (d5 - d6));
      v = 1 - u;
      w = u;
    } else {
      const denom = 1 / (va + vb + vc);
      v = vb * denom;
      w = vc * denom;
    }
    const dx = apx - v * abx - w * acx,
      dy = apy - v * aby - w * acy,
      dz = apz - v * abz - w * acz;
    return dx * dx + dy * dy + dz * dz;
  }
}
