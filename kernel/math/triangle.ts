/**
 * Triangles of an indexed mesh held flat: x, y, z per vertex in one array, three vertex numbers
 * per triangle in another. The readers, the face analysis and the stock simulation all walk
 * meshes this way.
 */
import type { Vec3 } from "./vec3.ts";

/** The nine coordinates of a triangle's corners a, b, c: ax, ay, az, bx, by, bz, cx, cy, cz. */
export type TriangleCorners = [number, number, number, number, number, number, number, number, number];

/**
 * The corners of triangle `t` (the t-th three of `indices`), written into `out` and returned:
 * loops over every triangle pass one array they keep rather than make one per triangle.
 */
export function triangleCorners(
  positions: Float32Array | Float64Array,
  indices: Uint32Array,
  t: number,
  out: TriangleCorners,
): TriangleCorners {
  const a = 3 * (indices[3 * t] as number),
    b = 3 * (indices[3 * t + 1] as number),
    c = 3 * (indices[3 * t + 2] as number);
  out[0] = positions[a] as number;
  out[1] = positions[a + 1] as number;
  out[2] = positions[a + 2] as number;
  out[3] = positions[b] as number;
  out[4] = positions[b + 1] as number;
  out[5] = positions[b + 2] as number;
  out[6] = positions[c] as number;
  out[7] = positions[c + 1] as number;
  out[8] = positions[c + 2] as number;
  return out;
}

/**
 * (b - a) x (c - a) for the corners starting at offsets `a`, `b`, `c` of `positions` (a mesh's
 * array, or TriangleCorners with 0, 3, 6): the triangle's normal by its winding, as long as twice
 * its area (zero for a sliver).
 */
export function triangleCross(positions: ArrayLike<number>, a: number, b: number, c: number): Vec3 {
  const ux = (positions[b] as number) - (positions[a] as number),
    uy = (positions[b + 1] as number) - (positions[a + 1] as number),
    uz = (positions[b + 2] as number) - (positions[a + 2] as number);
  const vx = (positions[c] as number) - (positions[a] as number),
    vy = (positions[c + 1] as number) - (positions[a + 1] as number),
    vz = (positions[c + 2] as number) - (positions[a + 2] as number);
  return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
}

/** The distance between the points starting at offsets `a` and `b` of `positions`. */
export function pointDistance(positions: Float32Array | Float64Array, a: number, b: number): number {
  return Math.hypot(
    (positions[b] as number) - (positions[a] as number),
    (positions[b + 1] as number) - (positions[a + 1] as number),
    (positions[b + 2] as number) - (positions[a + 2] as number),
  );
}
