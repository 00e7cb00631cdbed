/** The public API's webhook routes (api/routes/webhooks.ts), called with the session. */
import { PUBLIC_API } from "./base.ts";
import { request } from "./client.ts";

export const EVENT_TYPES = [
  "task.started",
  "task.progress",
  "task.succeeded",
  "task.failed",
  "task.cancelled",
  "quote.ready",
] as const;

export interface Webhook {
  id: string;
  url: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  outcome: "delivered" | "retrying" | "failed";
}

export interface Delivery {
  id: string;
  event_type: string;
  task_id: string;
  status: "pending" | "delivered" | "failed" | "cancelled";
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
  attempts: DeliveryAttempt[];
}

interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

const base = `${PUBLIC_API}/webhooks`;
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const listWebhooks = () => request<Page<Webhook>>("GET", `${base}?limit=100`);
export const createWebhook = (url: string, eventTypes: string[]) =>
  request<Webhook & { secret: string }>("POST", base, { url, event_types: eventTypes });
export const setWebhookEnabled = (id: string, enabled: boolean) => request<Webhook>("PATCH", one(id), { enabled });
export const deleteWebhook = (id: string) => request<void>("DELETE", one(id));
export const rotateWebhookSecret = (id: string) =>
  request<{ id: string; secret: string; previous_secret_expires_at: string }>("POST", `${one(id)}/rotate-secret`);
export const listDeliveries = (id: string) => request<Page<Delivery>>("GET", `${one(id)}/deliveries?limit=50`);
export const redeliver = (id: string, deliveryId: string) =>
  request<Delivery>("POST", `${one(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);
