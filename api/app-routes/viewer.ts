/**
 * The project viewer's data (the web app's /projects/<id>):
 *
 *   GET /projects/{project_id}/viewer -> 200 {job_id, postprocessor, part: {mesh_url, expires_at,
 *       bbox} | null, machining_time_s, setups: [...]} (contracts/viewer.ts ViewerScene, viewer-scene.ts)
 *   GET /projects/{project_id}/setups/{setup_index}/toolpaths -> 200 application/octet-stream,
 *       the setup's toolpaths and program (kernel/cam/viewer/toolpath-buffer.ts), gzip when asked
 *
 * The public API keeps its moves inside the job file; these answer what a browser draws in the
 * form it draws it. Both read the current job in a request transaction opened with the session:
 * another user's project is 404, a project without a job 404 job_missing, one not yet planned
 * 409 no_toolpaths, as for a program (api/routes/shared/planned-job.ts).
 */
import type { Request, Response } from "express";
import { z } from "zod";
import type { ViewerScene } from "../../contracts/viewer.ts";
import { presignWorkpiece } from "../../db/queries/workpieces.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { notFound } from "../../http/errors/index.ts";
import type { CamPlan } from "../../kernel/job/plan.ts";
import { encodeToolpathBuffer } from "../../kernel/cam/viewer/toolpath-buffer.ts";
import { operationPolyline } from "../../kernel/cam/viewer/toolpath-polyline.ts";
import { programWithMoveLines } from "../../kernel/post/program-lines.ts";
import type { AuthenticatedKey } from "../locals.ts";
import { publicBaseUrl } from "../public-base-url.ts";
import { bytes, sendSerialized, serializeReply } from "../reply.ts";
import { plannedJob } from "../routes/shared/planned-job.ts";
import type { ApiServices } from "../services.ts";
import { KeptByJob } from "./kept-by-job.ts";
import { viewerScene } from "./viewer-scene.ts";

/**
 * decoded plans of the last jobs viewed: a page asks for the scene and then each setup's
 * toolpaths, and STC-06's plan takes a second to decode on a loaded machine
 */
const PLANS = new KeptByJob<CamPlan>(4);

export const ViewerParams = z.strictObject({ project_id: z.uuid() });
export const ToolpathsParams = z.strictObject({
  project_id: z.uuid(),
  setup_index: z
    .string()
    .regex(/^\d{1,4}$/, { error: "a whole number from 0" })
    .transform(Number),
});

export async function projectViewer(
  req: Request,
  res: Response,
  services: ApiServices,
  auth: AuthenticatedKey,
): Promise<void> {
  const { project_id: projectId } = ViewerParams.parse(res.locals.input?.params);
  const baseUrl = publicBaseUrl(req, services.env.PUBLIC_BASE_URL);
  const answer: ViewerScene = await withRequestTransaction(
    services.pool,
    auth.credential,
    ["projects:read"],
    async (db) => {
      const { job, workpiece, plan, postprocessor } = await plannedJob(db, projectId, { plans: PLANS });
      const bbox = workpiece?.meta.bbox;
      const part =
        workpiece?.blobs.mesh && workpiece.blobs.thumbnail && bbox
          ? {
              ...(await presignWorkpiece(db, workpiece, { baseUrl, apiBasePath: API_BASE_PATH })),
              bbox: { min: bbox.min, max: bbox.max },
            }
          : null;
      return {
        job_id: job.id,
        postprocessor,
        part: part ? { mesh_url: part.mesh_url, expires_at: part.expires_at, bbox: part.bbox } : null,
        ...viewerScene(plan),
      };
    },
  );
  res.status(200).json(answer);
}

export async function setupToolpaths(
  _req: Request,
  res: Response,
  services: ApiServices,
  auth: AuthenticatedKey,
): Promise<void> {
  // validate() has parsed them already (setup_index to a number)
  const params = res.locals.input?.params as z.output<typeof ToolpathsParams> | undefined;
  if (params === undefined) throw new Error("the params were not validated");
  const { project_id: projectId, setup_index: setupIndex } = params;
  const { plan, postprocessor, context } = await withRequestTransaction(
    services.pool,
    auth.credential,
    ["projects:read"],
    (db) => plannedJob(db, projectId, { plans: PLANS }),
  );
  // the program and the buffer are made after the transaction: its connection is not held for them
  const setup = plan.setups[setupIndex];
  if (setup === undefined) throw notFound("setup", String(setupIndex));
  const hasMoves = setup.operations.some((operation) => operation.moves.length > 0);
  const program = hasMoves
    ? programWithMoveLines(plan, setupIndex, postprocessor, context)
    : { lines: [], moveLines: setup.operations.map(() => new Uint32Array(0)) };
  const operations = setup.operations.map((operation, k) => ({
    polyline: operationPolyline(operation),
    moveLines: program.moveLines[k] ?? new Uint32Array(0),
  }));
  const body = encodeToolpathBuffer(operations, program.lines);
  sendSerialized(res, serializeReply(bytes(200, body, "application/octet-stream", {}, { compressible: true })));
}
