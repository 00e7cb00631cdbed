/**
 * What the side that queues a task (the API, db/queries, the CLI) and the side that runs it
 * (tasks/) agree on, declared once: the public name task records, GET /tasks and webhooks
 * carry, the graphile-worker task that runs it, its attempts, and its payload's schema. The
 * task parses its payload with the schema; whoever queues it writes one. This module sits below
 * api/, db/ and tasks/, and imports none of them.
 */
import { z } from "zod";
import type { PlanOptions } from "../kernel/cam/plan-types.ts";
import { PlanOptionsSchema } from "../kernel/job/plan.ts";
import { Workholding } from "../kernel/workholding/schema.ts";

/** The CAM planning of a project (tasks/automated_cam_planning.ts), queued by POST .../automation/cam-planning. */
export const PLAN_CAM_TASK_NAME = "automation.automated_cam_planning";
export const PLAN_CAM_WORKER_TASK = "plan_cam";
/** one retry, for a thread or worker that died; a plan's own failures are never retried */
export const PLAN_CAM_MAX_ATTEMPTS = 2;

/**
 * The task record's payload: the request's options (a payload written before the limit or the
 * rapid clearance or the clearing existed has none: the default) and its workholding override (none in a payload written before it, or
 * when the request sent none).
 */
export const PlanCamPayload = z.strictObject({
  include_face_milling: z.boolean(),
  sort_by_height: z.boolean(),
  completeness_surface_limit_pct: PlanOptionsSchema.shape.completeness_surface_limit_pct,
  rapid_clearance_mm: PlanOptionsSchema.shape.rapid_clearance_mm,
  clearing: PlanOptionsSchema.shape.clearing,
  scallop_mm: PlanOptionsSchema.shape.scallop_mm,
  workholding: Workholding.optional(),
}) satisfies z.ZodType<PlanOptions>;
export type PlanCamPayload = z.infer<typeof PlanCamPayload>;

/** A workpiece's re-mesh (tasks/tessellate.ts), queued by a job file's import and the CLI. */
export const TESSELLATE_TASK_NAME = "workpiece.tessellate";
export const TESSELLATE_WORKER_TASK = "tessellate";

/** The task record's payload. */
export const TessellatePayload = z.strictObject({
  workpiece_id: z.uuid(),
  /** chordal deviation in mm; default: 0.05 % of the part's diagonal, within 0.01..0.5 mm */
  linear_deflection_mm: z.number().min(0.001).max(10).optional(),
  /** default 0.5 rad (28.6 deg) */
  angular_deflection_deg: z.number().min(1).max(90).optional(),
});
export type TessellatePayload = z.infer<typeof TessellatePayload>;
