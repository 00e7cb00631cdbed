/**
 * The kernel's 3-D vector: a point or direction as an [x, y, z] tuple (millimetres for points),
 * and the small arithmetic on it that feature recognition, the planner and the renderers share.
 * Helpers return new tuples and never mutate their arguments.
 */
export type Vec3 = [number, number, number];

export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const length = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const distance = (a: Vec3, b: Vec3): number => length(sub(a, b));

/** `a` scaled to length 1; the zero vector stays zero. */
export function normalise(a: Vec3): Vec3 {
  const l = length(a);
  return l > 0 ? scale(a, 1 / l) : [0, 0, 0];
}

/** The angle between `a` and `b` in radians, 0..pi (atan2 keeps it accurate near 0 and pi). */
export function angleBetween(a: Vec3, b: Vec3): number {
  return Math.atan2(Math.hypot(...cross(a, b)), dot(a, b));
}

/** `a` without its component along unit `d` */
export function perpendicularPart(a: Vec3, d: Vec3): Vec3 {
  return sub(a, scale(d, dot(a, d)));
}

/**
 * A unit vector perpendicular to unit `d`: `d` crossed with whichever of X and Y is further from
 * it, so the cross product never vanishes.
 */
export function perpendicularTo(d: Vec3): Vec3 {
  const helper: Vec3 = Math.abs(d[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  return normalise(cross(d, helper));
}

/** Two unit vectors perpendicular to unit `axis` and to each other: `u = perpendicularTo(axis)`, `v = axis x u`. */
export function basisAround(axis: Vec3): [Vec3, Vec3] {
  const u = perpendicularTo(axis);
  return [u, cross(axis, u)];
}

/** The lowest and highest of `points` along `d` (dot products; +-Infinity for no points). */
export function projectAlong(points: readonly Vec3[], d: Vec3): { min: number; max: number } {
  let min = Infinity,
    max = -Infinity;
  for (const p of points) {
    const t = dot(p, d);
    if (t < min) min = t;
    if (t > max) max = t;
  }
  return { min, max };
}

/** Distance of point `p` from the line through `origin` along unit `direction`. */
export function distanceToLine(p: Vec3, origin: Vec3, direction: Vec3): number {
  return length(perpendicularPart(sub(p, origin), direction));
}

/** Rounds each component to `digits` decimals (and turns -0 into 0) for output. */
export function rounded(a: Vec3, digits = 6): Vec3 {
  const f = 10 ** digits;
  return [Math.round(a[0] * f) / f + 0, Math.round(a[1] * f) / f + 0, Math.round(a[2] * f) / f + 0];
}

export function roundNumber(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f + 0;
}

/** Unit vectors of the six axis directions, in the order +X, -X, +Y, -Y, +Z, -Z. */
export const AXIS_DIRECTIONS: readonly { name: string; direction: Vec3 }[] = [
  { name: "+X", direction: [1, 0, 0] },
  { name: "-X", direction: [-1, 0, 0] },
  { name: "+Y", direction: [0, 1, 0] },
  { name: "-Y", direction: [0, -1, 0] },
  { name: "+Z", direction: [0, 0, 1] },
  { name: "-Z", direction: [0, 0, -1] },
];

/** Whether the unit vector `d` lies along one of the six axis directions, within `tolerance` of its cosine. */
export function isAxisDirection(d: Vec3, tolerance = 1e-6): boolean {
  return Math.max(Math.abs(d[0]), Math.abs(d[1]), Math.abs(d[2])) > 1 - tolerance;
}

/** "+Z" for an axis direction, else the rounded components. */
export function directionName(d: Vec3, tolerance = 1e-6): string {
  for (const axis of AXIS_DIRECTIONS) if (dot(axis.direction, d) > 1 - tolerance) return axis.name;
  return `[${rounded(d, 3).join(", ")}]`;
}
