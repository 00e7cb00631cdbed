/** Closed profiles on a face (local 2D), shared by passages and pockets: triangles, rectangles, hexagons, each with the radius of the circle about its centre that holds it. */
import type { ToolContext } from "./context.ts";
import { margin } from "./context.ts";
import { rotate2 } from "./frame.ts";

export type Point2 = readonly [number, number];

export interface Outline {
  points: Point2[];
}

/** A centre on the face at which a profile of `radius` stays `margin` inside the face's edges. */
export function centreFor(context: ToolContext, radius: number): Point2 {
  const { frame, draw } = context;
  const m = margin(frame) + radius;
  return [draw.uniform(m, Math.max(m, frame.a - m)), draw.uniform(m, Math.max(m, frame.b - m))];
}

/** The size scale of a face: its shorter side. */
export function faceScale(context: ToolContext): number {
  return Math.min(context.frame.a, context.frame.b);
}

export function triangle(context: ToolContext): Outline {
  const { draw } = context;
  const radius = draw.uniform(0.12, 0.3) * faceScale(context);
  const centre = centreFor(context, radius);
  const start = draw.uniform(0, 2 * Math.PI);
  const jitter = (Math.PI / 180) * 20;
  const points = [0, 1, 2].map((k): Point2 => {
    const angle = start + (k * 2 * Math.PI) / 3 + draw.uniform(-jitter, jitter);
    const r = radius * draw.uniform(0.75, 1);
    return [centre[0] + r * Math.cos(angle), centre[1] + r * Math.sin(angle)];
  });
  return { points };
}

export function rectangle(context: ToolContext): Outline {
  const { draw, skew } = context;
  const scale = faceScale(context);
  const w = draw.uniform(0.12, 0.45) * scale,
    h = draw.uniform(0.12, 0.45) * scale;
  const radius = Math.hypot(w, h) / 2;
  const centre = centreFor(context, skew ? radius : Math.max(w, h) / 2);
  const angle = skew ? draw.uniform(-Math.PI / 4, Math.PI / 4) : 0;
  const corners: Point2[] = [
    [centre[0] - w / 2, centre[1] - h / 2],
    [centre[0] + w / 2, centre[1] - h / 2],
    [centre[0] + w / 2, centre[1] + h / 2],
    [centre[0] - w / 2, centre[1] + h / 2],
  ];
  return { points: corners.map((p) => rotate2(p, centre, angle)) };
}

export function hexagon(context: ToolContext): Outline {
  const { draw, skew } = context;
  const radius = draw.uniform(0.1, 0.28) * faceScale(context);
  const centre = centreFor(context, radius);
  const start = skew ? draw.uniform(0, Math.PI / 3) : draw.pick([0, Math.PI / 6]);
  const points = [0, 1, 2, 3, 4, 5].map((k): Point2 => {
    const angle = start + (k * Math.PI) / 3;
    return [centre[0] + radius * Math.cos(angle), centre[1] + radius * Math.sin(angle)];
  });
  return { points };
}
