/**
 * Webhook endpoints (docs/webhooks.md): register (the secret is answered only here), list,
 * read, change, revoke, rotate the secret, read the delivery log, redeliver. Every route needs
 * webhooks:write, the spec's one webhook scope.
 */
import { z } from "zod";
import {
  createWebhookEndpoint,
  getWebhookDelivery,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  revokeWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from "../../db/queries/webhooks.ts";
import { EVENT_TYPES } from "../../webhooks/event-types.ts";
import { checkWebhookUrl, webhookPolicyFrom, WebhookUrlRefused } from "../../webhooks/address-policy.ts";
import { HttpError, invalidParameter, notFound } from "../../http/errors/index.ts";
import { PageQuery, pageOf, toPage } from "../pagination.ts";
import { json, noContent } from "../reply.ts";
import { defineRoute } from "../route.ts";
import type { ApiServices } from "../services.ts";
import { Id, idParams, NoQuery, Timestamp } from "../schemas/common.ts";

const EventTypes = z
  .array(z.enum(EVENT_TYPES))
  .max(EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, { message: "lists an event type twice" })
  .describe("the event types delivered; empty means all");

const Url = z
  .string()
  .max(2048)
  .describe(
    "the delivery target: https (http outside production), no credentials, not a private or link-local address",
  );

const WebhookEndpoint = z
  .object({
    id: Id,
    url: z.string(),
    event_types: z.array(z.string()).describe("empty means all events"),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .describe("set when the service disabled it: every delivery failed for 24 hours"),
    disabled_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "WebhookEndpoint" });

const WebhookEndpointCreated = z
  .object({
    id: Id,
    url: z.string(),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    created_at: Timestamp,
    secret: z.string().describe("the signing secret; answered only here (and by rotate-secret), keep it"),
  })
  .meta({ id: "WebhookEndpointCreated" });

const WebhookCreate = z.strictObject({ url: Url, event_types: EventTypes.default([]) }).meta({ id: "WebhookCreate" });

const WebhookPatch = z
  .strictObject({ url: Url.optional(), event_types: EventTypes.optional(), enabled: z.boolean().optional() })
  .refine((body) => Object.keys(body).length > 0, { message: "send at least one field" })
  .meta({ id: "WebhookPatch" });

const SecretRotated = z
  .object({
    id: Id,
    secret: z.string().describe("the new signing secret"),
    previous_secret_expires_at: Timestamp.describe("until then deliveries carry a v1 signature with each secret"),
  })
  .meta({ id: "WebhookSecretRotated" });

const DeliveryAttempt = z.object({
  attempt: z.number().int().describe("1-based; a redelivery continues the count"),
  attempted_at: Timestamp,
  status_code: z
    .number()
    .int()
    .nullable()
    .describe("the receiver's HTTP status; null on a timeout, network error or refused address"),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
  outcome: z.enum(["delivered", "retrying", "failed"]),
  next_attempt_at: Timestamp.nullable().describe("when it is retried (outcome retrying)"),
  endpoint_disabled: z.boolean().describe("this failure disabled the endpoint: every delivery had failed for 24 hours"),
});

const WebhookDelivery = z
  .object({
    id: Id.describe("the X-Service-Delivery-Id header and the body's id, the same on every attempt"),
    event_type: z.enum(EVENT_TYPES),
    task_id: Id,
    status: z.enum(["pending", "delivered", "failed", "cancelled"]),
    next_attempt_at: Timestamp.nullable(),
    last_error: z.string().nullable(),
    created_at: Timestamp,
    finished_at: Timestamp.nullable(),
    attempts: z.array(DeliveryAttempt),
  })
  .meta({ id: "WebhookDelivery" });

const iso = (d: Date | null) => d?.toISOString() ?? null;

function toEndpoint(row: WebhookEndpointRow): z.input<typeof WebhookEndpoint> {
  return {
    id: row.id,
    url: row.url,
    event_types: row.event_types,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    disabled_at: iso(row.disabled_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toDelivery(row: WebhookDeliveryRow): z.input<typeof WebhookDelivery> {
  return {
    id: row.id,
    event_type: row.event_type as (typeof EVENT_TYPES)[number],
    task_id: row.task_id,
    status: row.status,
    next_attempt_at: iso(row.next_attempt_at),
    last_error: row.last_error,
    created_at: row.created_at.toISOString(),
    finished_at: iso(row.finished_at),
    attempts: row.attempts.map((a) => ({
      ...a,
      attempted_at: a.attempted_at.toISOString(),
      next_attempt_at: iso(a.next_attempt_at),
    })),
  };
}

/** The URL rules the server can check without DNS; delivery checks every resolved address again. */
function checkedUrl(services: ApiServices, url: string): string {
  try {
    return checkWebhookUrl(url, webhookPolicyFrom(services.env)).toString();
  } catch (error) {
    if (error instanceof WebhookUrlRefused)
      throw invalidParameter([{ field: "body.url", code: "url_not_allowed", message: error.message }]);
    throw error;
  }
}

const EndpointParams = idParams("webhook_id");
const DeliveryParams = z.strictObject({ webhook_id: Id, delivery_id: Id });
const SCOPES = ["webhooks:write"] as const;

export const webhookRoutes = [
  defineRoute({
    method: "post",
    path: "/webhooks",
    operationId: "createWebhook",
    summary: "Register a webhook endpoint; the answer carries its signing secret, the only time it is shown",
    description:
      "Events of the user's tasks are POSTed to url, signed with the secret (X-Service-Signature: t=<unix>,v1=<hex " +
      'HMAC-SHA256 of "<t>.<raw body>">). docs/webhooks.md explains the events, retries and verification.',
    tag: "Webhooks",
    scopes: SCOPES,
    query: NoQuery,
    body: WebhookCreate,
    responses: { 201: { description: "the endpoint and its secret", schema: WebhookEndpointCreated } },
    errors: [413, 415],
    errorCodes: {
      400: "invalid_parameter with details.fields[].code url_not_allowed (scheme, credentials, a private address)",
    },
    async handler({ db, body, services }) {
      const created = await createWebhookEndpoint(db, checkedUrl(services, body.url), body.event_types);
      return json(
        201,
        { ...created, created_at: created.created_at.toISOString() },
        { Location: `/backend-api/api/public/v1/webhooks/${created.id}`, "Cache-Control": "no-store" },
      );
    },
  }),
  defineRoute({
    method: "get",
    path: "/webhooks",
    operationId: "listWebhooks",
    summary: "List webhook endpoints, newest first (no secrets)",
    tag: "Webhooks",
    scopes: SCOPES,
    query: PageQuery,
    responses: { 200: { description: "a page of endpoints", schema: pageOf(WebhookEndpoint) } },
    async handler({ db, query }) {
      const rows = await listWebhookEndpoints(db, query.limit + 1, query.cursor);
      return json(200, toPage(rows, query.limit, toEndpoint));
    },
  }),
  defineRoute({
    method: "get",
    path: "/webhooks/{webhook_id}",
    operationId: "getWebhook",
    summary: "Read a webhook endpoint (no secret)",
    tag: "Webhooks",
    scopes: SCOPES,
    params: EndpointParams,
    query: NoQuery,
    responses: { 200: { description: "the endpoint", schema: WebhookEndpoint } },
    errors: [404],
    async handler({ db, params }) {
      const row = await getWebhookEndpoint(db, params.webhook_id);
      if (!row) throw notFound("webhook", params.webhook_id);
      return json(200, toEndpoint(row));
    },
  }),
  defineRoute({
    method: "patch",
    path: "/webhooks/{webhook_id}",
    operationId: "updateWebhook",
    summary: "Change a webhook endpoint's url, event_types or enabled",
    description:
      "Enabling an endpoint the service disabled clears disabled_reason; deliveries it missed meanwhile are not made.",
    tag: "Webhooks",
    scopes: SCOPES,
    params: EndpointParams,
    query: NoQuery,
    body: WebhookPatch,
    responses: { 200: { description: "the changed endpoint", schema: WebhookEndpoint } },
    errors: [404, 413, 415],
    async handler({ db, params, body, services }) {
      const patch = { ...body, ...(body.url !== undefined ? { url: checkedUrl(services, body.url) } : {}) };
      const row = await updateWebhookEndpoint(db, params.webhook_id, patch);
      if (!row) throw notFound("webhook", params.webhook_id);
      return json(200, toEndpoint(row));
    },
  }),
  defineRoute({
    method: "delete",
    path: "/webhooks/{webhook_id}",
    operationId: "deleteWebhook",
    summary: "Revoke a webhook endpoint: nothing more is delivered to it, pending deliveries are cancelled",
    tag: "Webhooks",
    scopes: SCOPES,
    params: EndpointParams,
    query: NoQuery,
    responses: { 204: { description: "revoked" } },
    errors: [404],
    async handler({ db, params }) {
      if (!(await revokeWebhookEndpoint(db, params.webhook_id))) throw notFound("webhook", params.webhook_id);
      return noContent();
    },
  }),
  defineRoute({
    method: "post",
    path: "/webhooks/{webhook_id}/rotate-secret",
    operationId: "rotateWebhookSecret",
    summary: "Make a new signing secret; the previous one keeps signing for 24 hours beside it",
    tag: "Webhooks",
    scopes: SCOPES,
    params: EndpointParams,
    query: NoQuery,
    responses: { 200: { description: "the new secret", schema: SecretRotated } },
    errors: [404],
    async handler({ db, params }) {
      const rotated = await rotateWebhookSecret(db, params.webhook_id);
      if (!rotated) throw notFound("webhook", params.webhook_id);
      return json(
        200,
        {
          id: params.webhook_id,
          secret: rotated.secret,
          previous_secret_expires_at: rotated.previous_expires_at.toISOString(),
        },
        { "Cache-Control": "no-store" },
      );
    },
  }),
  defineRoute({
    method: "get",
    path: "/webhooks/{webhook_id}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "The delivery log: deliveries newest first, each with every attempt (time, status code, duration, error)",
    tag: "Webhooks",
    scopes: SCOPES,
    params: EndpointParams,
    query: PageQuery,
    responses: { 200: { description: "a page of deliveries", schema: pageOf(WebhookDelivery) } },
    errors: [404],
    async handler({ db, params, query }) {
      if (!(await getWebhookEndpoint(db, params.webhook_id))) throw notFound("webhook", params.webhook_id);
      const rows = await listWebhookDeliveries(db, params.webhook_id, query.limit + 1, query.cursor);
      return json(200, toPage(rows, query.limit, toDelivery));
    },
  }),
  defineRoute({
    method: "post",
    path: "/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
    operationId: "redeliverWebhook",
    summary: "Send a delivered or failed delivery again: same delivery id and body, up to six more attempts",
    tag: "Webhooks",
    scopes: SCOPES,
    params: DeliveryParams,
    query: NoQuery,
    responses: { 202: { description: "the delivery, pending again", schema: WebhookDelivery } },
    errors: [404, 409],
    errorCodes: { 409: "delivery_pending (it is still being tried), endpoint_disabled (enable the endpoint first)" },
    async handler({ db, params }) {
      const outcome = await redeliverWebhook(db, params.webhook_id, params.delivery_id);
      if (outcome === "not_found") throw notFound("delivery", params.delivery_id);
      if (outcome === "pending")
        throw new HttpError(409, "delivery_pending", "the delivery is still pending; it is tried on its schedule");
      if (outcome === "endpoint_disabled")
        throw new HttpError(409, "endpoint_disabled", "the endpoint is disabled; enable it (PATCH) first");
      const row = await getWebhookDelivery(db, params.webhook_id, params.delivery_id);
      if (!row) throw notFound("delivery", params.delivery_id);
      return json(202, toDelivery(row));
    },
  }),
];
