/**
 * The events a webhook endpoint can subscribe to (public-api.md, "Webhooks"). The SQL side
 * (app_private.emit_webhook_event) emits exactly these; the route that registers endpoints and
 * the OpenAPI document's `webhooks` section both read this list.
 */
export const EVENT_TYPES = [
  "task.started",
  "task.progress",
  "task.succeeded",
  "task.failed",
  "task.cancelled",
  "quote.ready",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
