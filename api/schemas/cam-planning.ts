/**
 * A CAM planning's result as clients read it: GET /tasks/{task_id} on success, and the
 * task.succeeded and quote.ready webhook bodies.
 */
import { PlanSummarySchema } from "../../kernel/job/plan.ts";
import { Id } from "./common.ts";

export const CamPlanningResult = PlanSummarySchema.extend({
  job_id: Id.describe(
    "the new CAM job holding the plan, now the project's current_job_id (download it: GET /projects/{id}/job)",
  ),
}).meta({ id: "CamPlanningResult" });
