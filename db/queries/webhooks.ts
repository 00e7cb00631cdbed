/**
 * Webhook endpoints and their delivery log as the API reads and changes them (under RLS).
 * Secrets never pass through here except as the answer of creating or rotating them.
 */
import type { Queryable } from "../request-transaction.ts";

export interface WebhookEndpointRow {
  id: string;
  seq: number;
  url: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = "id, seq, url, event_types, enabled, disabled_reason, disabled_at, created_at, updated_at";

export async function createWebhookEndpoint(
  db: Queryable,
  url: string,
  eventTypes: readonly string[],
): Promise<{ id: string; url: string; event_types: string[]; enabled: boolean; created_at: Date; secret: string }> {
  const { rows } = await db.query<{
    id: string;
    url: string;
    event_types: string[];
    enabled: boolean;
    created_at: Date;
    secret: string;
  }>("select * from app_public.create_webhook_endpoint($1, $2::text[])", [url, eventTypes]);
  return rows[0]!;
}

export async function getWebhookEndpoint(db: Queryable, id: string): Promise<WebhookEndpointRow | null> {
  const { rows } = await db.query<WebhookEndpointRow>(
    `select ${ENDPOINT_COLUMNS} from app_public.webhook_endpoints where id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export async function listWebhookEndpoints(
  db: Queryable,
  limit: number,
  beforeSeq?: number,
): Promise<WebhookEndpointRow[]> {
  const { rows } = await db.query<WebhookEndpointRow>(
    `select ${ENDPOINT_COLUMNS} from app_public.webhook_endpoints
      where ($2::bigint is null or seq < $2) order by seq desc limit $1`,
    [limit, beforeSeq ?? null],
  );
  return rows;
}

export interface WebhookEndpointPatch {
  url?: string | undefined;
  event_types?: string[] | undefined;
  enabled?: boolean | undefined;
}

export async function updateWebhookEndpoint(
  db: Queryable,
  id: string,
  patch: WebhookEndpointPatch,
): Promise<WebhookEndpointRow | null> {
  const { rowCount } = await db.query(
    `update app_public.webhook_endpoints
        set url = coalesce($2, url), event_types = coalesce($3::text[], event_types), enabled = coalesce($4, enabled)
      where id = $1`,
    [id, patch.url ?? null, patch.event_types ?? null, patch.enabled ?? null],
  );
  if (rowCount !== 1) return null;
  return getWebhookEndpoint(db, id);
}

export async function revokeWebhookEndpoint(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query<{ revoked: boolean }>("select app_public.revoke_webhook_endpoint($1) as revoked", [
    id,
  ]);
  return rows[0]?.revoked === true;
}

export async function rotateWebhookSecret(
  db: Queryable,
  id: string,
): Promise<{ secret: string; previous_expires_at: Date } | null> {
  const { rows } = await db.query<{ secret: string; previous_expires_at: Date }>(
    "select * from app_public.rotate_webhook_secret($1)",
    [id],
  );
  return rows[0] ?? null;
}

export interface DeliveryAttemptRow {
  attempt: number;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  outcome: "delivered" | "retrying" | "failed";
  next_attempt_at: Date | null;
  endpoint_disabled: boolean;
}

export interface WebhookDeliveryRow {
  id: string;
  seq: number;
  event_type: string;
  task_id: string;
  status: "pending" | "delivered" | "failed" | "cancelled";
  next_attempt_at: Date | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
  attempts: DeliveryAttemptRow[];
}

const DELIVERY_SELECT = `
  select d.id, d.seq, d.event_type, d.task_id, d.status, d.next_attempt_at, d.last_error, d.created_at, d.finished_at,
         coalesce((select jsonb_agg(jsonb_build_object(
                    'attempt', a.attempt, 'attempted_at', a.attempted_at, 'status_code', a.status_code,
                    'duration_ms', a.duration_ms, 'error', a.error, 'outcome', a.outcome,
                    'next_attempt_at', a.next_attempt_at, 'endpoint_disabled', a.endpoint_disabled) order by a.attempt)
                     from app_public.webhook_delivery_attempts a where a.delivery_id = d.id), '[]') as attempts
    from app_public.webhook_deliveries d`;

type RawDelivery = Omit<WebhookDeliveryRow, "attempts"> & {
  attempts: (Omit<DeliveryAttemptRow, "attempted_at" | "next_attempt_at"> & {
    attempted_at: string;
    next_attempt_at: string | null;
  })[];
};

function toDelivery(row: RawDelivery): WebhookDeliveryRow {
  return {
    ...row,
    attempts: row.attempts.map((a) => ({
      ...a,
      attempted_at: new Date(a.attempted_at),
      next_attempt_at: a.next_attempt_at === null ? null : new Date(a.next_attempt_at),
    })),
  };
}

export async function listWebhookDeliveries(
  db: Queryable,
  endpointId: string,
  limit: number,
  beforeSeq?: number,
): Promise<WebhookDeliveryRow[]> {
  const { rows } = await db.query<RawDelivery>(
    `${DELIVERY_SELECT} where d.endpoint_id = $1 and ($3::bigint is null or d.seq < $3) order by d.seq desc limit $2`,
    [endpointId, limit, beforeSeq ?? null],
  );
  return rows.map(toDelivery);
}

export async function getWebhookDelivery(
  db: Queryable,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow | null> {
  const { rows } = await db.query<RawDelivery>(`${DELIVERY_SELECT} where d.endpoint_id = $1 and d.id = $2`, [
    endpointId,
    deliveryId,
  ]);
  return rows[0] ? toDelivery(rows[0]) : null;
}

export type RedeliverOutcome = "queued" | "not_found" | "pending" | "endpoint_disabled";

export async function redeliverWebhook(
  db: Queryable,
  endpointId: string,
  deliveryId: string,
): Promise<RedeliverOutcome> {
  const { rows } = await db.query<{ outcome: RedeliverOutcome }>(
    "select app_public.redeliver_webhook($1, $2) as outcome",
    [endpointId, deliveryId],
  );
  return rows[0]!.outcome;
}
