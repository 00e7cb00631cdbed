/**
 * The stock across setups: a voxel grid over the stock box in the workpiece's coordinates that
 * knows which voxels are part and which material the setups have removed. A setup's height
 * field (simulate.ts) sees only its own side; this model joins them, so the material left after
 * a setup counts what earlier setups removed from other sides, and the plan's final figure is
 * the material no setup removed.
 *
 * A voxel is part when its centre is inside the part: columns along workpiece Z cross the
 * triangles, and the crossings, sorted, pair into inside intervals (parity: the part is closed).
 * Column centres are nudged off the grid by an irrational fraction of a cell so a ray never runs
 * exactly through the shared edge of two triangles of an axis-aligned part. A voxel is removed by
 * a setup when its centre, in the setup's frame, lies above the setup's final height field.
 *
 * Voxels are at least VOXEL_MIN_MM and large enough that the grid holds at most MAX_VOXELS
 * (8 million, two bytes each): the figure is a measure of what is left, not a geometry check.
 */
import { frameYAxis } from "../frames.ts";
import type { Box3, Frame, TriangleSoup } from "../types.ts";
import { triangleCorners, type TriangleCorners } from "../../math/triangle.ts";
import { heightAt, type HeightField } from "./height-field.ts";

export const VOXEL_MIN_MM = 0.2;
export const MAX_VOXELS = 8_000_000;
// different along x and y: equal nudges would keep centres on a 45 degree diagonal
const NUDGE_X = Math.SQRT2 * 1e-4;
const NUDGE_Y = Math.sqrt(3) * 1.7e-4;

export interface VoxelStock {
  box: Box3;
  /** voxel edge lengths along x, y, z */
  d: [number, number, number];
  n: [number, number, number];
  /** per voxel (index (k * ny + j) * nx + i): 1 part, 0 material */
  part: Uint8Array;
  /** per voxel: 1 once a setup removed it */
  removed: Uint8Array;
  partVoxels: number;
}

export function voxelStock(box: Box3, part: TriangleSoup, maxVoxels = MAX_VOXELS): VoxelStock {
  const size = [0, 1, 2].map((a) => (box.max[a] as number) - (box.min[a] as number)) as [number, number, number];
  const edge = Math.max(VOXEL_MIN_MM, Math.cbrt((size[0] * size[1] * size[2]) / maxVoxels));
  const n = size.map((s) => Math.max(1, Math.ceil(s / edge - 1e-9))) as [number, number, number];
  const d = size.map((s, a) => s / (n[a] as number)) as [number, number, number];
  const total = n[0] * n[1] * n[2];
  const partVoxels = new Uint8Array(total);
  const crossings: number[][] = Array.from({ length: n[0] * n[1] }, () => []);
  const p = part.positions;
  const idx = part.indices;
  const cx = (i: number) => box.min[0] + (i + 0.5 + NUDGE_X) * d[0];
  const cy = (j: number) => box.min[1] + (j + 0.5 + NUDGE_Y) * d[1];
  const corners: TriangleCorners = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let t = 0; 3 * t < idx.length; t++) {
    // the third corner is q: cx and cy are the column centres
    const [ax, ay, az, bx, by, bz, qx, qy, qz] = triangleCorners(p, idx, t, corners);
    const det = (bx - ax) * (qy - ay) - (qx - ax) * (by - ay);
    if (Math.abs(det) < 1e-12) continue; // vertical: a ray along Z does not cross it
    const i0 = Math.max(0, Math.ceil((Math.min(ax, bx, qx) - box.min[0]) / d[0] - 0.5 - NUDGE_X));
    const i1 = Math.min(n[0] - 1, Math.floor((Math.max(ax, bx, qx) - box.min[0]) / d[0] - 0.5 - NUDGE_X));
    const j0 = Math.max(0, Math.ceil((Math.min(ay, by, qy) - box.min[1]) / d[1] - 0.5 - NUDGE_Y));
    const j1 = Math.min(n[1] - 1, Math.floor((Math.max(ay, by, qy) - box.min[1]) / d[1] - 0.5 - NUDGE_Y));
    for (let j = j0; j <= j1; j += 1) {
      const y = cy(j);
      for (let i = i0; i <= i1; i += 1) {
        const x = cx(i);
        // barycentric coordinates of (x, y) in the triangle's projection
        const u = ((x - ax) * (qy - ay) - (qx - ax) * (y - ay)) / det;
        const v = ((bx - ax) * (y - ay) - (x - ax) * (by - ay)) / det;
        if (u < 0 || v < 0 || u + v > 1) continue;
        (crossings[j * n[0] + i] as number[]).push(az + u * (bz - az) + v * (qz - az));
      }
    }
  }
  let count = 0;
  for (let column = 0; column < crossings.length; column += 1) {
    const zs = (crossings[column] as number[]).sort((x, y) => x - y);
    for (let m = 0; m + 1 < zs.length; m += 2) {
      const k0 = Math.max(0, Math.ceil(((zs[m] as number) - box.min[2]) / d[2] - 0.5));
      const k1 = Math.min(n[2] - 1, Math.floor(((zs[m + 1] as number) - box.min[2]) / d[2] - 0.5));
      for (let k = k0; k <= k1; k += 1) {
        partVoxels[k * n[0] * n[1] + column] = 1;
        count += 1;
      }
    }
  }
  return { box, d, n, part: partVoxels, removed: new Uint8Array(total), partVoxels: count };
}

/** Marks what a setup removed: material voxels above its final height field, seen in its frame. */
export function removeBySetup(stock: VoxelStock, frame: Frame, field: HeightField): void {
  const [nx, ny, nz] = stock.n;
  const [X, Z] = [frame.x_axis, frame.z_axis];
  const Y = frameYAxis(frame);
  // per-voxel arithmetic inline: this loop runs millions of times per setup
  for (let k = 0; k < nz; k += 1) {
    const z = stock.box.min[2] + (k + 0.5) * stock.d[2] - frame.origin[2];
    for (let j = 0; j < ny; j += 1) {
      const y = stock.box.min[1] + (j + 0.5) * stock.d[1] - frame.origin[1];
      const row = (k * ny + j) * nx;
      for (let i = 0; i < nx; i += 1) {
        const v = row + i;
        if (stock.part[v] === 1 || stock.removed[v] === 1) continue;
        const x = stock.box.min[0] + (i + 0.5) * stock.d[0] - frame.origin[0];
        const qz = x * Z[0] + y * Z[1] + z * Z[2];
        if (qz > heightAt(field, x * X[0] + y * X[1] + z * X[2], x * Y[0] + y * Y[1] + z * Y[2])) stock.removed[v] = 1;
      }
    }
  }
}

export interface StockLeft {
  left_mm3: number;
  removable_mm3: number;
  /** 0..100 */
  left_pct: number;
}

/**
 * Material still there over the whole part: every voxel neither part nor removed. With `region`
 * (workpiece coordinates), the voxels whose centre lies in it only: what is left of the allowance
 * below the part, say, against what there was of it.
 */
export function stockLeft(stock: VoxelStock, region?: Box3): StockLeft {
  const volume = stock.d[0] * stock.d[1] * stock.d[2];
  if (region !== undefined) return stockLeftWithin(stock, region, volume);
  let left = 0;
  for (let v = 0; v < stock.part.length; v += 1) if (stock.part[v] === 0 && stock.removed[v] === 0) left += 1;
  const removable = (stock.part.length - stock.partVoxels) * volume;
  const leftMm3 = left * volume;
  return { left_mm3: leftMm3, removable_mm3: removable, left_pct: removable > 0 ? (100 * leftMm3) / removable : 0 };
}

function stockLeftWithin(stock: VoxelStock, region: Box3, volume: number): StockLeft {
  const [nx, ny] = stock.n;
  // the index range of the voxel centres inside the region, per axis
  const range = (a: number): [number, number] => {
    const lo = Math.ceil(
      ((region.min[a] as number) - (stock.box.min[a] as number)) / (stock.d[a] as number) - 0.5 - 1e-9,
    );
    const hi = Math.floor(
      ((region.max[a] as number) - (stock.box.min[a] as number)) / (stock.d[a] as number) - 0.5 + 1e-9,
    );
    return [Math.max(0, lo), Math.min((stock.n[a] as number) - 1, hi)];
  };
  const [[i0, i1], [j0, j1], [k0, k1]] = [range(0), range(1), range(2)];
  let left = 0;
  let material = 0;
  for (let k = k0; k <= k1; k += 1) {
    for (let j = j0; j <= j1; j += 1) {
      const row = (k * ny + j) * nx;
      for (let i = i0; i <= i1; i += 1) {
        if (stock.part[row + i] === 1) continue;
        material += 1;
        if (stock.removed[row + i] === 0) left += 1;
      }
    }
  }
  return {
    left_mm3: left * volume,
    removable_mm3: material * volume,
    left_pct: material > 0 ? (100 * left) / material : 0,
  };
}
