/** Round features drilled or bored along the face normal: through and blind holes (flat or 118-degree drilled bottoms) and O-ring grooves. */
import { depth, type ToolMaker } from "./context.ts";
import { centreFor, faceScale } from "./outlines.ts";
import { cone, difference, OVERSHOOT, post, union } from "./tools.ts";

/** A twist drill's point: 118 degrees included. */
const DRILL_HALF_ANGLE = (59 * Math.PI) / 180;

export const throughHole: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const r = Math.max(0.5, draw.uniform(0.04, 0.12) * faceScale(context));
  return post(oc, scope, frame, centreFor(context, r), r, -frame.t - OVERSHOOT, OVERSHOOT);
};

/** Flat-bottomed, or (hand-modelled variant) with a drill point. */
export const blindHole: ToolMaker = (context) => {
  const { oc, scope, frame, draw, skew } = context;
  const r = Math.max(0.5, draw.uniform(0.04, 0.12) * faceScale(context));
  const centre = centreFor(context, r);
  const tip = r / Math.tan(DRILL_HALF_ANGLE);
  const d = Math.min(depth(context, 0.2, 0.7), frame.t - tip - 1);
  const bore = post(oc, scope, frame, centre, r, -d, OVERSHOOT);
  if (!skew) return bore;
  return union(oc, scope, [bore, cone(oc, scope, frame, [centre[0], centre[1], -d - tip], [0, 0, 1], 0, r, tip)]);
};

export const oRing: ToolMaker = (context) => {
  const { oc, scope, frame, draw } = context;
  const outer = draw.uniform(0.15, 0.35) * faceScale(context);
  const inner = outer * draw.uniform(0.45, 0.8);
  const centre = centreFor(context, outer);
  const d = depth(context, 0.08, 0.3);
  return difference(
    oc,
    scope,
    post(oc, scope, frame, centre, outer, -d, OVERSHOOT),
    post(oc, scope, frame, centre, inner, -d - OVERSHOOT, 2 * OVERSHOOT),
  );
};
