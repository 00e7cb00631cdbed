/** Task records: one snapshot, a project's tasks page by page, and cancelling an automation task. */
import { z } from "zod";
import { cancelTask } from "../../db/queries/automation.ts";
import { getProject } from "../../db/queries/projects.ts";
import { getTask, listProjectTasks, type TaskRow } from "../../db/queries/tasks.ts";
import { withPresignedBase } from "../../storage/presign.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { HttpError, notFound } from "../../http/errors/index.ts";
import { PageQuery, pageOf, toPage } from "../pagination.ts";
import { json } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { Id, idParams, NoQuery, Timestamp } from "../schemas/common.ts";
import { CamPlanningResult } from "../schemas/cam-planning.ts";

const Task = z
  .object({
    task_id: Id,
    project_id: Id.nullable(),
    task_name: z.string().describe("e.g. automation.automated_cam_planning"),
    status: z
      .enum(["queued", "running", "success", "failed", "cancelled"])
      .describe(
        "queued -> running -> success | failed | cancelled; running goes back to queued when an attempt is retried",
      ),
    progress: z.number().min(0).max(1).describe("0.0 to 1.0; 1.0 on success"),
    result: z
      .union([CamPlanningResult, z.unknown()])
      .nullable()
      .describe(
        "the task's result on success: a CamPlanningResult for automation.automated_cam_planning; a workpiece.tessellate " +
          "result's mesh_url and thumbnail_url are absolute, on PUBLIC_BASE_URL or this request's origin",
      ),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .describe(
        "why it failed (docs/automation.md lists the planning's codes); null unless failed, or queued for a retry",
      ),
    attempts: z.number().int().describe("attempts started so far, including retries after a crash"),
    max_attempts: z.number().int(),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    finished_at: Timestamp.nullable(),
    cancel_requested_at: Timestamp.nullable().describe(
      "when POST /tasks/{task_id}/cancel asked for it; null otherwise",
    ),
    updated_at: Timestamp,
  })
  .meta({ id: "Task" });

/** a task as the API shows it; presigned URLs a worker stored root-relative are made absolute against `baseUrl` */
function toTask(row: TaskRow, baseUrl: string): z.input<typeof Task> {
  return {
    task_id: row.id,
    project_id: row.project_id,
    task_name: row.task_name,
    status: row.status,
    progress: row.progress,
    result:
      row.result === null || row.result === undefined ? null : withPresignedBase(row.result, baseUrl, API_BASE_PATH),
    error: row.error,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    cancel_requested_at: row.cancel_requested_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  };
}

const NOT_CANCELLABLE: Record<string, { code: string; message: string }> = {
  finished: { code: "task_finished", message: "the task has finished already; it can no longer be cancelled" },
  not_cancellable: {
    code: "task_not_cancellable",
    message: "only automation tasks can be cancelled; this one runs to its end",
  },
};

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
    async handler({ db, params, publicBaseUrl }) {
      const row = await getTask(db, params.task_id);
      if (!row) throw notFound("task", params.task_id);
      return json(200, toTask(row, publicBaseUrl));
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
    async handler({ db, params, query, publicBaseUrl }) {
      if (!(await getProject(db, params.project_id))) throw notFound("project", params.project_id);
      const rows = await listProjectTasks(db, params.project_id, query.limit + 1, query.cursor);
      return json(
        200,
        toPage(rows, query.limit, (row) => toTask(row, publicBaseUrl)),
      );
    },
  }),
  defineRoute({
    method: "post",
    path: "/tasks/{task_id}/cancel",
    operationId: "cancelTask",
    summary: "Cancel an automation task: at once when queued, at the planner's next check when running",
    description:
      "A queued task is cancelled at once (200, status cancelled) and never runs. A running task is asked to stop " +
      "(202, status still running, cancel_requested_at set): the planner stops at its next check, within seconds, and " +
      "the task ends cancelled with nothing saved (poll GET /tasks/{task_id}). Repeating the request is harmless: a " +
      "task cancelled already answers 200 as it is. A task that succeeded or failed is 409 task_finished; a task other " +
      "than an automation task (a re-mesh) is 409 task_not_cancellable.",
    tag: "Tasks",
    scopes: ["automation:run"],
    params: idParams("task_id"),
    query: NoQuery,
    responses: {
      200: { description: "the task, cancelled (now or before)", schema: Task },
      202: { description: "the task, still running, its cancel requested", schema: Task },
    },
    errors: [404, 409],
    errorCodes: {
      409: "task_finished (it succeeded or failed already; details.status), task_not_cancellable (not an automation task)",
    },
    async handler({ db, params, auth, publicBaseUrl }) {
      const cancelled = await cancelTask(db, params.task_id, auth.credential);
      if (!cancelled) throw notFound("task", params.task_id);
      const refusal = NOT_CANCELLABLE[cancelled.outcome];
      if (refusal)
        throw new HttpError(409, refusal.code, refusal.message, { task_id: params.task_id, status: cancelled.status });
      const row = await getTask(db, params.task_id);
      if (!row) throw notFound("task", params.task_id);
      return json(cancelled.outcome === "requested" ? 202 : 200, toTask(row, publicBaseUrl));
    },
  }),
];
