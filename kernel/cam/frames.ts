/**
 * Setup frames: from the workpiece's coordinates into a setup's, where +Z is the tool axis.
 *
 * The work offset of a setup is the stock's top corner in the setup's frame: x and y at the
 * stock's smallest setup x and y, z at its top (the face the tool meets first). Every point of
 * the stock then has x >= 0, y >= 0, z <= 0: the corner a setter touches off with an edge finder
 * and a tool setter, whatever side of the block is up.
 *
 * The x axis is the workpiece axis most perpendicular to the tool axis, chosen in the order X, Y,
 * Z: from +Z the frame is the workpiece's own; from -Z the part is turned about X (y and z flip);
 * from +X or -X the x axis is the workpiece's Y.
 */
import { cross, dot, length, normalise, scale, sub } from "../math/vec3.ts";
import { boxCorners } from "../math/box3.ts";
import type { Box3, Frame, TriangleSoup, Vec3 } from "./types.ts";

/** `a` scaled to length 1; a frame axis of no length is a caller's mistake, not a zero axis. */
function unitAxis(a: Vec3): Vec3 {
  if (!(length(a) > 0)) throw new RangeError("a frame axis has no length");
  return normalise(a);
}

/** The unit axes (x, y, z) of a frame whose z is `direction`. */
export function setupAxes(direction: Vec3): { x: Vec3; y: Vec3; z: Vec3 } {
  const z = unitAxis(direction);
  const candidates: Vec3[] = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  // the first workpiece axis that is clearly not along z (|cos| below 0.9), made perpendicular
  const seed = candidates.find((axis) => Math.abs(dot(axis, z)) < 0.9) as Vec3;
  const x = unitAxis(sub(seed, scale(z, dot(seed, z))));
  return { x, y: cross(z, x), z };
}

/** The frame's y axis in the workpiece's coordinates: z × x. */
export function frameYAxis(frame: Frame): Vec3 {
  return cross(frame.z_axis, frame.x_axis);
}

/** Into the frame (a point of the workpiece, in setup coordinates). */
export function toFrame(frame: Frame, point: Vec3): Vec3 {
  const y = frameYAxis(frame);
  const d = sub(point, frame.origin);
  return [dot(d, frame.x_axis), dot(d, y), dot(d, frame.z_axis)];
}

/** Out of the frame (a setup point, in workpiece coordinates). */
export function fromFrame(frame: Frame, point: Vec3): Vec3 {
  const y = frameYAxis(frame);
  return [
    frame.origin[0] + point[0] * frame.x_axis[0] + point[1] * y[0] + point[2] * frame.z_axis[0],
    frame.origin[1] + point[0] * frame.x_axis[1] + point[1] * y[1] + point[2] * frame.z_axis[1],
    frame.origin[2] + point[0] * frame.x_axis[2] + point[1] * y[2] + point[2] * frame.z_axis[2],
  ];
}

/** A direction of the workpiece in setup coordinates. */
export function directionToFrame(frame: Frame, direction: Vec3): Vec3 {
  const y = frameYAxis(frame);
  return [dot(direction, frame.x_axis), dot(direction, y), dot(direction, frame.z_axis)];
}

/** A direction of the setup's coordinates in the workpiece's: directionToFrame undone. */
export function directionFromFrame(frame: Frame, direction: Vec3): Vec3 {
  const y = frameYAxis(frame);
  return [0, 1, 2].map(
    (m) =>
      direction[0] * (frame.x_axis[m] as number) +
      direction[1] * (y[m] as number) +
      direction[2] * (frame.z_axis[m] as number),
  ) as Vec3;
}

/** The box of `box`'s corners in `frame` (exact for axis-aligned frames, enclosing otherwise). */
export function boxToFrame(frame: Frame, box: Box3): Box3 {
  const points = boxCorners(box).map((corner) => toFrame(frame, corner));
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of points) {
    for (let i = 0; i < 3; i += 1) {
      min[i] = Math.min(min[i] as number, p[i] as number);
      max[i] = Math.max(max[i] as number, p[i] as number);
    }
  }
  return { min: min.map(tidy) as Vec3, max: max.map(tidy) as Vec3 };
}

/** -0 and 1e-13 noise read as 0: frames are built from unit axes and box corners. */
function tidy(value: number): number {
  return Math.abs(value) < 1e-9 ? 0 : value;
}

/** The setup frame for a tool axis and a stock box (workpiece coordinates): see the header. */
export function setupFrame(direction: Vec3, stock: Box3): Frame {
  const { x, z } = setupAxes(direction);
  const provisional: Frame = { origin: [0, 0, 0], x_axis: x, z_axis: z };
  const inFrame = boxToFrame(provisional, stock);
  const origin = fromFrame(provisional, [inFrame.min[0], inFrame.min[1], inFrame.max[2]]);
  return { origin: origin.map(tidy) as Vec3, x_axis: x.map(tidy) as Vec3, z_axis: z.map(tidy) as Vec3 };
}

/** A triangle soup (positions in workpiece coordinates) in the frame; indices are shared. */
export function soupToFrame(frame: Frame, soup: TriangleSoup): TriangleSoup {
  const positions = new Float32Array(soup.positions.length);
  for (let i = 0; i < soup.positions.length; i += 3) {
    const p = toFrame(frame, [
      soup.positions[i] as number,
      soup.positions[i + 1] as number,
      soup.positions[i + 2] as number,
    ]);
    positions[i] = p[0];
    positions[i + 1] = p[1];
    positions[i + 2] = p[2];
  }
  return { positions, indices: soup.indices };
}
