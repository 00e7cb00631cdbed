/**
 * Where a feature goes on the block: a face of the stock box as a local frame. Local (x, y, z)
 * is origin + x u + y v + z w, with w the face's outward normal, x in [0, a], y in [0, b] on the
 * face and the material at z in [-t, 0]. Feature makers work in these coordinates only, so one
 * maker puts its feature on any face, at any of the face's four edges and corners (`turned`).
 */
export type Vec3 = readonly [number, number, number];

export interface Frame {
  origin: Vec3;
  u: Vec3;
  v: Vec3;
  w: Vec3;
  a: number;
  b: number;
  /** the block's thickness under the face */
  t: number;
}

const add = (p: Vec3, q: Vec3, s = 1): Vec3 => [p[0] + s * q[0], p[1] + s * q[1], p[2] + s * q[2]];
const neg = (p: Vec3): Vec3 => [-p[0], -p[1], -p[2]];

/** The six faces of the box [0, size], each seen from outside (u x v = w). */
export function blockFrames(size: Vec3): Frame[] {
  const [X, Y, Z] = size;
  return [
    { origin: [0, 0, Z], u: [1, 0, 0], v: [0, 1, 0], w: [0, 0, 1], a: X, b: Y, t: Z },
    { origin: [0, Y, 0], u: [1, 0, 0], v: [0, -1, 0], w: [0, 0, -1], a: X, b: Y, t: Z },
    { origin: [X, 0, 0], u: [0, 1, 0], v: [0, 0, 1], w: [1, 0, 0], a: Y, b: Z, t: X },
    { origin: [0, Y, 0], u: [0, -1, 0], v: [0, 0, 1], w: [-1, 0, 0], a: Y, b: Z, t: X },
    { origin: [X, Y, 0], u: [-1, 0, 0], v: [0, 0, 1], w: [0, 1, 0], a: X, b: Z, t: Y },
    { origin: [0, 0, 0], u: [1, 0, 0], v: [0, 0, 1], w: [0, -1, 0], a: X, b: Z, t: Y },
  ];
}

/** The same face turned a quarter `turns` times about w: its edge y = 0 and corner (0, 0) move round the face. */
export function turned(frame: Frame, turns: number): Frame {
  let f = frame;
  for (let i = 0; i < ((turns % 4) + 4) % 4; i++)
    f = { origin: add(f.origin, f.u, f.a), u: f.v, v: neg(f.u), w: f.w, a: f.b, b: f.a, t: f.t };
  return f;
}

/** The world point of local (x, y, z). */
export function toWorld(frame: Frame, [x, y, z]: Vec3): Vec3 {
  return add(add(add(frame.origin, frame.u, x), frame.v, y), frame.w, z);
}

/** The world direction of local direction (x, y, z). */
export function directionToWorld(frame: Frame, [x, y, z]: Vec3): Vec3 {
  return add(add(add([0, 0, 0], frame.u, x), frame.v, y), frame.w, z);
}

/** Local 2D point (x, y) turned by `angle` about `centre`. */
export function rotate2(
  [x, y]: readonly [number, number],
  centre: readonly [number, number],
  angle: number,
): [number, number] {
  const c = Math.cos(angle),
    s = Math.sin(angle);
  const dx = x - centre[0],
    dy = y - centre[1];
  return [centre[0] + c * dx - s * dy, centre[1] + s * dx + c * dy];
}
