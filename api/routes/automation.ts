/**
 * Automated CAM planning: starts the plan_cam task (tasks/automated_cam_planning.ts) for a
 * project. One automation task per project at a time (409 automation_slot_busy), one per user
 * running at a time (the others wait in the user's queue, first come first served).
 * docs/automation.md describes queueing, cancellation, progress, the result and the failures.
 */
import { z } from "zod";
import { unmetPlanningPrecondition } from "../../kernel/cam/planning-preconditions.ts";
import { workholdingProblems } from "../../kernel/cam/planning-workholding.ts";
import { findMachineArchetype } from "../../kernel/machines/archetypes.ts";
import { planningPreconditions, startAutomationTask, type PlanningRequestFacts } from "../../db/queries/automation.ts";
import type { Workholding } from "../../kernel/workholding/schema.ts";
import { PlanOptionsSchema } from "../../kernel/job/plan.ts";
import { DEFAULT_SURFACE_LIMIT_PCT } from "../../kernel/cam/planner/completeness.ts";
import { RAPID_CLEARANCE_MM } from "../../kernel/cam/milling/linking.ts";
import { DEFAULT_SCALLOP_MM } from "../../kernel/cam/planner/surface-finishing-step.ts";
import {
  PLAN_CAM_MAX_ATTEMPTS,
  PLAN_CAM_TASK_NAME,
  PLAN_CAM_WORKER_TASK,
  type PlanCamPayload,
} from "../../contracts/tasks.ts";
import { HttpError, notFound } from "../../http/errors/index.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { json } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { Id, idParams, NoQuery } from "../schemas/common.ts";
import { WorkholdingSchema } from "../schemas/workholding.ts";

/**
 * The defaults are what a shop expects of a first plan (docs/automation.md): the stock's top
 * faced flat first, since sawn or rolled stock is neither flat nor at a known height; operations
 * by tool, since a tool change costs more than the air a by-tool order cuts.
 */
export const PLANNING_DEFAULTS: PlanCamPayload = { include_face_milling: true, sort_by_height: false };

const CamPlanningBody = z
  .strictObject({
    include_face_milling: z
      .boolean()
      .default(PLANNING_DEFAULTS.include_face_milling)
      .describe(
        "face the stock's top down to the part in each setup first. Default true: sawn stock is neither flat nor at a known height",
      ),
    sort_by_height: z
      .boolean()
      .default(PLANNING_DEFAULTS.sort_by_height)
      .describe(
        "order a setup's operations from the top down instead of by tool. Default false: by tool, the fewest tool changes",
      ),
    completeness_surface_limit_pct: PlanOptionsSchema.shape.completeness_surface_limit_pct.describe(
      `an extension: the share of the part's surface (0 to 100 %) material thicker than the finishing tolerance may be left on before the plan's completeness is incomplete; ${DEFAULT_SURFACE_LIMIT_PCT} when not given (docs/automation.md)`,
    ),
    rapid_clearance_mm: PlanOptionsSchema.shape.rapid_clearance_mm.describe(
      `an extension: how far the rapids keep from the stock's faces and the material left, sideways and below, in mm (0 to 50); ${RAPID_CLEARANCE_MM} when not given. Closer descents are fed (docs/automation.md)`,
    ),
    clearing: PlanOptionsSchema.shape.clearing.describe(
      'an extension: how roughing clears each level: "offset" (passes a stepover apart), "adaptive" (paths that hold ' +
        "the tool's radial engagement at the cutting data's cross-section spread over each level's depth, at least 10 % of " +
        'its diameter, at its rated depth of cut, the feed raised for the thin chip; the operation is named "Adaptive ' +
        'roughing with ...") or "auto" (per region of each roughing, each closed pocket or slot and the open rest, ' +
        "the one that machines it in less time, where the levels predict adaptive may be; the regions going each way " +
        "make an operation of their own, which lists them in clearing_regions; rest roughing is offset either way). " +
        '"auto" when not given (docs/cam-planning.md)',
    ),
    scallop_mm: PlanOptionsSchema.shape.scallop_mm.describe(
      `an extension: the scallop height in mm (0.001 to 0.5) 3D finishing of sloped and curved faces leaves between ` +
        `its passes; ${DEFAULT_SCALLOP_MM} when not given. Each surface_finishing operation reports the largest ` +
        "scallop measured on its faces (docs/cam-planning.md)",
    ),
    workholding: WorkholdingSchema.optional().describe(
      "an extension: what holds the stock (a machine vise, or a fixture plate with edge clamps); every setup is " +
        "then clamped in it, its tools keep clear of the jaws, parallels, clamps and plate, and the plan's setups " +
        "say how they are held. It must hold the project's " +
        "stock on its machine (400 invalid_workholding otherwise). Not given, the machine's default_workholding " +
        "holds it (GET /libraries/machines). Either way a setup it cannot hold is clamped on the machine's table " +
        "(table_workholding there; the setup's workholding.type machine_table) before it is left out " +
        "(docs/automation.md)",
    ),
  })
  .meta({ id: "CamPlanningRequest" }) satisfies z.ZodType<PlanCamPayload, Partial<PlanCamPayload>>;

const CamPlanningStarted = z
  .object({
    task_id: Id.describe("poll GET /tasks/{task_id}; cancel with POST /tasks/{task_id}/cancel"),
    queued: z.literal(true).optional().describe("present when another automation task of the user runs or waits first"),
    queue_position: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("with queued: how many of the user's automation tasks are ahead of this one (queued or running)"),
    options: z
      .object({
        include_face_milling: z.boolean(),
        sort_by_height: z.boolean(),
        workholding: WorkholdingSchema.optional().describe("the workholding override, when the request sent one"),
      })
      .describe("the options the task plans with: as sent, the defaults for those not sent"),
  })
  .meta({ id: "CamPlanningStarted" });

export const automationRoutes = [
  defineRoute({
    method: "post",
    path: "/projects/{project_id}/automation/cam-planning",
    operationId: "startCamPlanning",
    summary: "Start automated CAM planning of a project (an asynchronous task)",
    description:
      "Plans setups, tools and toolpaths from the project's workpiece, stock, machine, material and equipment library, " +
      "with the options sent (a body of {} takes the defaults: include_face_milling true, sort_by_height false; the answer's " +
      "options shows those used). " +
      "verifies them in a stock simulation and saves them as a new CAM job (the task's result: CamPlanningResult). " +
      "A user's automation tasks run one at a time: a request while another runs or waits is queued (queued: true, " +
      "queue_position) and runs after those ahead of it. A second request for a project whose planning is queued or " +
      "running is 409 automation_slot_busy (details.task_id names it). 30 requests per hour per key. docs/automation.md.",
    tag: "Automation",
    scopes: ["automation:run", "cam:write"],
    params: idParams("project_id"),
    query: NoQuery,
    // no body at all plans with the defaults, as {} does
    body: CamPlanningBody.prefault({}),
    idempotent: true,
    rateLimit: {
      bucket: "cam_planning",
      limit: (services) => services.env.CAM_PLANNING_RATE_LIMIT_PER_HOUR,
      windowSeconds: 3600,
    },
    responses: {
      202: {
        description: "the planning task, queued or about to run",
        schema: CamPlanningStarted,
        headers: { Location: "the task: /backend-api/api/public/v1/tasks/{task_id}" },
      },
    },
    errors: [404, 409, 413, 415, 422],
    errorCodes: {
      400:
        "invalid_workholding: the workholding cannot hold the project's stock on its machine; details.fields names " +
        "each field to change (body.workholding.max_opening_mm: the opening is narrower than the stock's narrower " +
        "horizontal side; body.workholding.jaw_height_mm: the jaws, or the stock held in them, stand taller than " +
        "the Z travel; body.workholding.parallel_heights_mm: no parallel leaves the grip the planner holds with; " +
        "body.workholding.plate_length_mm or plate_width_mm: the stock's footprint does not fit on the plate either " +
        "way round; body.workholding.clamp_height_mm: clamps under 3 mm tall, or the plate and its clamps or " +
        "stock stand taller than the Z travel; body.workholding.plate_thickness_mm: the plate and the stock on it " +
        "stand taller than the Z travel)",
      409:
        "automation_slot_busy (a planning of this project is queued or running; details.task_id), " +
        "workpiece_missing (upload a workpiece first), stock_missing (set the stock first), " +
        "material_missing (set the project's material_id), library_missing (set the project's library_id), " +
        "empty_library (the project's equipment library has no assemblies)",
    },
    async handler({ db, params, body }) {
      const projectId = params.project_id;
      const facts = await planningPreconditions(db, projectId);
      if (!facts) throw notFound("project", projectId);
      const unmet = unmetPlanningPrecondition(facts);
      if (unmet) {
        // an empty library is named, since the project has one
        const details =
          unmet.code === "empty_library"
            ? { project_id: projectId, library_id: facts.libraryId }
            : { project_id: projectId };
        throw new HttpError(409, unmet.code, unmet.message, details);
      }
      if (body.workholding) refuseUnheldStock(body.workholding, facts);
      const started = await startAutomationTask(db, {
        projectId,
        taskName: PLAN_CAM_TASK_NAME,
        workerTask: PLAN_CAM_WORKER_TASK,
        payload: body,
        maxAttempts: PLAN_CAM_MAX_ATTEMPTS,
      });
      if (!started.started) {
        throw new HttpError(
          409,
          "automation_slot_busy",
          "a planning of this project is queued or running; wait for it or cancel it",
          {
            project_id: projectId,
            task_id: started.activeTaskId,
          },
        );
      }
      const taskId = started.task.id;
      const options = {
        include_face_milling: body.include_face_milling,
        sort_by_height: body.sort_by_height,
        ...(body.workholding ? { workholding: body.workholding } : {}),
      };
      const answer: z.input<typeof CamPlanningStarted> =
        started.ahead > 0
          ? { task_id: taskId, queued: true, queue_position: started.ahead, options }
          : { task_id: taskId, options };
      return json(202, answer, { Location: `${API_BASE_PATH}/tasks/${taskId}` });
    },
  }),
];

/**
 * A 400 when the override (a vise or a fixture plate) cannot hold the project's stock on its
 * machine. A machine the planner does not know is left to the task, which fails with
 * machine_unsupported as without an override.
 */
function refuseUnheldStock(workholding: Workholding, facts: PlanningRequestFacts): void {
  const machine = findMachineArchetype(facts.productId);
  if (!machine || !facts.stockSize) return;
  const problems = workholdingProblems(workholding, { stockSize: facts.stockSize, travelZ: machine.travel_z_mm });
  if (problems.length === 0) return;
  throw new HttpError(
    400,
    "invalid_workholding",
    `the workholding cannot hold the project's stock: ${problems.map((p) => p.message).join("; ")}`,
    { fields: problems.map((p) => ({ field: `body.${p.field}`, code: p.code, message: p.message })) },
  );
}
