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
 * far face of its highest kept voxel. Along the workpiece's axes the stock the setup plans on is
 * then at most a voxel and a half thicker than the truth (tilted: half a voxel's diagonal more),
 * which costs some air cutting and never a rapid through material.
 *
 * A setup whose axes run along the workpiece's reads the voxel columns directly. A tilted one (a
 * feature's own direction) gets each kept voxel on the surface of what is left as a ball round its
 * centre, half its diagonal wide, put onto columns of the setup's frame: every column the ball
 * overlaps is at least as high as the ball's top. (The highest material along any line lies in a
 * voxel with a neighbour that is not kept, or on the grid's edge.)
 */
import { boxToFrame, frameYAxis } from "../frames.ts";
import type { Frame } from "../types.ts";
import { cellAt, type Grid } from "./height-field.ts";
import type { VoxelStock } from "./voxel-stock.ts";

/** Per column of voxels, in the setup's frame: the top of what is left (-Infinity: nothing). */
export interface ColumnTops extends Grid {
  tops: Float64Array;
}

const ALONG = 1 - 1e-9;

type Along = { axis: number; sign: 1 | -1 };

/** The axis (0, 1, 2) and sign a unit vector runs along, or null when it is not along one. */
function axisOf(v: readonly number[]): Along | null {
  for (let axis = 0; axis < 3; axis += 1) {
    const c = v[axis] as number;
    if (Math.abs(c) >= ALONG) return { axis, sign: c > 0 ? 1 : -1 };
  }
  return null;
}

/** What the setup in `frame` starts from: the top of what is left per column of its frame. */
export function carriedTops(stock: VoxelStock, frame: Frame): ColumnTops {
  const X = axisOf(frame.x_axis);
  const Y = axisOf(frameYAxis(frame));
  const Z = axisOf(frame.z_axis);
  if (X === null || Y === null || Z === null) return splatTops(stock, frame, dilate(keptVoxels(stock), stock.n));
  return columnTops(stock, frame, X, Y, Z);
}

/**
 * Axes along the voxels': the columns are the voxels' own. A column's highest kept voxel after
 * growing by one voxel (dilate) is one above the highest kept one of it and its 8 neighbours: so
 * each column is searched from the top once and the mask is never grown (growing it, three passes
 * over every voxel, took NIST STC-06 110 ms a setup).
 */
function columnTops(stock: VoxelStock, frame: Frame, X: Along, Y: Along, Z: Along): ColumnTops {
  const [n0, n1] = [stock.n[0], stock.n[0] * stock.n[1]];
  const stride = [1, n0, n1];
  const nx = stock.n[X.axis] as number;
  const ny = stock.n[Y.axis] as number;
  const nz = stock.n[Z.axis] as number;
  const dz = stock.d[Z.axis] as number;
  const zStride = stride[Z.axis] as number;
  // per column: how many voxels down from the setup's top its first kept one lies (nz: none)
  const first = new Int32Array(nx * ny).fill(nz);
  for (let cy = 0; cy < ny; cy += 1) {
    const vy = Y.sign > 0 ? cy : ny - 1 - cy;
    for (let cx = 0; cx < nx; cx += 1) {
      const vx = X.sign > 0 ? cx : nx - 1 - cx;
      const base = vx * (stride[X.axis] as number) + vy * (stride[Y.axis] as number);
      for (let step = 0; step < nz; step += 1) {
        const v = base + (Z.sign > 0 ? nz - 1 - step : step) * zStride;
        if (isKept(stock, v)) {
          first[cy * nx + cx] = step;
          break;
        }
      }
    }
  }
  const tops = new Float64Array(nx * ny).fill(-Infinity);
  for (let cy = 0; cy < ny; cy += 1) {
    for (let cx = 0; cx < nx; cx += 1) {
      let step = nz;
      for (let y = Math.max(0, cy - 1); y <= Math.min(ny - 1, cy + 1); y += 1) {
        for (let x = Math.max(0, cx - 1); x <= Math.min(nx - 1, cx + 1); x += 1)
          step = Math.min(step, first[y * nx + x] as number);
      }
      if (step === nz) continue;
      // the voxel above it is kept too, within the grid
      const k = Z.sign > 0 ? nz - 1 - Math.max(0, step - 1) : Math.max(0, step - 1);
      // its face farthest along the tool axis, in the frame
      const face = (stock.box.min[Z.axis] as number) + (Z.sign > 0 ? k + 1 : k) * dz;
      tops[cy * nx + cx] = Z.sign * (face - (frame.origin[Z.axis] as number));
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

/** A tilted frame: surface voxels as balls onto square columns of the smallest voxel edge. */
function splatTops(stock: VoxelStock, frame: Frame, kept: Uint8Array): ColumnTops {
  const box = boxToFrame(frame, stock.box);
  const size = Math.min(...stock.d);
  const nx = Math.max(1, Math.ceil((box.max[0] - box.min[0]) / size - 1e-9));
  const ny = Math.max(1, Math.ceil((box.max[1] - box.min[1]) / size - 1e-9));
  const tops = new Float64Array(nx * ny).fill(-Infinity);
  const [n0, n1, n2] = stock.n;
  const [dx, dy, dz] = stock.d;
  const radius = 0.5 * Math.hypot(dx, dy, dz);
  const X = frame.x_axis;
  const Y = frameYAxis(frame);
  const Z = frame.z_axis;
  const o = frame.origin;
  const exposed = (i: number, j: number, k: number, v: number): boolean =>
    i === 0 ||
    j === 0 ||
    k === 0 ||
    i === n0 - 1 ||
    j === n1 - 1 ||
    k === n2 - 1 ||
    kept[v - 1] !== 1 ||
    kept[v + 1] !== 1 ||
    kept[v - n0] !== 1 ||
    kept[v + n0] !== 1 ||
    kept[v - n0 * n1] !== 1 ||
    kept[v + n0 * n1] !== 1;
  for (let k = 0; k < n2; k += 1) {
    const pz = stock.box.min[2] + (k + 0.5) * dz - o[2];
    for (let j = 0; j < n1; j += 1) {
      const py = stock.box.min[1] + (j + 0.5) * dy - o[1];
      for (let i = 0; i < n0; i += 1) {
        const v = (k * n1 + j) * n0 + i;
        if (kept[v] !== 1 || !exposed(i, j, k, v)) continue;
        const px = stock.box.min[0] + (i + 0.5) * dx - o[0];
        const x = px * X[0] + py * X[1] + pz * X[2];
        const y = px * Y[0] + py * Y[1] + pz * Y[2];
        const top = px * Z[0] + py * Z[1] + pz * Z[2] + radius;
        const c0 = Math.max(0, Math.floor((x - radius - box.min[0]) / size));
        const c1 = Math.min(nx - 1, Math.floor((x + radius - box.min[0]) / size));
        const r0 = Math.max(0, Math.floor((y - radius - box.min[1]) / size));
        const r1 = Math.min(ny - 1, Math.floor((y + radius - box.min[1]) / size));
        for (let r = r0; r <= r1; r += 1) {
          for (let c = c0; c <= c1; c += 1) {
            const cell = r * nx + c;
            if (top > (tops[cell] as number)) tops[cell] = top;
          }
        }
      }
    }
  }
  return { x0: box.min[0], y0: box.min[1], nx, ny, dx: size, dy: size, tops };
}

/** Voxel v is part, or material no setup removed. */
function isKept(stock: VoxelStock, v: number): boolean {
  return stock.part[v] === 1 || stock.removed[v] === 0;
}

/** 1 where a voxel is kept (isKept). */
function keptVoxels(stock: VoxelStock): Uint8Array {
  const kept = new Uint8Array(stock.part.length);
  for (let v = 0; v < kept.length; v += 1) kept[v] = isKept(stock, v) ? 1 : 0;
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
  const column = cellAt(columns, x, y);
  return column < 0 ? -Infinity : (columns.tops[column] as number);
}
