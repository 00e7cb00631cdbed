/**
 * Exact measurements of a B-rep solid: volume (GProp), face count and whether it is closed
 * (every shell without free edges).
 *
 * No BRepCheck_Analyzer: in this build it keeps about 1.1 MB of WASM memory per use after
 * delete() (measured on partC), which a long-lived geometry thread cannot afford.
 *
 * The bounding box here is the quick one (BRepBndLib::Add, enlarged by tolerances and, on
 * B-spline faces, by their control points: ftc_10 measures 159.5 instead of 158 mm). It only sets
 * the meshing deflection; the reported box is the mesh's (tessellate.ts), whose nodes lie on the
 * surfaces. The exact box (AddOptimal) takes 3.9 s on ftc_10, more than reading it.
 */
import type { OpenCascadeInstance, TopoDS_Shape, TopoDS_Solid } from "opencascade.js/dist/node.js";
import type { BoundingBox } from "../mesh/types.ts";
import { withOcctScope } from "./occt-scope.ts";
import { countSubShapes, subShapes } from "./topology.ts";
import type { IngestedWorkpiece } from "./types.ts";

type Warning = IngestedWorkpiece["warnings"][number];

export interface SolidMeasures {
  /** mm³, null unless closed */
  volumeMm3: number | null;
  faceCount: number;
  /** every shell of the solid is closed (no free edges) */
  closed: boolean;
  warnings: Warning[];
}

export function measureSolid(oc: OpenCascadeInstance, solid: TopoDS_Solid): SolidMeasures {
  const warnings: Warning[] = [];
  const faceCount = countSubShapes(oc, solid, oc.TopAbs_ShapeEnum.TopAbs_FACE);
  const closed = isClosedSolid(oc, solid);
  let volumeMm3: number | null = null;
  if (closed) {
    const volume = solidVolume(oc, solid);
    if (volume < 0) {
      warnings.push({
        code: "inverted_solid",
        message: "The solid's faces point inwards; its volume was taken as positive.",
      });
    }
    volumeMm3 = Math.abs(volume);
  } else {
    warnings.push({
      code: "open_shell",
      message: "The solid is not closed: some of its edges belong to one face only, so it has no volume.",
    });
  }
  return { volumeMm3, faceCount, closed, warnings };
}

/** A box that surely holds the shape, possibly loose (see above); fast. */
export function roughBoundingBox(oc: OpenCascadeInstance, shape: TopoDS_Shape): BoundingBox {
  return withOcctScope((scope) => {
    const box = scope.own(new oc.Bnd_Box_1());
    oc.BRepBndLib.Add(shape, box, false);
    if (box.IsVoid()) throw new Error("the shape has an empty bounding box");
    const min = scope.own(box.CornerMin());
    const max = scope.own(box.CornerMax());
    return { min: [min.X(), min.Y(), min.Z()], max: [max.X(), max.Y(), max.Z()] };
  });
}

export function solidVolume(oc: OpenCascadeInstance, solid: TopoDS_Solid): number {
  return withOcctScope((scope) => {
    const properties = scope.own(new oc.GProp_GProps_1());
    oc.BRepGProp.VolumeProperties_1(solid, properties, true, false, false);
    return properties.Mass();
  });
}

/** A solid with at least one shell, every shell without free edges. */
export function isClosedSolid(oc: OpenCascadeInstance, solid: TopoDS_Solid): boolean {
  return withOcctScope((scope) => {
    const shells = subShapes(oc, solid, oc.TopAbs_ShapeEnum.TopAbs_SHELL, scope);
    return shells.length > 0 && shells.every((shell) => oc.BRep_Tool.IsClosed_1(shell));
  });
}
