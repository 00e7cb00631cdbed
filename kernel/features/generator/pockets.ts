/** Pockets: a closed profile sunk into the face to a flat floor; the circular end pocket is an obround. */
import { depth, type ToolContext, type ToolMaker } from "./context.ts";
import { rotate2 } from "./frame.ts";
import { centreFor, faceScale, hexagon, type Outline, rectangle, triangle } from "./outlines.ts";
import { extrudeOutline, OVERSHOOT, post, union } from "./tools.ts";

function pocket(outline: (context: ToolContext) => Outline): ToolMaker {
  return (context) =>
    extrudeOutline(
      context.oc,
      context.scope,
      context.frame,
      outline(context).points,
      -depth(context, 0.15, 0.6),
      OVERSHOOT,
    );
}

export const triangularPocket = pocket(triangle);
export const rectangularPocket = pocket(rectangle);
export const hexagonalPocket = pocket(hexagon);

/** Two half circles joined by straight sides, along u (or v), or at any angle when skewed. */
export const circularEndPocket: ToolMaker = (context) => {
  const { oc, scope, frame, draw, skew } = context;
  const scale = faceScale(context);
  const r = draw.uniform(0.06, 0.15) * scale;
  const length = draw.uniform(0.15, 0.4) * scale;
  const centre = centreFor(context, length / 2 + r);
  const angle = skew ? draw.uniform(0, Math.PI) : draw.pick([0, Math.PI / 2]);
  const d = depth(context, 0.15, 0.6);
  const at = (x: number, y: number) => rotate2([centre[0] + x, centre[1] + y], centre, angle);
  const body = extrudeOutline(
    oc,
    scope,
    frame,
    [at(-length / 2, -r), at(length / 2, -r), at(length / 2, r), at(-length / 2, r)],
    -d,
    OVERSHOOT,
  );
  return union(oc, scope, [
    body,
    post(oc, scope, frame, at(-length / 2, 0), r, -d, OVERSHOOT),
    post(oc, scope, frame, at(length / 2, 0), r, -d, OVERSHOOT),
  ]);
};
