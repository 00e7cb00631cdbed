/** What a feature maker gets: the face it goes on (already turned to a random edge and corner), the draws, and whether to make it as a hand modeller might (off the block's axes, bevels of other angles). */
import type { OpenCascadeInstance, TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { OcctScope } from "../../geometry/occt-scope.ts";
import type { Draw } from "./draw.ts";
import type { Frame } from "./frame.ts";

export interface ToolContext {
  oc: OpenCascadeInstance;
  scope: OcctScope;
  frame: Frame;
  draw: Draw;
  /** off the block's axes where the class allows it, unequal bevels, drilled bottoms */
  skew: boolean;
}

/** The body a feature removes from the block; every face of it that ends up on the part is the feature's. */
export type ToolMaker = (context: ToolContext) => TopoDS_Shape;

/** Distance a closed feature keeps from the face's edges, mm. */
export function margin(frame: Frame): number {
  return Math.max(0.5, 0.05 * Math.min(frame.a, frame.b));
}

/** A depth into the block: `lo` to `hi` of its thickness under the face. */
export function depth(context: ToolContext, lo: number, hi: number): number {
  return context.draw.uniform(lo, hi) * context.frame.t;
}

/** A feature that does not fit on the face it was given: the generator draws another place. */
export class DoesNotFit extends Error {
  constructor(what: string) {
    super(`${what} does not fit on this face`);
  }
}
