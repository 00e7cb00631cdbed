/**
 * A part file in, its face analysis out: STEP (with each face's STEP entity), OCCT BREP or STL,
 * recognised by content (kernel/geometry/detect-format.ts). STL needs no OCCT.
 *
 * Refusals are GeometryError (empty_file, unsupported_format, corrupt_file, no_solid,
 * multiple_solids, no_triangles, analysis_timeout...); the reader's warnings join the analysis's.
 */
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { readBrep } from "../geometry/brep.ts";
import { detectFormat } from "../geometry/detect-format.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { prepareRelease } from "../geometry/occt-release.ts";
import { readStl } from "../geometry/stl.ts";
import type { WorkpieceFormat } from "../geometry/types.ts";
import { analyseSolid, DEFAULT_BUDGET_MS } from "./analyse-brep.ts";
import { analyseMesh, type MeshAnalysisOptions } from "./analyse-mesh.ts";
import { readStepWithEntities } from "./step-entities.ts";
import type { AnalysisOptions, PartAnalysis } from "./types.ts";

export interface AnalysedFile {
  format: WorkpieceFormat;
  analysis: PartAnalysis;
}

export type FileAnalysisOptions = AnalysisOptions &
  Pick<MeshAnalysisOptions, "planarAngleRad" | "fitDistanceMm" | "facetAngleRad">;

/**
 * Reads and analyses one file. The time budget (options.budgetMs, or an absolute deadline)
 * covers reading too: a read that used it all up ends in analysis_timeout.
 */
export function analyseFile(
  oc: OpenCascadeInstance | undefined,
  bytes: Uint8Array,
  options: FileAnalysisOptions = {},
): AnalysedFile {
  const deadline = options.deadline ?? performance.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  const timed: FileAnalysisOptions = { ...options, deadline };
  const detected = detectFormat(bytes);
  if (detected === "stl-binary" || detected === "stl-ascii") {
    const read = readStl(bytes, detected === "stl-binary" ? "binary" : "ascii");
    const analysis = analyseMesh(read.mesh, timed);
    analysis.warnings.unshift(...read.warnings);
    return { format: "stl", analysis };
  }
  if (oc === undefined) throw new Error(`analyseFile: a ${detected.toUpperCase()} file needs OCCT, and none was given`);
  prepareRelease(oc);
  return withOcctScope((scope) => {
    if (detected === "step") {
      const read = readStepWithEntities(oc, bytes, scope);
      const analysis = analyseSolid(oc, read.solid, { ...timed, stepEntities: read.faceEntities });
      analysis.warnings.unshift(...read.warnings, ...read.entityWarnings);
      return { format: "step", analysis };
    }
    const read = readBrep(oc, bytes, scope);
    const analysis = analyseSolid(oc, read.solid, timed);
    analysis.warnings.unshift(...read.warnings);
    return { format: "brep", analysis };
  });
}
