/**
 * Walking a shape's sub-shapes in TopExp_Explorer order. That order is the face numbering of the
 * whole kernel: face i of a mesh's `faceIds` is the i-th face this explorer yields.
 */
import type { OpenCascadeInstance, TopAbs_ShapeEnum, TopoDS_Shape } from "opencascade.js/dist/node.js";
import { withOcctScope, type OcctScope } from "./occt-scope.ts";

/** Every sub-shape of `type`, owned by `scope`, with orientation and location composed. */
export function subShapes(
  oc: OpenCascadeInstance,
  shape: TopoDS_Shape,
  type: TopAbs_ShapeEnum,
  scope: OcctScope,
): TopoDS_Shape[] {
  const found: TopoDS_Shape[] = [];
  withOcctScope((local) => {
    const explorer = local.own(new oc.TopExp_Explorer_2(shape, type, oc.TopAbs_ShapeEnum.TopAbs_SHAPE));
    for (; explorer.More(); explorer.Next()) found.push(scope.own(explorer.Current()));
  });
  return found;
}

export function countSubShapes(oc: OpenCascadeInstance, shape: TopoDS_Shape, type: TopAbs_ShapeEnum): number {
  return withOcctScope((scope) => {
    let count = 0;
    const explorer = scope.own(new oc.TopExp_Explorer_2(shape, type, oc.TopAbs_ShapeEnum.TopAbs_SHAPE));
    for (; explorer.More(); explorer.Next()) count++;
    return count;
  });
}
