/**
 * The Projects page's list in one request (the web app's Projects):
 *
 *   GET /projects?cursor=&limit= -> 200 {items: [{id, name, customer, current_job_id, created_at,
 *       updated_at, latest_task, part_name, thumbnail_url}], next_cursor}
 *
 * A page of the public GET /projects (same query, same cursor, newest first), each project with
 * its latest task and its current workpiece's file name and presigned thumbnail. Three
 * statements whatever the page's size: the projects, the latest task of all of them, their
 * workpieces with the thumbnails signed. All in a request transaction opened with the session,
 * so RLS shows only the user's live projects, as on the public API.
 */
import type { Request, Response } from "express";
import type { z } from "zod";
import { listProjects, type ProjectRow } from "../../db/queries/projects.ts";
import { latestProjectTasks, type TaskRow } from "../../db/queries/tasks.ts";
import { projectParts, type ProjectPart } from "../../db/queries/workpieces.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import type { AuthenticatedKey } from "../locals.ts";
import { PageQuery, toPage } from "../pagination.ts";
import { publicBaseUrl } from "../public-base-url.ts";
import type { ApiServices } from "../services.ts";

export const ProjectsQuery = PageQuery;

/**
 * Thumbnails are signed as of the start of this window, so a reload within it gets the same
 * URLs and the browser its cached images; each URL still lives at least TTL minus the window.
 */
const SIGNING_WINDOW_MS = 10 * 60_000;

function shown(project: ProjectRow, task: TaskRow | undefined, part: ProjectPart | undefined) {
  return {
    id: project.id,
    name: project.name,
    customer: project.customer,
    current_job_id: project.current_job_id,
    created_at: project.created_at.toISOString(),
    updated_at: project.updated_at.toISOString(),
    latest_task: task
      ? { task_id: task.id, task_name: task.task_name, status: task.status, progress: task.progress }
      : null,
    part_name: part?.filename ?? null,
    thumbnail_url: part?.thumbnail?.url ?? null,
  };
}

export async function listProjectsWithStatus(
  req: Request,
  res: Response,
  services: ApiServices,
  auth: AuthenticatedKey,
): Promise<void> {
  // validate() has parsed it already: the cursor is its sequence number now
  const query = res.locals.input?.query as z.output<typeof ProjectsQuery>;
  const now = Math.floor(Date.now() / SIGNING_WINDOW_MS) * SIGNING_WINDOW_MS;
  const presign = { baseUrl: publicBaseUrl(req, services.env.PUBLIC_BASE_URL), apiBasePath: API_BASE_PATH, now };
  const page = await withRequestTransaction(services.pool, auth.credential, ["projects:read"], async (db) => {
    const rows = await listProjects(db, query.limit + 1, query.cursor);
    const ids = rows.slice(0, query.limit).map((row) => row.id);
    const tasks = await latestProjectTasks(db, ids);
    const parts = await projectParts(db, ids, presign);
    return toPage(rows, query.limit, (row) => shown(row, tasks.get(row.id), parts.get(row.id)));
  });
  res.status(200).json(page);
}
