/** Prismatic passages: a closed profile cut through the whole block along the face normal. */
import type { ToolMaker } from "./context.ts";
import { hexagon, type Outline, rectangle, triangle } from "./outlines.ts";
import { extrudeOutline, OVERSHOOT } from "./tools.ts";

function passage(outline: (context: Parameters<ToolMaker>[0]) => Outline): ToolMaker {
  return (context) =>
    extrudeOutline(
      context.oc,
      context.scope,
      context.frame,
      outline(context).points,
      -context.frame.t - OVERSHOOT,
      OVERSHOOT,
    );
}

export const triangularPassage = passage(triangle);
export const rectangularPassage = passage(rectangle);
export const hexagonalPassage = passage(hexagon);
