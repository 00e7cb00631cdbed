/**
 * The webhook bodies Swarf POSTs (docs/webhooks.md), for the OpenAPI document's `webhooks`
 * section. The bodies are made in SQL (migrations 000008 and 000011: emit_webhook_event);
 * test/api/quote-completeness.test.ts checks real deliveries against these schemas.
 */
import { z } from "zod";
import { CompletenessReasonSchema } from "../../kernel/cam/plan-schemas.ts";
import { Vec3Schema } from "../../kernel/math/vec3-schema.ts";
import { Id, Timestamp } from "../schemas/common.ts";
import { CamPlanningResult } from "../schemas/cam-planning.ts";
import { EVENT_TYPES } from "../../webhooks/event-types.ts";

export const QuoteReadySummary = z
  .object({
    job_id: Id.nullable().describe("the CAM job the planning saved: GET /projects/{project_id}/quote prices it"),
    sendable: z
      .boolean()
      .describe(
        "true when the plan is complete and the planning dropped no per-setup cost override: the quote may go out unread",
      ),
    completeness: z
      .object({
        status: z.enum(["complete", "incomplete"]),
        reasons: z
          .array(CompletenessReasonSchema)
          .describe("why the plan is incomplete, each with its figures; empty when complete"),
      })
      .nullable()
      .describe("the plan's completeness (the whole figures: data.result.completeness); null for a result without one"),
    setup_costs_dropped: z
      .array(z.object({ setup_id: z.string(), name: z.string(), direction: Vec3Schema }))
      .describe(
        "per-setup cost overrides of earlier plans this plan has no setup of the same direction for (docs/quote.md)",
      ),
  })
  .meta({ id: "QuoteReadySummary" });

const EventData = z.object({
  task_id: Id,
  project_id: Id.nullable(),
  task_name: z.string().describe("automation.automated_cam_planning for a planning"),
  status: z.enum(["queued", "running", "success", "failed", "cancelled"]),
  progress: z.number().min(0).max(1),
  result: z
    .union([CamPlanningResult, z.unknown()])
    .nullable()
    .describe(
      "the task's result on task.succeeded and quote.ready (a CamPlanningResult for a planning); null otherwise",
    ),
});

const eventBody = (type: z.ZodType, data: z.ZodType) =>
  z.object({
    id: Id.describe("the delivery id, the same on every retry (X-Service-Delivery-Id)"),
    type,
    created_at: Timestamp.describe("when the event happened"),
    data,
  });

export const WebhookEvent = eventBody(z.enum(EVENT_TYPES), EventData).meta({ id: "WebhookEvent" });
export const QuoteReadyEvent = eventBody(z.literal("quote.ready"), EventData.extend({ quote: QuoteReadySummary })).meta(
  { id: "QuoteReadyEvent" },
);

const WHEN: Record<(typeof EVENT_TYPES)[number], string> = {
  "task.started": "the first progress tick of a task",
  "task.progress": "a task's progress entered a higher 10 % bucket",
  "task.succeeded": "a task succeeded (a planning: also when its plan is incomplete; see data.result.completeness)",
  "task.failed": "a task failed",
  "task.cancelled": "a task was cancelled",
  "quote.ready": "right after task.succeeded of a planning: data.quote says whether the quote may go out unread",
};

/** one entry per event type: POST <your url> with the event's body */
export const WEBHOOK_EVENTS = EVENT_TYPES.map((type) => ({
  type,
  summary: WHEN[type],
  schema: type === "quote.ready" ? QuoteReadyEvent : WebhookEvent,
}));
