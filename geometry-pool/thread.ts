/**
 * A geometry thread: loads OCCT once (the pool counts the thread ready only after this), then
 * turns uploaded files into measurements, a B-rep, a glb and a thumbnail, and plans projects
 * (kernel/cam/plan.ts). Input the kernel refuses comes back as an outcome with its code; so
 * does an exception OCCT throws on a file it cannot handle: both are the file's fault, not the
 * service's.
 */
import { threadId, workerData } from "node:worker_threads";
import { inlineChecks, inlineShadows, planCam } from "../kernel/cam/plan.ts";
import { ingestWorkpiece } from "../kernel/geometry/ingest.ts";
import { describeOcctException, loadOpenCascade } from "../kernel/geometry/opencascade.ts";
import { GeometryError } from "../kernel/geometry-error.ts";
import { meshToGlb } from "../kernel/mesh/glb.ts";
import { renderThumbnail } from "../kernel/mesh/thumbnail.ts";
import { runPlanRequest } from "./plan-runner.ts";
import type { GeometryRequest, GeometryThreadData, IngestOutcome, PlanOutcome, ViewerOutcome } from "./protocol.ts";
import { viewerAnswer } from "./viewer.ts";

const oc = await loadOpenCascade();
const { simulationThread } = workerData as GeometryThreadData;

export default async function handle(
  request: GeometryRequest,
): Promise<IngestOutcome | PlanOutcome | ViewerOutcome | number> {
  if (request.kind === "ping") return threadId;
  if (request.kind === "viewer") {
    try {
      return viewerAnswer(oc, request);
    } catch (error) {
      return { kind: "failed", message: describeOcctException(oc, error) };
    }
  }
  if (request.kind === "plan") {
    return runPlanRequest(
      request,
      (input, hooks) =>
        planCam(oc, input, simulationThread ? hooks : { ...hooks, checks: inlineChecks, shadows: inlineShadows }),
      (error) => describeOcctException(oc, error),
    );
  }
  const timings: Record<string, number> = {};
  try {
    const { kind: _kind, bytes, ...options } = request;
    const { mesh, brep, ...workpiece } = ingestWorkpiece(oc, bytes, { ...options, timings });
    let started = performance.now();
    const glb = meshToGlb(mesh, { faceCount: workpiece.faceCount });
    timings.glb = performance.now() - started;
    started = performance.now();
    const thumbnail = await renderThumbnail(mesh);
    timings.thumbnail = performance.now() - started;
    return { ok: true, workpiece, brep, glb, thumbnail, timings };
  } catch (error) {
    if (error instanceof GeometryError) {
      return { ok: false, code: error.code, message: error.message, details: error.details };
    }
    return {
      ok: false,
      code: "geometry_failed",
      message: `the geometry kernel could not process this file: ${describeOcctException(oc, error)}`,
      details: {},
    };
  }
}
