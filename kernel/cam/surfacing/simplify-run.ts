/**
 * A run of cutter locations with the points a straight move between their neighbours passes
 * within `tolerance` of left out (Ramer-Douglas-Peucker in 3D, with a stack instead of
 * recursion). milling/simplify.ts does the same in the plane, on Clipper's paths.
 */
import type { Vec3 } from "../types.ts";

export function simplifyRun(run: readonly Vec3[], tolerance: number): Vec3[] {
  const n = run.length;
  if (n < 3) return [...run];
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const last = stack.pop() as number;
    const first = stack.pop() as number;
    let worst = -1;
    let index = -1;
    for (let i = first + 1; i < last; i += 1) {
      const d = distanceToSegment(run[i] as Vec3, run[first] as Vec3, run[last] as Vec3);
      if (d > worst) {
        worst = d;
        index = i;
      }
    }
    if (index >= 0 && worst > tolerance) {
      keep[index] = 1;
      stack.push(first, index, index, last);
    }
  }
  return run.filter((_, i) => keep[i] === 1);
}

function distanceToSegment(p: Vec3, a: Vec3, b: Vec3): number {
  const abx = b[0] - a[0];
  const aby = b[1] - a[1];
  const abz = b[2] - a[2];
  const apx = p[0] - a[0];
  const apy = p[1] - a[1];
  const apz = p[2] - a[2];
  const length2 = abx * abx + aby * aby + abz * abz;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, (apx * abx + apy * aby + apz * abz) / length2));
  return Math.hypot(apx - t * abx, apy - t * aby, apz - t * abz);
}
