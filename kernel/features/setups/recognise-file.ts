/**
 * A part file in, its faces, features and setups out: read (STEP with each face's entity, OCCT
 * BREP or STL, by content), face analysis, the triangles setups need, feature recognition and
 * the setup plan, all within one time budget. STL needs no OCCT. A STEP file's semantic PMI
 * (kernel/features/pmi) is attached to the features: holes get their callouts.
 *
 * The budget (reading included) bounds the face analysis, which checks it between faces and
 * edges; recognition takes milliseconds; the setup plan is skipped with a warning when the budget
 * is gone. Refusals are GeometryError as in analyse-file.ts.
 */
import type { OpenCascadeInstance, TopoDS_Shape } from "opencascade.js/dist/node.js";
import { readBrep } from "../../geometry/brep.ts";
import { detectFormat } from "../../geometry/detect-format.ts";
import { withOcctScope } from "../../geometry/occt-scope.ts";
import { prepareRelease } from "../../geometry/occt-release.ts";
import { readStl } from "../../geometry/stl.ts";
import { tessellate } from "../../geometry/tessellate.ts";
import type { WorkpieceFormat } from "../../geometry/types.ts";
import type { TriangleMesh } from "../../mesh/types.ts";
import { analyseSolid, DEFAULT_BUDGET_MS } from "../analyse-brep.ts";
import type { FileAnalysisOptions } from "../analyse-file.ts";
import { analyseMesh } from "../analyse-mesh.ts";
import { applyHoleCallouts, attachPmi, type PmiAttachment } from "../pmi/attach.ts";
import { readPmi } from "../pmi/read-pmi.ts";
import { recoverSurfaces } from "../recognition/canonical.ts";
import { recogniseFeatures } from "../recognition/recognise.ts";
import type { Recognition, RecognitionOptions } from "../recognition/types.ts";
import { readStepWithEntities } from "../step-entities.ts";
import type { PartAnalysis } from "../types.ts";
import { planSetups } from "./plan.ts";
import type { SetupOptions, SetupPlan } from "./types.ts";

export interface RecognisedFile {
  format: WorkpieceFormat;
  /** as read from the file: free-form faces keep their type here; recognition read them through canonical.ts */
  analysis: PartAnalysis;
  recognition: Recognition;
  /** null when the budget ran out before it, or the part had no triangles */
  setups: SetupPlan | null;
  /** the file's semantic PMI on the features (STEP only; null for other formats and files without PMI); holes get their `callout` */
  pmi: PmiAttachment | null;
  /** the triangles setups were planned on (face ids the analysis's), null when none were made */
  mesh: TriangleMesh | null;
  warnings: { code: string; message: string }[];
  timings: Record<string, number>;
}

export interface RecogniseFileOptions extends FileAnalysisOptions {
  recognition?: RecognitionOptions;
  setups?: SetupOptions | false;
  /** mesh B-reps this finely (mm) instead of 0.2 % of the diagonal: the planner's toolpaths need more than setups do */
  linearDeflectionMm?: number;
}

/** Coarser than the viewer's mesh: 0.2 % of the part's diagonal is enough to tell which faces a ray meets. */

const ANALYTIC_SURFACES: ReadonlySet<string> = new Set(["plane", "cylinder", "cone", "sphere", "torus"]);
const SETUP_DEFLECTION_SHARE = 0.002;

export function recogniseFile(
  oc: OpenCascadeInstance | undefined,
  bytes: Uint8Array,
  options: RecogniseFileOptions = {},
): RecognisedFile {
  const t0 = performance.now();
  const deadline = options.deadline ?? t0 + (options.budgetMs ?? DEFAULT_BUDGET_MS);
  const timed: FileAnalysisOptions = { ...options, deadline };
  const detected = detectFormat(bytes);
  const timings: Record<string, number> = {};
  let format: WorkpieceFormat;
  let analysis: PartAnalysis;
  let mesh: TriangleMesh | null = null;
  if (detected === "stl-binary" || detected === "stl-ascii") {
    const read = readStl(bytes, detected === "stl-binary" ? "binary" : "ascii");
    const meshAnalysis = analyseMesh(read.mesh, timed);
    meshAnalysis.warnings.unshift(...read.warnings);
    analysis = meshAnalysis;
    format = "stl";
    // the STL mesh has three vertices per triangle: each takes its triangle's region as face id
    const faceIds = new Uint32Array(read.mesh.positions.length / 3);
    for (let t = 0; t < read.mesh.indices.length / 3; t++) {
      const region = meshAnalysis.triangleRegion[t] as number;
      for (let k = 0; k < 3; k++) faceIds[read.mesh.indices[3 * t + k] as number] = region;
    }
    mesh = { ...read.mesh, faceIds };
  } else {
    if (oc === undefined)
      throw new Error(`recogniseFile: a ${detected.toUpperCase()} file needs OCCT, and none was given`);
    prepareRelease(oc);
    ({ format, analysis, mesh } = withOcctScope((scope) => {
      let solid: TopoDS_Shape;
      let result: PartAnalysis;
      if (detected === "step") {
        const read = readStepWithEntities(oc, bytes, scope);
        solid = read.solid;
        result = analyseSolid(oc, solid, { ...timed, stepEntities: read.faceEntities });
        result.warnings.unshift(...read.warnings, ...read.entityWarnings);
      } else {
        const read = readBrep(oc, bytes, scope);
        solid = read.solid;
        result = analyseSolid(oc, solid, timed);
        result.warnings.unshift(...read.warnings);
      }
      timings.analysis = performance.now() - t0;
      let triangles: TriangleMesh | null = null;
      // setups need triangles, and so does reading free-form faces as planes or cylinders
      const freeForm = result.faces.some((face) => !ANALYTIC_SURFACES.has(face.surface));
      if ((options.setups !== false || freeForm) && performance.now() < deadline && result.bbox !== null) {
        const t1 = performance.now();
        const box = result.bbox;
        const diagonal = Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
        try {
          const linearDeflectionMm = options.linearDeflectionMm ?? Math.max(0.005, diagonal * SETUP_DEFLECTION_SHARE);
          triangles = tessellate(oc, solid, diagonal, { linearDeflectionMm, angularDeflectionRad: 0.5 }).mesh;
        } catch {
          triangles = null;
        }
        timings.tessellation = performance.now() - t1;
      }
      return { format: detected === "step" ? ("step" as const) : ("brep" as const), analysis: result, mesh: triangles };
    }));
  }
  timings.analysis ??= performance.now() - t0;
  const warnings: { code: string; message: string }[] = [];
  const t2 = performance.now();
  // free-form faces that are planes or cylinders, read from the triangles (canonical.ts)
  let used = analysis;
  if (mesh !== null && analysis.bbox !== null) {
    const box = analysis.bbox;
    const diagonal = Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]);
    used = recoverSurfaces(analysis, mesh, Math.max(1e-4, diagonal * 1e-4)).analysis;
    const added = used.warnings.filter((w) => !analysis.warnings.includes(w));
    warnings.push(...added.map((w) => ({ code: w.code, message: w.message })));
  }
  const recognition = recogniseFeatures(used, options.recognition);
  timings.recognition = performance.now() - t2;
  const pmi = format === "step" ? filePmi(bytes, analysis, recognition, warnings) : null;
  if (format === "step") timings.pmi = performance.now() - t2 - timings.recognition;
  let setups: SetupPlan | null = null;
  if (options.setups !== false) {
    if (mesh === null || mesh.indices.length === 0) {
      warnings.push({
        code: "setups_skipped",
        message: "No triangles for the part (or the time budget ran out before meshing it): setups were not planned.",
      });
    } else if (performance.now() > deadline) {
      warnings.push({
        code: "setups_skipped",
        message: "The time budget ran out before setup planning: setups were not planned.",
      });
    } else {
      const t3 = performance.now();
      setups = planSetups(used, recognition, mesh, options.setups ?? {});
      timings.setups = performance.now() - t3;
    }
  }
  timings.total = performance.now() - t0;
  return { format, analysis, recognition, setups, pmi, mesh, warnings, timings };
}

/** The file's PMI on the recognised features; a file the PMI reader cannot follow loses its PMI, not its plan. */
function filePmi(
  bytes: Uint8Array,
  analysis: PartAnalysis,
  recognition: Recognition,
  warnings: { code: string; message: string }[],
): PmiAttachment | null {
  const text = new TextDecoder("latin1").decode(bytes);
  // most files carry none: no need to read their entities
  if (!/DIMENSIONAL_|GEOMETRIC_TOLERANCE|_TOLERANCE\(/.test(text)) return null;
  try {
    const read = readPmi(text);
    if (read.records.length === 0) return null;
    const attachment = attachPmi(read.records, analysis, recognition);
    applyHoleCallouts(attachment, recognition);
    return attachment;
  } catch (error) {
    warnings.push({
      code: "pmi_unreadable",
      message: `The file's PMI could not be read (${error instanceof Error ? error.message : String(error)}); the part is planned without it.`,
    });
    return null;
  }
}
