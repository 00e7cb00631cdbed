/** Small linear algebra for the fits: radial offsets, a 3 x 3 solve, an eigenvector. */
import type { Vec3 } from "../types.ts";
import { dot, normalise, scale, sub } from "../../math/vec3.ts";

/** p's offset from the axis through `point` along unit `axis`, perpendicular to it */
export function radialFrom(p: Vec3, point: Vec3, axis: Vec3): Vec3 {
  const w = sub(p, point);
  return sub(w, scale(axis, dot(w, axis)));
}

/** Solves the 3 x 3 system m x = r (Gaussian elimination with pivoting); null if singular. */
export function solve3(m: number[][], r: number[]): [number, number, number] | null {
  const a = m.map((row, i) => [...row, r[i] as number]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let row = col + 1; row < 3; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) < 1e-300) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    for (let row = 0; row < 3; row++) {
      if (row === col) continue;
      const f = a[row]![col]! / a[col]![col]!;
      for (let k = col; k < 4; k++) a[row]![k]! -= f * a[col]![k]!;
    }
  }
  const x = [a[0]![3]! / a[0]![0]!, a[1]![3]! / a[1]![1]!, a[2]![3]! / a[2]![2]!];
  // the algebraic fit is ill-conditioned when the points are nearly on a line
  if (!x.every(Number.isFinite)) return null;
  return x as [number, number, number];
}

/** The unit eigenvector of the symmetric 3 x 3 matrix (row-major) with the smallest eigenvalue (Jacobi). */
export function smallestEigenvector(m: number[]): Vec3 {
  const a = [...m];
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[1]!) + Math.abs(a[2]!) + Math.abs(a[5]!);
    if (off < 1e-15) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = a[3 * p + q]!;
      if (Math.abs(apq) < 1e-300) continue;
      const app = a[3 * p + p]!,
        aqq = a[3 * q + q]!;
      const theta = (aqq - app) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1),
        s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p]!,
          akq = a[3 * k + q]!;
        a[3 * k + p] = c * akp - s * akq;
        a[3 * k + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k]!,
          aqk = a[3 * q + k]!;
        a[3 * p + k] = c * apk - s * aqk;
        a[3 * q + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[3 * k + p]!,
          vkq = v[3 * k + q]!;
        v[3 * k + p] = c * vkp - s * vkq;
        v[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
  const eigen = [a[0]!, a[4]!, a[8]!];
  const smallest = eigen.indexOf(Math.min(...eigen));
  return normalise([v[smallest]!, v[3 + smallest]!, v[6 + smallest]!]);
}
