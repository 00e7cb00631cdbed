/**
 * A box (a jaw, a parallel, a clamp, the plate) as facets: its faces that face the viewer (three
 * at most, which never overlap one another on screen), each with its outline.
 */
import type { Box3 } from "../math/box3.ts";
import type { Vec3 } from "../math/vec3.ts";
import { hex, shaded, type Facet, type Rgb } from "./facet.ts";
import { facesViewer, lightness, viewPoint } from "./operator-view.ts";

export interface BoxColours {
  surface: Rgb;
  edge: Rgb;
}

/** The six faces: outward normal, and the two axes running along the face. */
const FACES: { axis: 0 | 1 | 2; side: -1 | 1; along: [0 | 1 | 2, 0 | 1 | 2] }[] = [
  { axis: 0, side: -1, along: [1, 2] },
  { axis: 0, side: 1, along: [1, 2] },
  { axis: 1, side: -1, along: [0, 2] },
  { axis: 1, side: 1, along: [0, 2] },
  { axis: 2, side: -1, along: [0, 1] },
  { axis: 2, side: 1, along: [0, 1] },
];

export function boxFacets(box: Box3, colours: BoxColours): Facet[] {
  const facets: Facet[] = [];
  const edgeColour = hex(colours.edge);
  for (const face of FACES) {
    const normal: Vec3 = [0, 0, 0];
    normal[face.axis] = face.side;
    if (!facesViewer(normal)) continue;
    const [a, b] = face.along;
    const corner = (highA: boolean, highB: boolean): Vec3 => {
      const p: Vec3 = [0, 0, 0];
      p[face.axis] = face.side < 0 ? box.min[face.axis] : box.max[face.axis];
      p[a] = highA ? box.max[a] : box.min[a];
      p[b] = highB ? box.max[b] : box.min[b];
      return p;
    };
    const corners = [corner(false, false), corner(true, false), corner(true, true), corner(false, true)];
    const edges = corners.map((p, i): [Vec3, Vec3] => [p, corners[(i + 1) % 4]!]);
    const depth = corners.reduce((sum, p) => sum + viewPoint(p)[2], 0) / 4;
    facets.push({ corners, fill: shaded(colours.surface, lightness(normal)), depth, edges, edgeColour });
  }
  return facets;
}
