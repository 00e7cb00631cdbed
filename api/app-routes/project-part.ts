/**
 * A project's part and stock as the project page needs them to plan again (the web app's
 * Project):
 *
 *   GET /projects/{project_id}/part -> 200 {part: {file_name, bbox: {min, max, size}, face_count} | null,
 *       stock_offsets: {minus_x, ..., plus_z} | null, planned}
 *
 * The public API answers the part's size only to its upload and keeps the stock inside the job
 * file; without this the page would offer the default offsets again, and a re-plan would
 * quietly change the stock. `planned` says whether the current job has a plan, so the page shows
 * the viewer for a job imported from a .famc file, which has no planning task. Read from the current job in a request transaction opened with the
 * session, so another user's project is 404 as on the public API.
 */
import type { Request, Response } from "express";
import { z } from "zod";
import { currentJob } from "../../db/queries/jobs.ts";
import { getWorkpiece } from "../../db/queries/workpieces.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import { notFound } from "../../http/errors/index.ts";
import { boxSize } from "../../kernel/geometry/mesh-metrics.ts";
import type { AuthenticatedKey } from "../locals.ts";
import type { ApiServices } from "../services.ts";

export const ProjectPartParams = z.strictObject({ project_id: z.uuid() });

export async function projectPart(
  _req: Request,
  res: Response,
  services: ApiServices,
  auth: AuthenticatedKey,
): Promise<void> {
  const { project_id: projectId } = ProjectPartParams.parse(res.locals.input?.params);
  const answer = await withRequestTransaction(services.pool, auth.credential, ["projects:read"], async (db) => {
    const current = await currentJob(db, projectId);
    if (current === null) return null;
    const job = current.job;
    const workpiece = job?.workpieceId ? await getWorkpiece(db, job.workpieceId) : null;
    const bbox = workpiece?.meta.bbox;
    return {
      part:
        workpiece && bbox
          ? {
              file_name: workpiece.meta.original_filename,
              bbox: { min: bbox.min, max: bbox.max, size: boxSize(bbox) },
              face_count: workpiece.meta.face_count,
            }
          : null,
      stock_offsets: job?.stock?.offsets ?? null,
      planned: job?.plan != null,
    };
  });
  if (answer === null) throw notFound("project", projectId);
  res.status(200).json(answer);
}
