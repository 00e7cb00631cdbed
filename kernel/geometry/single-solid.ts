/**
 * One workpiece is one solid: picks the only solid of what a file held, or refuses the file.
 * Several solids are refused (multiple_solids, details.solids) rather than guessing which one is
 * the part; no solid at all (a surface model, loose faces) is no_solid.
 */
import type { OpenCascadeInstance, TopoDS_Shape, TopoDS_Solid } from "opencascade.js/dist/node.js";
import type { OcctScope } from "./occt-scope.ts";
import { countSubShapes, subShapes } from "./topology.ts";
import { GeometryError } from "../geometry-error.ts";
import type { IngestedWorkpiece } from "./types.ts";

type Warning = IngestedWorkpiece["warnings"][number];

export interface SingleSolid {
  /** owned by the scope given */
  solid: TopoDS_Solid;
  warnings: Warning[];
}

export function singleSolid(
  oc: OpenCascadeInstance,
  shape: TopoDS_Shape,
  scope: OcctScope,
  fileKind: string,
): SingleSolid {
  const kinds = oc.TopAbs_ShapeEnum;
  if (shape.IsNull()) {
    throw new GeometryError("no_solid", `The ${fileKind} file holds no shape.`, { solids: 0, faces: 0 });
  }
  const solids = countSubShapes(oc, shape, kinds.TopAbs_SOLID);
  const faces = countSubShapes(oc, shape, kinds.TopAbs_FACE);
  if (solids === 0) {
    const what = faces > 0 ? `${faces} faces but no solid (a surface model)` : "no solid";
    throw new GeometryError("no_solid", `The ${fileKind} file holds ${what}; export the part as one solid body.`, {
      solids: 0,
      faces,
    });
  }
  if (solids > 1) {
    throw new GeometryError(
      "multiple_solids",
      `The ${fileKind} file holds ${solids} solids; a workpiece is one solid, so export the part on its own.`,
      {
        solids,
      },
    );
  }
  const [found] = subShapes(oc, shape, kinds.TopAbs_SOLID, scope);
  const solid = scope.own(oc.TopoDS.Solid_1(found as TopoDS_Shape));
  const warnings: Warning[] = [];
  // supplemental geometry (axes, datum targets) and PMI often travel with the part
  const extraFaces = faces - countSubShapes(oc, solid, kinds.TopAbs_FACE);
  const extraEdges = countSubShapes(oc, shape, kinds.TopAbs_EDGE) - countSubShapes(oc, solid, kinds.TopAbs_EDGE);
  if (extraFaces > 0 || extraEdges > 0) {
    const parts = [extraFaces > 0 ? `${extraFaces} faces` : "", extraEdges > 0 ? `${extraEdges} edges` : ""].filter(
      Boolean,
    );
    warnings.push({
      code: "ignored_geometry",
      message: `Geometry outside the solid was left out (${parts.join(" and ")}: supplemental or annotation geometry).`,
    });
  }
  return { solid, warnings };
}
