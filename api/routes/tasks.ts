/** Task records: one snapshot, or a project's tasks page by page. */
import { z } from "zod";
import { getProject } from "../../db/queries/projects.ts";
import { getTask, listProjectTasks, type TaskRow } from "../../db/queries/tasks.ts";
import { notFound } from "../middleware/errors/index.ts";
import { PageQuery, pageOf, toPage } from "../pagination.ts";
import { json } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { Id, idParams, NoQuery, Timestamp } from "../schemas/common.ts";

const Task = z
  .object({
    task_id: Id,
    project_id: Id.nullable(),
    task_name: z.string().describe("e.g. automation.automated_cam_planning"),
    status: z.enum(["queued", "running", "success", "failed", "cancelled"]).describe(
      "queued -> running -> success | failed | cancelled; running goes back to queued when an attempt is retried",
    ),
    progress: z.number().min(0).max(1).describe("0.0 to 1.0; 1.0 on success"),
    result: z.unknown().nullable().describe("the task's result on success"),
    error: z.object({ code: z.string(), message: z.string() }).nullable().describe("why it failed"),
    attempts: z.number().int().describe("attempts started so far, including retries after a crash"),
    max_attempts: z.number().int(),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
    updated_at: Timestamp,
  })
  .meta({ id: "Task" });

function toTask(row: TaskRow): z.input<typeof Task> {
  return {
    task_id: row.id,
    project_id: row.project_id,
    task_name: row.task_name,
    status: row.status,
    progress: row.progress,
    result: row.result ?? null,
    error: row.error,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  };
}

export const taskRoutes = [
  defineRoute({
    method: "get",
    path: "/tasks/{task_id}",
    operationId: "getTask",
    summary: "Read a task's state, progress and result",
    description: "Task records stay readable indefinitely, also after their project was deleted.",
    tag: "Tasks",
    scopes: ["projects:read"],
    params: idParams("task_id"),
    query: NoQuery,
    responses: { 200: { description: "the task snapshot", schema: Task } },
    errors: [404],
    async handler({ db, params }) {
      const row = await getTask(db, params.task_id);
      if (!row) throw notFound("task", params.task_id);
      return json(200, toTask(row));
    },
  }),
  defineRoute({
    method: "get",
    path: "/tasks/by-project/{project_id}",
    operationId: "listProjectTasks",
    summary: "List a project's tasks, newest first, with cursor pagination",
    tag: "Tasks",
    scopes: ["projects:read"],
    params: idParams("project_id"),
    query: PageQuery,
    responses: { 200: { description: "a page of tasks", schema: pageOf(Task) } },
    errors: [404],
    async handler({ db, params, query }) {
      if (!(await getProject(db, params.project_id))) throw notFound("project", params.project_id);
      const rows = await listProjectTasks(db, params.project_id, query.limit + 1, query.cursor);
      return json(200, toPage(rows, query.limit, toTask));
    },
  }),
];
