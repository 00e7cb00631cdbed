/**
 * A workpiece file in, measured and meshed: the kernel's entry point for
 * POST /projects/{id}/workpiece. Synchronous (OCCT is), so it runs in a geometry thread.
 *
 * STL takes the TypeScript path and needs no OCCT; STEP and BREP are read into one solid, measured
 * exactly (bbox, volume, faces, closedness), meshed with face ids kept, and written back as BREP
 * in millimetres for storage. Refusals are GeometryError; warnings ride along in the result.
 */
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { readBrep, writeBrep } from "./brep.ts";
import { detectFormat, formatNamedBy } from "./detect-format.ts";
import { boxDiagonal } from "./mesh-metrics.ts";
import { measureSolid, roughBoundingBox } from "./measure.ts";
import { prepareRelease } from "./occt-release.ts";
import { withOcctScope } from "./occt-scope.ts";
import { sizeWarnings } from "./plausibility.ts";
import { readStep } from "./step.ts";
import { readStl } from "./stl.ts";
import { tessellate, type TessellateOptions } from "./tessellate.ts";
import type { IngestedWorkpiece, WorkpieceFormat } from "./types.ts";
import { stepTimer } from "../step-timer.ts";

type Warning = IngestedWorkpiece["warnings"][number];

export interface IngestOptions extends TessellateOptions {
  /** the uploaded file's name: only to warn when its extension names another format */
  filename?: string;
  /** filled with milliseconds per step (read, measure, mesh, export) */
  timings?: Record<string, number>;
}

export function ingestWorkpiece(
  oc: OpenCascadeInstance | undefined,
  bytes: Uint8Array,
  options: IngestOptions = {},
): IngestedWorkpiece {
  const timings = options.timings ?? {};
  const time = stepTimer(timings);

  const detected = time("detect", () => detectFormat(bytes));
  const format: WorkpieceFormat = detected === "stl-binary" || detected === "stl-ascii" ? "stl" : detected;
  let workpiece: IngestedWorkpiece;
  if (detected === "stl-binary" || detected === "stl-ascii") {
    workpiece = time("read", () => readStl(bytes, detected === "stl-binary" ? "binary" : "ascii"));
  } else {
    if (oc === undefined)
      throw new Error(`ingestWorkpiece: a ${detected.toUpperCase()} file needs OCCT, and none was given`);
    prepareRelease(oc); // done by loadOpenCascade; here for an instance started elsewhere
    workpiece = ingestSolid(oc, bytes, detected, options, time);
  }
  workpiece.warnings.push(
    ...extensionWarnings(options.filename, format),
    ...sizeWarnings(workpiece.bbox, workpiece.unitsRead),
  );
  return workpiece;
}

function ingestSolid(
  oc: OpenCascadeInstance,
  bytes: Uint8Array,
  format: "step" | "brep",
  options: TessellateOptions,
  time: <T>(step: string, work: () => T) => T,
): IngestedWorkpiece {
  return withOcctScope((scope) => {
    const read = time("read", () =>
      format === "step" ? readStep(oc, bytes, scope) : { ...readBrep(oc, bytes, scope), unitsRead: "unknown" },
    );
    const measures = time("measure", () => measureSolid(oc, read.solid));
    const rough = time("measure", () => roughBoundingBox(oc, read.solid));
    const tessellation = time("mesh", () => tessellate(oc, read.solid, boxDiagonal(rough), options));
    const brep = time("export", () => writeBrep(oc, read.solid));
    const warnings: Warning[] = [...read.warnings, ...measures.warnings];
    if (tessellation.unmeshedFaces.length > 0) {
      warnings.push({
        code: "unmeshed_faces",
        message: `${tessellation.unmeshedFaces.length} faces could not be meshed and are missing from the preview (face ids ${tessellation.unmeshedFaces.slice(0, 10).join(", ")}).`,
      });
    }
    return {
      format,
      unitsRead: read.unitsRead,
      // the nodes lie on the surfaces: tight to within the deflection, never larger than the part
      bbox: tessellation.bbox ?? rough,
      volumeMm3: measures.volumeMm3,
      faceCount: measures.faceCount,
      triangleCount: tessellation.triangleCount,
      closedSolid: measures.closed,
      warnings,
      mesh: tessellation.mesh,
      brep,
      meshDeflection: { linearMm: tessellation.linearDeflectionMm, angularRad: tessellation.angularDeflectionRad },
    };
  });
}

function extensionWarnings(filename: string | undefined, format: WorkpieceFormat): Warning[] {
  const named = filename === undefined ? undefined : formatNamedBy(filename);
  if (named === undefined || named === format) return [];
  return [
    {
      code: "extension_mismatch",
      message: `The file is named like a ${named.toUpperCase()} file but holds ${format.toUpperCase()}; it was read as ${format.toUpperCase()}.`,
    },
  ];
}
