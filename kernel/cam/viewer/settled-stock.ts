/**
 * The stock a later setup shows, settled onto what the setups before it really left.
 *
 * A setup starts from the voxel stock carried over (simulation/carried-stock.ts), whose column
 * tops are never below the truth and up to a voxel and a half above it (half a voxel's diagonal
 * more when tilted): safe for planning, but drawn as it is, every face an earlier setup finished
 * and this one does not cut would stand that much proud of the part, blue beyond the tolerance,
 * over half the cells of a side setup of partC. So each cell's top is checked against the earlier
 * setups' own final height fields, the voxel stock's source: going down the column from the top
 * in steps, the first point that no earlier setup removed (a point is removed when it lies above
 * a setup's field, seen in that setup's frame, as voxel-stock.ts removes voxels) is material;
 * the search ends at the part or the stock's bottom. A column can be wrong along its whole length
 * (one running beside a face an earlier setup cut, in the layer of voxels grown round it), so the
 * search goes all the way, in steps of `coarseMm` (half a voxel: material thinner than that the
 * voxels do not hold either), and the first step into material is narrowed to `fineMm`. The top
 * found is at most `fineMm` above the truth.
 */
import { fromFrame, toFrame } from "../frames.ts";
import { heightAt, type HeightField } from "../simulation/height-field.ts";
import type { PartHeights } from "../simulation/part-heights.ts";
import type { Frame, Vec3 } from "../types.ts";

export interface EarlierSetup {
  frame: Frame;
  /** its final stock */
  field: HeightField;
}

interface Seen {
  field: HeightField;
  /** this setup's coordinates to the earlier one's: rows of [x, y, z, 1] */
  m: number[];
}

/** An affine map from frame `from` to frame `to`, as 3 rows of 4. */
function frameToFrame(from: Frame, to: Frame): number[] {
  const at = (p: Vec3) => toFrame(to, fromFrame(from, p));
  const o = at([0, 0, 0]);
  const axes = [at([1, 0, 0]), at([0, 1, 0]), at([0, 0, 1])].map((p) => [p[0] - o[0], p[1] - o[1], p[2] - o[2]]);
  const m: number[] = [];
  for (let r = 0; r < 3; r += 1) m.push(axes[0]![r]!, axes[1]![r]!, axes[2]![r]!, o[r]!);
  return m;
}

export function settledOnEarlier(input: {
  field: HeightField;
  part: PartHeights;
  frame: Frame;
  earlier: readonly EarlierSetup[];
  coarseMm: number;
  fineMm: number;
}): HeightField {
  const { field, part, coarseMm, fineMm } = input;
  const seen: Seen[] = input.earlier.map((e) => ({ field: e.field, m: frameToFrame(input.frame, e.frame) }));
  const heights = field.heights.slice();
  const removed = (x: number, y: number, z: number): boolean => {
    for (const { field: f, m } of seen) {
      const qx = m[0]! * x + m[1]! * y + m[2]! * z + m[3]!;
      const qy = m[4]! * x + m[5]! * y + m[6]! * z + m[7]!;
      const qz = m[8]! * x + m[9]! * y + m[10]! * z + m[11]!;
      if (qz > heightAt(f, qx, qy)) return true;
    }
    return false;
  };
  for (let j = 0; j < field.ny; j += 1) {
    const y = field.y0 + (j + 0.5) * field.dy;
    for (let i = 0; i < field.nx; i += 1) {
      const k = j * field.nx + i;
      const h = heights[k] as number;
      if (h <= field.bottom) continue;
      const x = field.x0 + (i + 0.5) * field.dx;
      const floor = Math.max(part.heights[k] as number, field.bottom);
      let top = floor;
      // above: a height known removed (or the top); z: the next one tried
      let above = h;
      for (let z = h - fineMm / 2; z > floor; z = Math.max(floor, z - coarseMm)) {
        if (!removed(x, y, z)) {
          // material at z, none found at `above`: narrow the step down to fineMm
          let low = z;
          while (above - low > fineMm) {
            const mid = (above + low) / 2;
            if (removed(x, y, mid)) above = mid;
            else low = mid;
          }
          top = Math.min(h, above);
          break;
        }
        above = z;
        if (z === floor) break;
      }
      heights[k] = top;
    }
  }
  return { ...field, heights };
}
