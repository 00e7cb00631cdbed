/**
 * Features on edges. A chamfer is either a wedge cut along the face's edge y = 0 (as MFCAD makes
 * them: a bevel across a block edge, 45 degrees or, skewed, another angle), or OCCT's chamfer on
 * a convex edge of the part (a block edge or a feature's rim). A round is OCCT's fillet on such
 * an edge. Edge features come after the cuts, on the part as it then is.
 */
import type { OpenCascadeInstance, TopoDS_Edge, TopoDS_Face } from "opencascade.js/dist/node.js";
import type { OcctScope } from "../../geometry/occt-scope.ts";
import { analyseSolid } from "../analyse-brep.ts";
import type { FaceClass } from "../recognition/types.ts";
import type { ToolMaker } from "./context.ts";
import type { Draw } from "./draw.ts";
import type { LabelledSolid } from "./labelled-solid.ts";
import { generatorOcct } from "./occt.ts";
import { OVERSHOOT, prism } from "./tools.ts";

export const chamferWedge: ToolMaker = (context) => {
  const { oc, scope, frame, draw, skew } = context;
  const across = draw.uniform(0.05, 0.2) * Math.min(frame.b, frame.t);
  const angle = skew ? (draw.uniform(25, 65) * Math.PI) / 180 : Math.PI / 4;
  const down = Math.min(across * Math.tan(angle), 0.4 * frame.t);
  // the bevel's line from (y across, z 0) to (y 0, z -down), carried on half its length past both ends
  const at = (s: number) => [across * (1 - s), -down * s] as const;
  const [y0, z0] = at(-0.5),
    [y1, z1] = at(1.5);
  const x = -OVERSHOOT;
  return prism(
    oc,
    scope,
    frame,
    [
      [x, y0, z0],
      [x, y1, z1],
      [x, y1, z0],
    ],
    [frame.a + 2 * OVERSHOOT, 0, 0],
  );
};

/** Faces an edge feature may start from: the stock's and machined features' own faces, not other blends. */
const BLENDS: ReadonlySet<FaceClass> = new Set(["round", "chamfer"]);

interface EdgeChoice {
  edge: TopoDS_Edge;
  face: TopoDS_Face;
  length: number;
}

/** Convex straight or circular edges between two faces that are not blends, in a random order. */
function convexEdges(oc: OpenCascadeInstance, scope: OcctScope, solid: LabelledSolid, draw: Draw): EdgeChoice[] {
  const analysis = analyseSolid(oc, solid.shape);
  const g = generatorOcct(oc);
  const edgeMap = scope.own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(solid.shape, oc.TopAbs_ShapeEnum.TopAbs_EDGE, edgeMap);
  const faceMap = scope.own(new oc.TopTools_IndexedMapOfShape_1());
  oc.TopExp.MapShapes_1(solid.shape, oc.TopAbs_ShapeEnum.TopAbs_FACE, faceMap);
  const picked = analysis.edges.filter(
    (edge) =>
      edge.topology === "manifold" &&
      edge.convexity === "convex" &&
      (edge.curve === "line" || edge.curve === "circle") &&
      edge.faces.length === 2 &&
      edge.faces.every((f) => !BLENDS.has(solid.labels[f] as FaceClass)),
  );
  const order = picked.map((edge) => ({ edge, key: draw.uniform(0, 1) })).sort((p, q) => p.key - q.key);
  return order.slice(0, 4).map(({ edge }) => ({
    edge: scope.own(g.TopoDS.Edge_1(scope.own(edgeMap.FindKey(edge.id + 1)))),
    face: scope.own(g.TopoDS.Face_1(scope.own(faceMap.FindKey((edge.faces[0] as number) + 1)))),
    length: edge.length,
  }));
}

/** Rounds one convex edge; tries a few edges before giving up. True when one was rounded. */
export function roundAnEdge(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  solid: LabelledSolid,
  draw: Draw,
  scale: number,
): boolean {
  for (const choice of convexEdges(oc, scope, solid, draw)) {
    const radius = Math.min(draw.uniform(0.03, 0.08) * scale, 0.25 * choice.length);
    if (solid.fillet([choice.edge], radius)) return true;
  }
  return false;
}

/** Bevels one convex edge, equally or (skewed) at another angle. */
export function chamferAnEdge(
  oc: OpenCascadeInstance,
  scope: OcctScope,
  solid: LabelledSolid,
  draw: Draw,
  scale: number,
  skew: boolean,
): boolean {
  for (const choice of convexEdges(oc, scope, solid, draw)) {
    const d1 = Math.min(draw.uniform(0.03, 0.08) * scale, 0.25 * choice.length);
    const d2 = skew ? d1 * draw.uniform(0.5, 2) : d1;
    if (solid.chamfer(choice.edge, choice.face, d1, d2)) return true;
  }
  return false;
}
