/** The kernel's axis-aligned box, its corners, and how far a point lies from its footprint. */
import type { Vec3 } from "./vec3.ts";

/** An axis-aligned box in some frame (the stock in a setup's frame, a vise's jaw), min below max on every axis. */
export interface Box3 {
  min: Vec3;
  max: Vec3;
}

/** Whether the box has volume: min strictly below max on every axis (not empty, not inverted). */
export function hasVolume(box: Box3): boolean {
  return box.min[0] < box.max[0] && box.min[1] < box.max[1] && box.min[2] < box.max[2];
}

/** How far (x, y) lies from the box's XY rectangle: 0 inside it, the corners rounded. */
export function distanceToBoxXY(box: Box3, x: number, y: number): number {
  return Math.hypot(Math.max(box.min[0] - x, 0, x - box.max[0]), Math.max(box.min[1] - y, 0, y - box.max[1]));
}

/** The eight corners of a box. */
export function boxCorners(box: Box3): Vec3[] {
  const out: Vec3[] = [];
  for (const x of [box.min[0], box.max[0]])
    for (const y of [box.min[1], box.max[1]]) for (const z of [box.min[2], box.max[2]]) out.push([x, y, z]);
  return out;
}
