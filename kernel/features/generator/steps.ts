/**
 * Steps. Through steps take the face's edge y = 0 off along its whole length: a wall parallel to
 * the edge (rectangular), at an angle to it (slanted) or bent once (2 sides). Blind steps take a
 * corner (0, 0) off: a triangle, a rectangle or a quarter circle.
 */
import { DoesNotFit, depth, type ToolMaker } from "./context.ts";
import type { Point2 } from "./outlines.ts";
import { extrudeOutline, OVERSHOOT, post } from "./tools.ts";

const O = OVERSHOOT;
const MIN_BEND = (12 * Math.PI) / 180;

/** y at x = `at` on the wall line through (x0, y0) and (x1, y1): the wall carried on past the face. */
function wallAt([x0, y0]: Point2, [x1, y1]: Point2, at: number): number {
  return y0 + ((y1 - y0) * (at - x0)) / (x1 - x0);
}

export const rectangularThroughStep: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const w = draw.uniform(0.15, 0.5) * frame.b;
  return extrudeOutline(
    oc,
    scope,
    frame,
    [
      [-O, -O],
      [frame.a + O, -O],
      [frame.a + O, w],
      [-O, w],
    ],
    -depth(context, 0.15, 0.6),
    O,
  );
};

export const slantedThroughStep: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const { a, b } = frame;
  const w0 = draw.uniform(0.1, 0.6) * b;
  // at least MIN_BEND off the edge's direction, and the wall must still end on the face's far edge
  const size = Math.max(a * Math.tan(MIN_BEND), draw.uniform(0.15, 0.5) * b);
  const rise = w0 + size <= 0.9 * b ? size : w0 - size >= 0.05 * b ? -size : null;
  if (rise === null) throw new DoesNotFit("slanted through step");
  const start: Point2 = [0, w0],
    end: Point2 = [a, w0 + rise];
  return extrudeOutline(
    oc,
    scope,
    frame,
    [
      [-O, -O],
      [a + O, -O],
      [a + O, wallAt(start, end, a + O)],
      [-O, wallAt(start, end, -O)],
    ],
    -depth(context, 0.15, 0.6),
    O,
  );
};

/** The wall bends once, at x = p, into or away from the material. */
export const twoSidesThroughStep: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const { a, b } = frame;
  const p = draw.uniform(0.3, 0.7) * a;
  const bendIn = draw.chance(0.5);
  const low = draw.uniform(0.1, 0.3) * b,
    high = draw.uniform(0.45, 0.75) * b;
  const [ends, middle] = bendIn ? [high, low] : [low, high];
  const left: Point2 = [0, ends],
    bend: Point2 = [p, middle],
    right: Point2 = [a, ends + draw.uniform(-0.05, 0.05) * b];
  return extrudeOutline(
    oc,
    scope,
    frame,
    [[-O, -O], [a + O, -O], [a + O, wallAt(bend, right, a + O)], bend, [-O, wallAt(left, bend, -O)]],
    -depth(context, 0.15, 0.6),
    O,
  );
};

export const triangularBlindStep: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const p = draw.uniform(0.2, 0.6) * frame.a,
    q = draw.uniform(0.2, 0.6) * frame.b;
  // the wall x/p + y/q = 1, carried on past the face's edges x = 0 and y = 0
  return extrudeOutline(
    oc,
    scope,
    frame,
    [
      [-O, -O],
      [p * (1 + O / q), -O],
      [-O, q * (1 + O / p)],
    ],
    -depth(context, 0.15, 0.6),
    O,
  );
};

export const rectangularBlindStep: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const p = draw.uniform(0.15, 0.6) * frame.a,
    q = draw.uniform(0.15, 0.6) * frame.b;
  return extrudeOutline(
    oc,
    scope,
    frame,
    [
      [-O, -O],
      [p, -O],
      [p, q],
      [-O, q],
    ],
    -depth(context, 0.15, 0.6),
    O,
  );
};

export const circularBlindStep: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const r = draw.uniform(0.2, 0.5) * Math.min(frame.a, frame.b);
  return post(oc, scope, frame, [0, 0], r, -depth(context, 0.15, 0.6), O);
};
