/**
 * What the viewer's stock and features routes share: the current job's part and plan read in a
 * request transaction opened with the session (another user's project is 404, as on the public
 * API; the blobs are read once a job, kept-by-job.ts), then the geometry asked of a geometry
 * thread (geometry-pool/viewer.ts), outside the transaction: reading the part and simulating
 * take a thread seconds, never the event loop.
 */
import type { Response } from "express";
import { getWorkpiece } from "../../db/queries/workpieces.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import { GeometryUnavailable } from "../../geometry-pool/pool.ts";
import type { ViewerOutcome, ViewerRequest } from "../../geometry-pool/protocol.ts";
import { HttpError } from "../../http/errors/index.ts";
import type { PlanSummary } from "../../kernel/job/plan.ts";
import { postgresBlobStore } from "../../storage/postgres.ts";
import type { AuthenticatedKey } from "../locals.ts";
import { currentPlannedJob, noToolpaths } from "../routes/shared/planned-job.ts";
import type { ApiServices } from "../services.ts";
import { KeptByJob } from "./kept-by-job.ts";

const BUSY_RETRY_AFTER_SECONDS = 10;

/**
 * the part and plan blobs of the last jobs viewed: the stock is asked for after operation after
 * operation, and the geometry thread keeps the job it read, so the blobs are read once a job
 */
const BLOBS = new KeptByJob<{ part: Uint8Array; plan: Uint8Array }>(4);

/** The planned job's inputs for a geometry thread, with its plan's summary to check indexes against. */
export interface PlannedInputs {
  request: Omit<ViewerRequest, "kind" | "query">;
  summary: PlanSummary;
}

/** 404 for a project that is not the caller's, job_missing before a workpiece; 409 no_toolpaths before planning. */
export async function plannedInputs(
  services: ApiServices,
  auth: AuthenticatedKey,
  projectId: string,
): Promise<PlannedInputs> {
  return withRequestTransaction(services.pool, auth.credential, ["projects:read"], async (db) => {
    const job = await currentPlannedJob(db, projectId);
    const plan = job.plan;
    const stock = job.stock;
    if (job.workpieceId === null || stock === null) throw noToolpaths(job.id);
    const workpieceId = job.workpieceId;
    const blobs = await BLOBS.get(job.id, async () => {
      const workpiece = await getWorkpiece(db, workpieceId);
      if (workpiece === null) throw noToolpaths(job.id);
      const [part, planBlob] = await Promise.all([
        postgresBlobStore.get(db, workpiece.blobs.brep ?? workpiece.blobs.original),
        postgresBlobStore.get(db, plan.blobId),
      ]);
      if (!part || !planBlob) throw new Error(`job ${job.id}: its part or plan blob is missing`);
      return { part: part.bytes, plan: planBlob.bytes };
    });
    return {
      request: { jobId: job.id, ...blobs, stock: { min: stock.min, max: stock.max } },
      summary: plan.summary,
    };
  });
}

/** The geometry thread's answer; the pool's refusals as 503 with Retry-After. */
export async function askViewer(
  services: ApiServices,
  auth: AuthenticatedKey,
  request: ViewerRequest,
): Promise<ViewerOutcome> {
  if (!services.geometry)
    throw new HttpError(
      503,
      "geometry_unavailable",
      "this server runs no geometry workers",
      {},
      { "Retry-After": "30" },
    );
  try {
    const { kind: _kind, ...rest } = request;
    const outcome = await services.geometry.viewer(rest, { owner: auth.userId });
    if (outcome.kind === "failed") throw new Error(`the viewer's geometry failed: ${outcome.message}`);
    return outcome;
  } catch (error) {
    if (!(error instanceof GeometryUnavailable)) throw error;
    const retry = error.code === "geometry_busy" ? BUSY_RETRY_AFTER_SECONDS : 5;
    throw new HttpError(
      503,
      error.code,
      `${error.message}; retry after Retry-After seconds`,
      { retry_after_seconds: retry },
      { "Retry-After": String(retry) },
    );
  }
}

export function sendStockBytes(res: Response, bytes: Uint8Array, jobId: string): void {
  res.status(200).setHeader("Content-Type", "application/octet-stream").setHeader("X-Job-Id", jobId);
  res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
