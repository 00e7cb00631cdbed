/**
 * OCCT's native text BREP: reading one solid from it, and writing a shape to it (how Swarf stores
 * a workpiece's exact geometry). BREP carries no units; Swarf's BREP is in millimetres.
 */
import type { OpenCascadeInstance, TopoDS_Shape } from "opencascade.js/dist/node.js";
import { readBackOutputFile, withInputFile } from "./emscripten-file.ts";
import { withOcctScope, type OcctScope } from "./occt-scope.ts";
import { describeOcctException, takeOcctMessages } from "./opencascade.ts";
import { singleSolid, type SingleSolid } from "./single-solid.ts";
import { GeometryError } from "../geometry-error.ts";

/** Reads `bytes`; the solid is owned by `scope`. */
export function readBrep(oc: OpenCascadeInstance, bytes: Uint8Array, scope: OcctScope): SingleSolid {
  takeOcctMessages();
  return withOcctScope((local) => {
    const shape = local.own(new oc.TopoDS_Shape());
    let read: boolean;
    try {
      read = withInputFile(oc, bytes, "brep", (path) =>
        oc.BRepTools.Read_2(shape, path, local.own(new oc.BRep_Builder()), local.own(new oc.Message_ProgressRange_1())),
      );
    } catch (error) {
      throw new GeometryError(
        "corrupt_file",
        `OCCT failed while reading the BREP file: ${describeOcctException(oc, error)}.`,
      );
    }
    if (!read || shape.IsNull()) {
      throw new GeometryError("corrupt_file", "OCCT could not read the BREP file (damaged or cut short).");
    }
    return singleSolid(oc, shape, scope, "BREP");
  });
}

/** The shape as text BREP (format version 3), without triangulations. */
export function writeBrep(oc: OpenCascadeInstance, shape: TopoDS_Shape): Uint8Array {
  return withOcctScope((scope) =>
    readBackOutputFile(oc, "brep", (path) => {
      const written = oc.BRepTools.Write_4(
        shape,
        path,
        false,
        false,
        oc.TopTools_FormatVersion.TopTools_FormatVersion_CURRENT,
        scope.own(new oc.Message_ProgressRange_1()),
      );
      if (!written) throw new Error("OCCT could not write the shape as BREP");
    }),
  );
}
