/**
 * The web app viewer's geometry, on a geometry thread: the stock a plan's simulation leaves after
 * any operation (kernel/cam/viewer/plan-stock.ts) and the part's recognised features. Both need
 * the part read as the planner reads it (OCCT, the 0.01 mm cutting mesh, the recognition), a
 * second or more on a NIST part, so each thread keeps the last parts it read, by job, and the
 * last answers it made, both bounded: a job's plan never changes (a new plan is a new job), so
 * nothing kept goes stale.
 */
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { facingOut, PART_BUDGET_MS, CUTTING_MESH_DEFLECTION_MM } from "../kernel/cam/planner/read-part.ts";
import { PlanStock } from "../kernel/cam/viewer/plan-stock.ts";
import { encodeStockView } from "../kernel/cam/viewer/stock-view-bytes.ts";
import { recogniseFile } from "../kernel/features/setups/recognise-file.ts";
import type { Feature } from "../kernel/features/recognition/types.ts";
import { decodeCamPlan } from "../kernel/job/plan.ts";
import type { ViewerFeature, ViewerOutcome, ViewerRequest } from "./protocol.ts";

/** parts kept per thread: a NIST part's cutting mesh and voxels are some 100 MB */
const KEPT_PARTS = 2;
/** answers kept per thread, bytes */
const KEPT_ANSWER_BYTES = 64 * 1024 * 1024;

interface ReadJob {
  stock: PlanStock;
  features: ViewerFeature[];
}

const jobs = new Map<string, ReadJob>();
const answers = new Map<string, Uint8Array>();
let answerBytes = 0;

export function viewerAnswer(oc: OpenCascadeInstance, request: ViewerRequest): ViewerOutcome {
  const key = request.query.kind === "stock" ? `${request.jobId}/${request.query.setup}/${request.query.after}` : "";
  const kept = key === "" ? undefined : answers.get(key);
  if (kept !== undefined) {
    // most recently used last
    answers.delete(key);
    answers.set(key, kept);
    // the pool copies the answer across the thread boundary: what is kept stays whole
    return { kind: "stock", bytes: kept };
  }
  const job = readJob(oc, request);
  if (request.query.kind === "features") return { kind: "features", features: job.features };
  const { setup, after } = request.query;
  const bytes = encodeStockView(job.stock.view(setup, after));
  keepAnswer(key, bytes);
  return { kind: "stock", bytes };
}

function keepAnswer(key: string, bytes: Uint8Array): void {
  answers.set(key, bytes);
  answerBytes += bytes.byteLength;
  for (const [oldest, value] of answers) {
    if (answerBytes <= KEPT_ANSWER_BYTES) break;
    answers.delete(oldest);
    answerBytes -= value.byteLength;
  }
}

function readJob(oc: OpenCascadeInstance, request: ViewerRequest): ReadJob {
  const known = jobs.get(request.jobId);
  if (known !== undefined) {
    jobs.delete(request.jobId);
    jobs.set(request.jobId, known);
    return known;
  }
  const file = recogniseFile(oc, request.part, {
    budgetMs: PART_BUDGET_MS,
    linearDeflectionMm: CUTTING_MESH_DEFLECTION_MM,
  });
  if (file.mesh === null) throw new Error("the part has no triangles");
  const plan = decodeCamPlan(request.plan);
  const features = file.recognition.features;
  const job: ReadJob = {
    stock: new PlanStock({
      soup: facingOut({ positions: file.mesh.positions, indices: file.mesh.indices }),
      features,
      stock: request.stock,
      setups: plan.setups,
    }),
    features: features.map((feature) =>
      viewerFeature(
        feature,
        plan.setups.flatMap((setup, index) =>
          setup.operations.some((operation) => operation.features.includes(feature.id)) ? [index] : [],
        ),
      ),
    ),
  };
  jobs.set(request.jobId, job);
  for (const oldest of jobs.keys()) {
    if (jobs.size <= KEPT_PARTS) break;
    jobs.delete(oldest);
  }
  return job;
}

function viewerFeature(feature: Feature, setups: number[]): ViewerFeature {
  const hole = feature.hole;
  return {
    id: feature.id,
    class: feature.class,
    faces: feature.faces,
    access_direction: feature.access_direction,
    depth_mm: feature.depth_mm,
    width_mm: feature.min_width_mm,
    corner_radius_mm: feature.min_internal_corner_radius_mm,
    hole:
      hole === undefined
        ? null
        : {
            diameter_mm: hole.diameter_mm,
            depth_mm: hole.depth_mm,
            through: hole.through,
            counterbore_diameter_mm: hole.counterbore?.diameter_mm ?? null,
            countersink_diameter_mm: hole.countersink?.diameter_mm ?? null,
          },
    setups,
  };
}
