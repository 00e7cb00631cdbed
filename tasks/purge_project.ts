/**
 * purge_project: removes a soft-deleted project's rows (quote job, jobs, workpieces and
 * everything else that references it cascade) and the blobs no other project of the user
 * uses, in one transaction (sql: app_private.purge_project). Queued by a trigger when
 * DELETE /projects/{id} sets deleted_at. Task records stay: they are readable indefinitely.
 */
import type { Task } from "graphile-worker";
import { z } from "zod";
import { purgeDeletedProject } from "../db/queries/projects.ts";

const Payload = z.object({ project_id: z.uuid() });

export const purgeProject: Task = async (payload, helpers) => {
  const { project_id: projectId } = Payload.parse(payload);
  const purged = await helpers.withPgClient((db) => purgeDeletedProject(db, projectId));
  helpers.logger.info(
    `purged project ${projectId} (${purged?.projects_deleted ?? 0} row, ${purged?.blobs_deleted ?? 0} blobs)`,
  );
};
