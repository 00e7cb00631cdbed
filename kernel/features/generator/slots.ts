/**
 * Slots. Through slots run across the whole face along u (rectangular, V-shaped, half-round);
 * blind slots enter at the face's edge y = 0 and stop inside it: a square end, a half-circle end
 * (vertical circular end: the round end's axis along the face normal), or a straight back wall
 * turning into the open edge by quarter circles (horizontal circular end).
 */
import { depth, margin, type ToolMaker } from "./context.ts";
import { rotate2 } from "./frame.ts";
import type { Point2 } from "./outlines.ts";
import { cylinder, extrudeOutline, OVERSHOOT, post, prism, union } from "./tools.ts";

/** A slot's centre line y = c across the face, for a slot `width` wide. */
function across(context: Parameters<ToolMaker>[0], width: number): number {
  const m = margin(context.frame) + width / 2;
  return context.draw.uniform(m, Math.max(m, context.frame.b - m));
}

export const rectangularThroughSlot: ToolMaker = (context) => {
  const { oc, scope, frame, draw, skew } = context;
  const width = draw.uniform(0.1, 0.35) * frame.b;
  const c = across(context, width);
  let angle = skew ? draw.uniform(-0.35, 0.35) : 0;
  // a turned slot must still leave through the ends x = 0 and x = a, not through the sides
  const room = Math.min(c, frame.b - c) - margin(frame);
  if (Math.abs(Math.tan(angle)) * (frame.a / 2) + width / 2 / Math.cos(angle) > room) angle = 0;
  const half = frame.a / 2 / Math.cos(angle) + OVERSHOOT;
  const centre: Point2 = [frame.a / 2, c];
  const outline = (
    [
      [-half, -width / 2],
      [half, -width / 2],
      [half, width / 2],
      [-half, width / 2],
    ] as const
  ).map(([x, y]) => rotate2([centre[0] + x, centre[1] + y], centre, angle));
  return extrudeOutline(oc, scope, frame, outline, -depth(context, 0.15, 0.5), OVERSHOOT);
};

/** A V across the face; skewed: the bottom off the middle. */
export const triangularThroughSlot: ToolMaker = (context) => {
  const { oc, scope, frame, draw, skew } = context;
  const width = draw.uniform(0.12, 0.4) * frame.b;
  const c = across(context, width);
  const d = depth(context, 0.15, 0.5);
  const bottom = c + (skew ? draw.uniform(-0.3, 0.3) * width : 0);
  // the V's sides through (c - w/2, 0) and (c + w/2, 0), carried on to z = OVERSHOOT
  const grow = 1 + OVERSHOOT / d;
  const x = -OVERSHOOT;
  return prism(
    oc,
    scope,
    frame,
    [
      [x, bottom + (c - width / 2 - bottom) * grow, OVERSHOOT],
      [x, bottom + (c + width / 2 - bottom) * grow, OVERSHOOT],
      [x, bottom, -d],
    ],
    [frame.a + 2 * OVERSHOOT, 0, 0],
  );
};

/** A half-round groove (or less than half: its axis above the face) across the face. */
export const circularThroughSlot: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const r = draw.uniform(0.08, 0.25) * Math.min(frame.b, frame.t);
  const c = across(context, 2 * r);
  const lift = draw.uniform(0, 0.4) * r;
  return cylinder(oc, scope, frame, [-OVERSHOOT, c, lift], [1, 0, 0], r, frame.a + 2 * OVERSHOOT);
};

/** The x range of a blind slot `width` wide entering at y = 0, `extra` more on each side kept clear. */
function alongEdge(context: Parameters<ToolMaker>[0], width: number, extra = 0): number {
  const m = margin(context.frame) + width / 2 + extra;
  return context.draw.uniform(m, Math.max(m, context.frame.a - m));
}

/** A slot `width` wide about x = c, `d` deep, from beyond the open edge y = 0 to y = `end`. */
function fromEdge(context: Parameters<ToolMaker>[0], c: number, width: number, end: number, d: number) {
  return extrudeOutline(
    context.oc,
    context.scope,
    context.frame,
    [
      [c - width / 2, -OVERSHOOT],
      [c + width / 2, -OVERSHOOT],
      [c + width / 2, end],
      [c - width / 2, end],
    ],
    -d,
    OVERSHOOT,
  );
}

export const rectangularBlindSlot: ToolMaker = (context) => {
  const { frame, draw } = context;
  const width = draw.uniform(0.1, 0.3) * frame.a;
  const length = draw.uniform(0.3, 0.75) * frame.b;
  const c = alongEdge(context, width);
  return fromEdge(context, c, width, length, depth(context, 0.15, 0.5));
};

export const verticalCircularEndBlindSlot: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const width = draw.uniform(0.1, 0.3) * frame.a;
  const length = Math.max(width, draw.uniform(0.3, 0.75) * frame.b);
  const c = alongEdge(context, width);
  const d = depth(context, 0.15, 0.5);
  const end = length - width / 2;
  return union(oc, scope, [
    fromEdge(context, c, width, end, d),
    post(oc, scope, frame, [c, end], width / 2, -d, OVERSHOOT),
  ]);
};

export const horizontalCircularEndBlindSlot: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const width = draw.uniform(0.05, 0.25) * frame.a;
  const reach = draw.uniform(0.1, 0.3) * Math.min(frame.a, frame.b);
  const c = alongEdge(context, width, reach);
  const d = depth(context, 0.15, 0.5);
  return union(oc, scope, [
    fromEdge(context, c, width, reach, d),
    post(oc, scope, frame, [c - width / 2, 0], reach, -d, OVERSHOOT),
    post(oc, scope, frame, [c + width / 2, 0], reach, -d, OVERSHOOT),
  ]);
};
