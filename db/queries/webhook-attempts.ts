/**
 * What one delivery attempt reads and writes (webhooks/delivery.ts, run by the deliver_webhook
 * task on the owner connection): the delivery with its endpoint and valid secrets, holding it
 * behind an earlier event, cancelling it, and recording the attempt.
 */
import type { Queryable } from "../request-transaction.ts";

export type AttemptOutcome = "delivered" | "retrying" | "failed";

export interface DeliveryState {
  id: string;
  endpoint_id: string;
  task_id: string;
  event_seq: string;
  event_type: string;
  body: string;
  status: string;
  attempts: number;
  max_attempts: number;
  url: string;
  enabled: boolean;
  revoked: boolean;
  /** the endpoint's secrets valid at `now`, newest first; null when none */
  secrets: string[] | null;
}

export async function readDelivery(db: Queryable, deliveryId: string, now: Date): Promise<DeliveryState | null> {
  const { rows } = await db.query<DeliveryState>(
    `select d.id, d.endpoint_id, d.task_id, d.event_seq, d.event_type, d.body, d.status, d.attempts, d.max_attempts,
            e.url, e.enabled, e.revoked_at is not null as revoked,
            (select array_agg(s.secret order by s.id desc) from app_private.webhook_secrets s
              where s.endpoint_id = e.id and (s.expires_at is null or s.expires_at > $2)) as secrets
       from app_public.webhook_deliveries d join app_public.webhook_endpoints e on e.id = d.endpoint_id
      where d.id = $1`,
    [deliveryId, now],
  );
  return rows[0] ?? null;
}

/** A pending delivery cancelled, with why. */
export async function cancelDelivery(db: Queryable, deliveryId: string, reason: string, now: Date): Promise<void> {
  await db.query(
    `update app_public.webhook_deliveries set status = 'cancelled', last_error = $2, finished_at = $3, next_attempt_at = null
      where id = $1 and status = 'pending'`,
    [deliveryId, reason, now],
  );
}

/**
 * The earliest event of the same task to the same endpoint that is still pending before this
 * one: found, the time of its next attempt (null when it has none set); not found, undefined.
 */
export async function earlierPendingDelivery(
  db: Queryable,
  delivery: Pick<DeliveryState, "endpoint_id" | "task_id" | "event_seq">,
): Promise<Date | null | undefined> {
  const { rows } = await db.query<{ next_attempt_at: Date | null }>(
    `select next_attempt_at from app_public.webhook_deliveries
      where endpoint_id = $1 and task_id = $2 and status = 'pending' and event_seq < $3
      order by event_seq limit 1`,
    [delivery.endpoint_id, delivery.task_id, delivery.event_seq],
  );
  return rows[0] ? rows[0].next_attempt_at : undefined;
}

/** A new job for the delivery at `until`. */
export async function enqueueDelivery(
  db: Queryable,
  deliveryId: string,
  endpointId: string,
  until: Date,
): Promise<void> {
  await db.query("select app_private.enqueue_webhook_delivery($1, $2, $3)", [deliveryId, endpointId, until]);
}

export interface RecordedAttempt {
  attempt: number;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  retryable: boolean;
  next: Date | null;
  now: Date;
}

/** The attempt recorded in one transaction (app_private.record_webhook_attempt); its outcome, null when it was not recorded. */
export async function recordWebhookAttempt(
  db: Queryable,
  deliveryId: string,
  a: RecordedAttempt,
): Promise<AttemptOutcome | null> {
  const { rows } = await db.query<{ outcome: AttemptOutcome | null }>(
    "select app_private.record_webhook_attempt($1, $2, $3, $4, $5, $6, $7, $8, $9) as outcome",
    [deliveryId, a.attempt, a.attemptedAt, a.statusCode, a.durationMs, a.error, a.retryable, a.next, a.now],
  );
  return rows[0]?.outcome ?? null;
}
