/**
 * Material left over the part, thicker than a tolerance: the voxel stock's left voxels
 * (voxel-stock.ts) whose centres lie farther than `tolerance_mm` from the part's surface, and
 * the share of the part's surface such material covers.
 *
 * Why not every left voxel: a setup removes a voxel when its centre is above the setup's height
 * field, and a height-field cell holds the part's top when its own centre is on the part. A voxel
 * whose centre is just outside a wall, but nearer a cell centre on the part, stays: a band along
 * every wall, up to half a cell's diagonal thick, that no tool could take because it is not there.
 * Counting only voxel centres farther than the tolerance from the surface (exactly, against the
 * triangles: surface-proximity.ts) drops that band and keeps real material, as a sample of the
 * volume left farther than the tolerance (README.md: the measure and its figures on the fixtures).
 * Which voxels are near the surface does not change as setups remove material: a plan asks it
 * once (nearSurface, the distance queries) and counts after each setup in a plain pass.
 *
 * Surface share: the part's triangles sampled about one voxel apart; a sample is covered when a
 * thick voxel lies along its outward normal within two voxels beyond the tolerance. Samples within
 * a sharp corner's fillet (`exclude`) are not counted as covered: no rotating tool takes it.
 */
import { cross, distance, dot, length, sub } from "../../math/vec3.ts";
import type { Box3, TriangleSoup, Vec3 } from "../types.ts";
import { SurfaceProximity } from "./surface-proximity.ts";
import type { VoxelStock } from "./voxel-stock.ts";

export interface ThickMaterial {
  left_mm3: number;
  removable_mm3: number;
  /** 0..100 */
  left_pct: number;
  /** per voxel: 1 where material thicker than the tolerance is left */
  thick: Uint8Array;
}

/** A region of the surface whose material is not counted: within `radius` of the segment a-b. */
export interface ExcludedZone {
  a: Vec3;
  b: Vec3;
  radius: number;
}

export interface SurfaceCovered {
  surface_mm2: number;
  covered_mm2: number;
  /** 0..100 */
  covered_pct: number;
  /** per triangle of the soup: the area covered */
  triangles: Float64Array;
}

/** What the measure needs of the part, made once per plan: the triangles bucketed for distance queries. */
export function surfaceProximity(soup: TriangleSoup, stock: Box3, tolerance_mm: number): SurfaceProximity {
  return new SurfaceProximity(soup, stock, tolerance_mm);
}

/**
 * Per voxel, 1 where it is not part and its centre lies within the proximity's radius of the
 * part's surface: what no setup's removal changes, so a plan asks it once and counts each
 * setup's thick material with thickMaterialLeft in a plain pass.
 */
export function nearSurface(stock: VoxelStock, proximity: SurfaceProximity): Uint8Array {
  const [nx, ny, nz] = stock.n;
  const near = new Uint8Array(stock.part.length);
  for (let k = 0; k < nz; k += 1) {
    const z = stock.box.min[2] + (k + 0.5) * stock.d[2];
    for (let j = 0; j < ny; j += 1) {
      const y = stock.box.min[1] + (j + 0.5) * stock.d[1];
      const row = (k * ny + j) * nx;
      for (let i = 0; i < nx; i += 1) {
        if (stock.part[row + i] === 0 && proximity.near(stock.box.min[0] + (i + 0.5) * stock.d[0], y, z))
          near[row + i] = 1;
      }
    }
  }
  return near;
}

/** Left voxels (neither part nor removed) not near the surface (`near` of nearSurface). */
export function thickMaterialLeft(stock: VoxelStock, near: Uint8Array): ThickMaterial {
  const thick = new Uint8Array(stock.part.length);
  let count = 0;
  for (let v = 0; v < thick.length; v += 1) {
    if (stock.part[v] === 0 && stock.removed[v] === 0 && near[v] === 0) {
      thick[v] = 1;
      count += 1;
    }
  }
  const volume = stock.d[0] * stock.d[1] * stock.d[2];
  const removable = (stock.part.length - stock.partVoxels) * volume;
  const left = count * volume;
  return { left_mm3: left, removable_mm3: removable, left_pct: removable > 0 ? (100 * left) / removable : 0, thick };
}

/** The share of the part's surface under thick material (`thick` of thickMaterialLeft), zones in `exclude` not counted as covered. */
export function surfaceCovered(
  stock: VoxelStock,
  thick: Uint8Array,
  options: { soup: TriangleSoup; tolerance_mm: number; exclude: readonly ExcludedZone[] },
): SurfaceCovered {
  const { soup, tolerance_mm, exclude } = options;
  const p = soup.positions,
    idx = soup.indices;
  const edge = Math.min(...stock.d);
  const step = Math.max(...stock.d) / 2;
  const probes = [1, 2, 3, 4].map((k) => tolerance_mm + k * step);
  let surface = 0,
    covered = 0;
  const triangles = new Float64Array(idx.length / 3);
  const at = (x: number, y: number, z: number): boolean => {
    const i = Math.floor((x - stock.box.min[0]) / stock.d[0]);
    const j = Math.floor((y - stock.box.min[1]) / stock.d[1]);
    const k = Math.floor((z - stock.box.min[2]) / stock.d[2]);
    if (i < 0 || j < 0 || k < 0 || i >= stock.n[0] || j >= stock.n[1] || k >= stock.n[2]) return false;
    return thick[(k * stock.n[1] + j) * stock.n[0] + i] === 1;
  };
  for (let t = 0; t * 3 < idx.length; t += 1) {
    const corners = [0, 1, 2].map((m) => {
      const v = 3 * (idx[3 * t + m] as number);
      return [p[v] as number, p[v + 1] as number, p[v + 2] as number] as Vec3;
    });
    const triangle = inPlane(corners);
    if (triangle === null) continue;
    surface += triangle.area;
    const zones = exclude.filter((zone) => zoneMeetsTriangle(zone, corners));
    for (const sample of samples(triangle, edge)) {
      const [x, y, z] = sample.at;
      if (zones.some((zone) => distanceToSegment(zone, x, y, z) < zone.radius)) continue;
      const n = triangle.normal;
      if (probes.some((delta) => at(x + delta * n[0], y + delta * n[1], z + delta * n[2]))) {
        covered += sample.area;
        triangles[t] = (triangles[t] as number) + sample.area;
      }
    }
  }
  return {
    surface_mm2: surface,
    covered_mm2: covered,
    covered_pct: surface > 0 ? (100 * covered) / surface : 0,
    triangles,
  };
}

/** A triangle in its plane: its longest edge from `origin` along `e1`, its third corner at (qx, qy) in (e1, e2). */
interface PlanarTriangle {
  origin: Vec3;
  e1: Vec3;
  e2: Vec3;
  length: number;
  qx: number;
  qy: number;
  area: number;
  /** unit, outward (the soup faces out) */
  normal: Vec3;
}

function inPlane(corners: Vec3[]): PlanarTriangle | null {
  const [c0, c1, c2] = corners as [Vec3, Vec3, Vec3];
  const n = cross(sub(c1, c0), sub(c2, c0));
  const twice = length(n);
  if (!(twice > 0)) return null;
  const normal: Vec3 = [n[0] / twice, n[1] / twice, n[2] / twice];
  // the longest edge first: the third corner's foot then falls on it
  const edges = [
    [c0, c1, c2],
    [c1, c2, c0],
    [c2, c0, c1],
  ] as [Vec3, Vec3, Vec3][];
  const [from, to, third] = edges.reduce((best, e) => (distance(e[1], e[0]) > distance(best[1], best[0]) ? e : best));
  const along = sub(to, from);
  const alongLength = length(along);
  const e1: Vec3 = [along[0] / alongLength, along[1] / alongLength, along[2] / alongLength];
  const e2 = cross(normal, e1);
  const q = sub(third, from);
  const qy = dot(q, e2);
  const sign = qy < 0 ? -1 : 1;
  return {
    origin: from,
    e1,
    e2: [sign * e2[0], sign * e2[1], sign * e2[2]],
    length: alongLength,
    qx: dot(q, e1),
    qy: Math.abs(qy),
    area: twice / 2,
    normal,
  };
}

/** Points about `spacing` apart over the triangle, each with the area it stands for (rows along the longest edge; the midpoint rule is exact for a triangle's linear row widths). */
function* samples(triangle: PlanarTriangle, spacing: number): Generator<{ at: Vec3; area: number }> {
  const { origin, e1, e2, length, qx, qy } = triangle;
  const rows = Math.max(1, Math.ceil(qy / spacing));
  const height = qy / rows;
  for (let r = 0; r < rows; r += 1) {
    const y = (r + 0.5) * height;
    const lo = (qx * y) / qy,
      hi = length - ((length - qx) * y) / qy;
    const count = Math.max(1, Math.ceil((hi - lo) / spacing));
    const width = (hi - lo) / count;
    for (let c = 0; c < count; c += 1) {
      const x = lo + (c + 0.5) * width;
      yield {
        at: [origin[0] + x * e1[0] + y * e2[0], origin[1] + x * e1[1] + y * e2[1], origin[2] + x * e1[2] + y * e2[2]],
        area: width * height,
      };
    }
  }
}

function zoneMeetsTriangle(zone: ExcludedZone, corners: Vec3[]): boolean {
  for (let axis = 0; axis < 3; axis += 1) {
    const values = corners.map((c) => c[axis] as number);
    const lo = Math.min(...values),
      hi = Math.max(...values);
    if (
      Math.max(zone.a[axis] as number, zone.b[axis] as number) + zone.radius < lo ||
      Math.min(zone.a[axis] as number, zone.b[axis] as number) - zone.radius > hi
    )
      return false;
  }
  return true;
}

function distanceToSegment(zone: ExcludedZone, x: number, y: number, z: number): number {
  const dx = zone.b[0] - zone.a[0],
    dy = zone.b[1] - zone.a[1],
    dz = zone.b[2] - zone.a[2];
  const length2 = dx * dx + dy * dy + dz * dz;
  const px = x - zone.a[0],
    py = y - zone.a[1],
    pz = z - zone.a[2];
  const s = length2 > 0 ? Math.min(1, Math.max(0, (px * dx + py * dy + pz * dz) / length2)) : 0;
  return Math.hypot(px - s * dx, py - s * dy, pz - s * dz);
}
