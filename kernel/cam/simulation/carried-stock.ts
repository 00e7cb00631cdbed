/**
 * The stock a setup starts from: what the setups before it left (voxel-stock.ts), seen along the
 * setup's tool axis. Without it every setup would plan and simulate the whole stock box: the side
 * setups of a part roughed from +Z and -Z would cut air for minutes of machining time, and their
 * planning would cost as much as the first setup's.
 *
 * The answer is the top of what is left per column of voxels, in the setup's frame, and it is
 * never below the truth: a voxel counts as removed when its centre was above a setup's height
 * field, so up to half of it may still hold material. Every voxel next to one that is kept (part,
 * or material not removed: 26 neighbours) therefore counts as kept too, and a column's top is the
 * far face of its highest kept voxel. The stock the setup plans on is then at most a voxel and a
 * half thicker than the truth, which costs some air cutting and never a rapid through material.
 *
 * Only setups whose axes run along the workpiece's axes (the 3-axis setups the planner makes)
 * can read the voxel columns directly; others start from the whole box (null).
 */
import type { Frame } from "../types.ts";
import type { Grid } from "./height-field.ts";
import type { VoxelStock } from "./voxel-stock.ts";

/** Per column of voxels, in the setup's frame: the top of what is left (-Infinity: nothing). */
export interface ColumnTops extends Grid {
  tops: Float64Array;
}

const ALONG = 1 - 1e-9;

/** The axis (0, 1, 2) and sign a unit vector runs along, or null when it is not along one. */
function axisOf(v: readonly number[]): { axis: number; sign: 1 | -1 } | null {
  for (let axis = 0; axis < 3; axis += 1) {
    const c = v[axis] as number;
    if (Math.abs(c) >= ALONG) return { axis, sign: c > 0 ? 1 : -1 };
  }
  return null;
}

/** What the setup in `frame` starts from, or null when its axes are not along the voxels'. */
export function carriedTops(stock: VoxelStock, frame: Frame): ColumnTops | null {
  const X = axisOf(frame.x_axis);
  const Z = axisOf(frame.z_axis);
  if (X === null || Z === null || X.axis === Z.axis) return null;
  const z = frame.z_axis;
  const x = frame.x_axis;
  const Y = axisOf([z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]]);
  if (Y === null) return null;
  const kept = dilate(keptVoxels(stock), stock.n);
  const [n0, n1] = [stock.n[0], stock.n[0] * stock.n[1]];
  const stride = [1, n0, n1];
  const nx = stock.n[X.axis] as number;
  const ny = stock.n[Y.axis] as number;
  const nz = stock.n[Z.axis] as number;
  const dz = stock.d[Z.axis] as number;
  const tops = new Float64Array(nx * ny).fill(-Infinity);
  const zStride = stride[Z.axis] as number;
  for (let cy = 0; cy < ny; cy += 1) {
    const vy = Y.sign > 0 ? cy : ny - 1 - cy;
    for (let cx = 0; cx < nx; cx += 1) {
      const vx = X.sign > 0 ? cx : nx - 1 - cx;
      const base = vx * (stride[X.axis] as number) + vy * (stride[Y.axis] as number);
      // from the setup's top down: the first kept voxel
      for (let step = 0; step < nz; step += 1) {
        const k = Z.sign > 0 ? nz - 1 - step : step;
        if (kept[base + k * zStride] !== 1) continue;
        // its face farthest along the tool axis, in the frame
        const face = (stock.box.min[Z.axis] as number) + (Z.sign > 0 ? k + 1 : k) * dz;
        tops[cy * nx + cx] = Z.sign * (face - (frame.origin[Z.axis] as number));
        break;
      }
    }
  }
  const lowX = X.sign > 0 ? stock.box.min[X.axis] : stock.box.max[X.axis];
  const lowY = Y.sign > 0 ? stock.box.min[Y.axis] : stock.box.max[Y.axis];
  return {
    x0: X.sign * ((lowX as number) - (frame.origin[X.axis] as number)),
    y0: Y.sign * ((lowY as number) - (frame.origin[Y.axis] as number)),
    nx,
    ny,
    dx: stock.d[X.axis] as number,
    dy: stock.d[Y.axis] as number,
    tops,
  };
}

/** 1 where a voxel is part or material no setup removed. */
function keptVoxels(stock: VoxelStock): Uint8Array {
  const kept = new Uint8Array(stock.part.length);
  for (let v = 0; v < kept.length; v += 1) kept[v] = stock.part[v] === 1 || stock.removed[v] === 0 ? 1 : 0;
  return kept;
}

/** The mask grown by one voxel in every direction (26 neighbours), one axis at a time. */
function dilate(mask: Uint8Array, n: readonly [number, number, number]): Uint8Array {
  let current = mask;
  const stride = [1, n[0], n[0] * n[1]];
  for (let axis = 0; axis < 3; axis += 1) {
    const s = stride[axis] as number;
    const count = n[axis] as number;
    const next = current.slice();
    for (let v = 0; v < current.length; v += 1) {
      if (current[v] !== 1) continue;
      const k = Math.floor(v / s) % count;
      if (k > 0) next[v - s] = 1;
      if (k < count - 1) next[v + s] = 1;
    }
    current = next;
  }
  return current;
}

/** The top of the column holding (x, y) in the frame: -Infinity where nothing is left, or outside the columns. */
export function columnTopAt(columns: ColumnTops, x: number, y: number): number {
  const i = Math.floor((x - columns.x0) / columns.dx);
  const j = Math.floor((y - columns.y0) / columns.dy);
  if (i < 0 || j < 0 || i >= columns.nx || j >= columns.ny) return -Infinity;
  return columns.tops[j * columns.nx + i] as number;
}
