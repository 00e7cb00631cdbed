/**
 * The OpenAPI 3.1 document, generated from the route table: the zod schemas that validate a
 * request are the ones documented (z.toJSONSchema, JSON Schema 2020-12, which OpenAPI 3.1
 * uses as is). Schemas given an id with .meta({id}) become components.
 */
import { z } from "zod";
import { SCOPES } from "../../auth/scopes.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import type { RouteSpec } from "../route.ts";
import { ErrorEnvelope } from "../schemas/common.ts";
import { WEBHOOK_EVENTS } from "./webhooks.ts";

export const API_VERSION = "2026-05-09";

type Json = Record<string, unknown>;

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "invalid_parameter (details.fields names every bad field), malformed_json, malformed_body (not as its Content-Encoding says), json_too_deep",
  401: "api_key_missing, api_key_malformed, api_key_invalid (unknown or revoked)",
  403: "insufficient_scope (details.missing_scopes)",
  404: "not_found",
  409: "conflict, idempotency_request_in_flight",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "idempotency_key_reused",
  429: "validation_error: rate limit exceeded (details.retry_after_seconds; Retry-After header)",
  500: "internal_error",
};
const COMMON_ERRORS = [400, 401, 403, 429, 500];
/** a public route has no key, hence no 401, scope 403 or per-key 429 */
const PUBLIC_COMMON_ERRORS = [400, 500];

const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "requests allowed in the window", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "requests left in the window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time (s) when the window is clear again", schema: { type: "integer" } },
  "X-Request-Id": { description: "this request's id", schema: { type: "string" } },
};

/** Converts a schema; its $defs go to `components`, their refs rewritten to point there. */
function toSchema(schema: z.ZodType, io: "input" | "output", components: Json): Json {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
  const { $defs, $schema: _dialect, ...rest } = converted;
  for (const [name, def] of Object.entries(($defs ?? {}) as Json)) components[name] = rewriteRefs(def);
  const id = (z.globalRegistry.get(schema) as { id?: string } | undefined)?.id;
  if (id) {
    // zod puts a root with an id into $defs itself and answers {$ref: "#/$defs/<id>"}:
    // that $ref must not overwrite the definition just stored
    if (!Object.hasOwn(($defs ?? {}) as Json, id)) components[id] = rewriteRefs(rest);
    return { $ref: `#/components/schemas/${id}` };
  }
  return rewriteRefs(rest) as Json;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" ? v.replace(/^#\/\$defs\//, "#/components/schemas/") : rewriteRefs(v),
      ]),
    );
  }
  return value;
}

function parameters(schema: z.ZodType | undefined, location: "path" | "query", components: Json): Json[] {
  if (!schema) return [];
  const converted = toSchema(schema, "input", components) as { properties?: Json; required?: string[] };
  return Object.entries(converted.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === "path" || (converted.required ?? []).includes(name),
    description: (property as { description?: string }).description,
    schema: property,
  }));
}

function errorDescription(route: RouteSpec, status: number): string {
  const own = route.errorCodes?.[status];
  const common = ERROR_DESCRIPTIONS[status];
  // a public route's 403 is its own (a signature), never insufficient_scope
  if (route.public) return own ?? common ?? "error";
  return [common, own].filter(Boolean).join("; ") || "error";
}

function requestBody(route: RouteSpec, components: Json): Json {
  if (route.upload) {
    const schema = {
      type: "object",
      properties: {
        [route.upload.field]: {
          type: "string",
          contentMediaType: "application/octet-stream",
          description: route.upload.description,
        },
      },
      required: [route.upload.field],
      additionalProperties: false,
    };
    return { requestBody: { required: true, content: { "multipart/form-data": { schema } } } };
  }
  if (route.body) {
    const limit =
      route.bodyLimit === "library"
        ? "LIBRARY_BODY_LIMIT_BYTES, 4 MiB unless configured"
        : "JSON_BODY_LIMIT_BYTES, 256 KiB unless configured";
    return {
      requestBody: {
        // a body schema that accepts nothing (no body sent) makes the body optional
        required: !route.body.safeParse(undefined).success,
        description: `application/json; a larger body is refused with 413 payload_too_large (${limit})`,
        content: { "application/json": { schema: toSchema(route.body, "input", components) } },
      },
    };
  }
  return {};
}

function operation(route: RouteSpec, components: Json): Json {
  const responses: Json = {};
  const headers = route.public ? { "X-Request-Id": RATE_HEADERS["X-Request-Id"] } : RATE_HEADERS;
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      headers: {
        ...headers,
        ...Object.fromEntries(
          Object.entries(response.headers ?? {}).map(([name, description]) => [
            name,
            { description, schema: { type: "string" } },
          ]),
        ),
        ...(route.idempotent
          ? { "Idempotency-Replayed": { description: "true on a replayed response", schema: { type: "string" } } }
          : {}),
      },
      ...(response.schema
        ? {
            content: {
              [response.contentType ?? "application/json"]: { schema: toSchema(response.schema, "output", components) },
            },
          }
        : {}),
    };
  }
  for (const status of [...(route.public ? PUBLIC_COMMON_ERRORS : COMMON_ERRORS), ...(route.errors ?? [])]) {
    responses[String(status)] = {
      description: errorDescription(route, status),
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  const params = [...parameters(route.params, "path", components), ...parameters(route.query, "query", components)];
  if (route.idempotent) {
    params.push({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "a repeat within 24 hours replays the first response (Idempotency-Replayed: true)",
      schema: { type: "string", minLength: 1, maxLength: 255 },
    });
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.public ? { security: [] } : { security: [{ ApiKey: [] }], "x-required-scopes": route.scopes }),
    ...(route.deprecated ? { deprecated: true, "x-sunset": route.deprecated.sunset } : {}),
    parameters: params,
    ...requestBody(route, components),
    responses,
  };
}

const DELIVERY_HEADERS = [
  ["X-Service-Event-Type", "the event type, the body's type"],
  ["X-Service-Delivery-Id", "the delivery id, the same on every retry: dedupe on it"],
  [
    "X-Service-Signature",
    "t=<unix seconds>,v1=<hex HMAC-SHA256 with the endpoint's secret over `<t>.<raw body>`> (docs/webhooks.md)",
  ],
] as const;

/** what Swarf POSTs to a registered endpoint, per event type (OpenAPI 3.1 webhooks) */
function webhooks(components: Json): Json {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event.type,
      {
        post: {
          operationId: `webhook_${event.type.replace(".", "_")}`,
          summary: event.summary,
          tags: ["Webhooks"],
          parameters: DELIVERY_HEADERS.map(([name, description]) => ({
            name,
            in: "header",
            required: true,
            description,
            schema: { type: "string" },
          })),
          requestBody: {
            required: true,
            content: { "application/json": { schema: toSchema(event.schema, "output", components) } },
          },
          responses: {
            "2XX": { description: "received; any other answer is retried or failed as docs/webhooks.md says" },
          },
        },
      },
    ]),
  );
}

export function buildOpenApiDocument(routes: readonly RouteSpec[]): Json {
  const components: Json = {};
  toSchema(ErrorEnvelope, "output", components);
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const path = `${API_BASE_PATH}${route.path}`;
    paths[path] = { ...paths[path], [route.method]: operation(route, components) };
  }
  paths[`${API_BASE_PATH}/openapi.json`] = {
    get: {
      operationId: "getOpenApiDocument",
      summary: "This document (no key needed)",
      tags: ["Meta"],
      security: [],
      responses: {
        200: { description: "OpenAPI 3.1", content: { "application/json": { schema: { type: "object" } } } },
      },
    },
  };
  paths["/healthz"] = {
    get: {
      operationId: "getHealth",
      summary: "200 when the database, migrations and workers are ready, else 503 (no key needed)",
      tags: ["Meta"],
      security: [],
      responses: {
        200: { description: "ready", content: { "application/json": { schema: { type: "object" } } } },
        503: { description: "not ready", content: { "application/json": { schema: { type: "object" } } } },
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Swarf public API",
      version: API_VERSION,
      description:
        "Machining automation and quotation. Every request carries X-API-Key; every error is " +
        "{detail: {code, message, details, request_id}}. Rate limits: 120 requests per minute per key " +
        "(sliding window), 30 CAM planning runs per hour.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(routes.map((r) => r.tag)), "Meta"].map((name) => ({ name })),
    paths,
    webhooks: webhooks(components),
    components: {
      securitySchemes: {
        ApiKey: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: `<key_prefix>_live_<40 base32 characters>. Scopes: ${SCOPES.join(", ")}`,
        },
      },
      schemas: components,
    },
  };
}
