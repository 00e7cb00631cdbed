/**
 * The part's recognised features, for the viewer to colour by class (their face ids are the
 * part glb's _FACE_ID) and to show their parameters:
 *
 *   GET /projects/{project_id}/features
 *     -> 200 {job_id, features: [{id, class, faces, access_direction, depth_mm, width_mm,
 *             corner_radius_mm, hole: {...} | null, setups}]}
 *
 * The recognition is the planner's (it is not stored: the part is read again on a geometry
 * thread, which keeps it per job); `setups` are the indexes of the planned setups whose
 * operations machine the feature, empty for one no operation names.
 */
import type { Request, Response } from "express";
import { z } from "zod";
import type { ViewerFeatures } from "../../contracts/viewer.ts";
import type { AuthenticatedKey } from "../locals.ts";
import type { ApiServices } from "../services.ts";
import { askViewer, plannedInputs } from "./viewer-geometry.ts";

export const ViewerFeaturesParams = z.strictObject({ project_id: z.uuid() });

export async function viewerFeatures(
  _req: Request,
  res: Response,
  services: ApiServices,
  auth: AuthenticatedKey,
): Promise<void> {
  const { project_id: projectId } = ViewerFeaturesParams.parse(res.locals.input?.params);
  const { request } = await plannedInputs(services, auth, projectId);
  const outcome = await askViewer(services, auth, { ...request, kind: "viewer", query: { kind: "features" } });
  if (outcome.kind !== "features") throw new Error(`the viewer answered ${outcome.kind} to a features question`);
  const answer: ViewerFeatures = { job_id: request.jobId, features: outcome.features };
  res.status(200).json(answer);
}
