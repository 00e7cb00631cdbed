/**
 * The part as the planner needs it: read once (B-rep or STL), its faces, features and 3-axis
 * setup directions (kernel/features), and triangles fine enough to cut against.
 *
 * The mesh is finer than the one setups alone need: toolpaths are computed against it and the
 * stock simulation checks gouges against it, so its chordal error is a gouge the simulation
 * cannot see on convex curved faces. 0.01 mm is the simulation's tolerance.
 */
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import type { Recognition } from "../../features/recognition/types.ts";
import { recogniseFile } from "../../features/setups/recognise-file.ts";
import type { SetupPlan } from "../../features/setups/types.ts";
import type { PartAnalysis } from "../../features/types.ts";
import { signedVolume, turnedRound } from "../../geometry/mesh-metrics.ts";
import { GeometryError } from "../../geometry-error.ts";
import { PlanError, type PlanInput } from "../plan-types.ts";
import type { TriangleSoup } from "../types.ts";
import { setupTravelExcess } from "./travel.ts";

/** the mesh's chordal error: the simulation's gouge tolerance */
export const CUTTING_MESH_DEFLECTION_MM = 0.01;
/** reading, face analysis and setups of one part may take this long */
export const PART_BUDGET_MS = 60_000;

export interface PlannedPart {
  analysis: PartAnalysis;
  recognition: Recognition;
  setups: SetupPlan;
  /** the part's triangles in workpiece coordinates */
  soup: TriangleSoup;
  /** per vertex of `soup`: its face id (the analysis's numbering) */
  vertexFaces: Uint32Array;
  warnings: { code: string; message: string }[];
}

export function readPart(oc: OpenCascadeInstance, input: PlanInput): PlannedPart {
  let file;
  try {
    file = recogniseFile(oc, input.workpiece.bytes, {
      budgetMs: PART_BUDGET_MS,
      linearDeflectionMm: CUTTING_MESH_DEFLECTION_MM,
      // a direction the stock does not fit the machine in is no setup (setup-part.ts)
      setups: {
        excluded: (candidate) => setupTravelExcess(input.machine, candidate.direction, input.stock)?.message ?? null,
      },
    });
  } catch (error) {
    if (error instanceof GeometryError)
      throw new PlanError(error.code, `the workpiece cannot be read: ${error.message}`);
    throw error;
  }
  const { analysis, recognition, setups, mesh } = file;
  if (!analysis.closed) {
    throw new PlanError(
      "part_not_closed",
      "the workpiece is not a closed solid (open or non-manifold edges): material and part cannot be told apart; export it as a closed solid",
    );
  }
  if (setups === null || mesh === null || mesh.indices.length === 0) {
    throw new PlanError(
      "part_unreadable",
      `no setups could be planned: ${file.warnings.map((w) => w.message).join("; ") || "the part has no triangles"}`,
    );
  }
  const warnings = [...analysis.warnings, ...recognition.warnings, ...file.warnings, ...setups.warnings].map((w) => ({
    code: w.code,
    message: w.message,
  }));
  return {
    analysis,
    recognition,
    setups,
    soup: facingOut({ positions: mesh.positions, indices: mesh.indices }),
    vertexFaces: mesh.faceIds,
    warnings,
  };
}

/**
 * A closed part's triangles facing out: turned round when they enclose a negative volume. The
 * slicer's floors and shadows and the simulation's part heights read which way a triangle faces
 * (only those facing up cast a shadow or bound the part from above). A closed STL is turned
 * round when read; this holds for a B-rep's triangles too, whatever its solid's orientation.
 */
export function facingOut(soup: TriangleSoup): TriangleSoup {
  return signedVolume(soup.positions, soup.indices) >= 0
    ? soup
    : { positions: soup.positions, indices: turnedRound(soup.indices) };
}
