/**
 * What the picture's painter sorts: a flat polygon of the setup's frame with its fill, the edges
 * drawn with it, and its depth towards the viewer (operator-view.ts). The part's triangles and
 * the workholding's box faces are both facets, so they are drawn back to front together.
 */
import type { Vec3 } from "../math/vec3.ts";

export type Rgb = readonly [number, number, number];

export interface Facet {
  /** corners in the setup's frame, in order round the polygon */
  corners: Vec3[];
  /** "#rrggbb" */
  fill: string;
  /** the corners' mean depth: the larger, the nearer the viewer */
  depth: number;
  /** segments drawn over the fill right after it: the part's edges, a box's outline */
  edges: [Vec3, Vec3][];
  /** "#rrggbb" of the edges */
  edgeColour: string;
}

/** steps of lightness a fill is rounded to: neighbouring flat faces share a colour, and a path */
const SHADES = 40;

/** The colour lit to `lightness` (0..1), rounded to one of SHADES steps. */
export function shaded(colour: Rgb, lightness: number): string {
  const step = Math.round(Math.min(1, Math.max(0, lightness)) * SHADES) / SHADES;
  return hex(colour.map((c) => c * step) as unknown as Rgb);
}

export function hex(colour: Rgb): string {
  return `#${colour
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}
