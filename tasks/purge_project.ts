/**
 * purge_project: removes a soft-deleted project's rows (quote job and everything else that
 * references it cascades). Queued by a trigger when DELETE /projects/{id} sets deleted_at.
 * Task records stay: they are readable indefinitely.
 */
import type { Task } from "graphile-worker";
import { z } from "zod";

const Payload = z.object({ project_id: z.uuid() });

export const purgeProject: Task = async (payload, helpers) => {
  const { project_id: projectId } = Payload.parse(payload);
  const { rowCount } = await helpers.query(
    "delete from app_public.projects where id = $1 and deleted_at is not null",
    [projectId],
  );
  helpers.logger.info(`purged project ${projectId} (${rowCount ?? 0} row)`);
};
