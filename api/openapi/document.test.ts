import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";
import { routes } from "../routes/index.ts";
import { EVENT_TYPES } from "../../webhooks/event-types.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { API_VERSION } from "./document.ts";

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
}

interface Operation {
  operationId: string;
  security?: Json[];
  "x-required-scopes"?: string[];
  deprecated?: boolean;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses: Record<
    string,
    { description?: string; headers?: Record<string, { schema?: Json }>; content?: Record<string, { schema?: Json }> }
  >;
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
}

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let doc: Document;
let raw: string;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  const res = await api.request<Document>("GET", `${API_BASE_PATH}/openapi.json`);
  assert.equal(res.status, 200);
  doc = res.body;
  raw = res.text;
});
after(async () => {
  await api.close();
  await db.drop();
});

function operationOf(method: string, path: string): Operation {
  const op = doc.paths[`${API_BASE_PATH}${path}`]?.[method];
  assert.ok(op, `${method.toUpperCase()} ${path} is documented`);
  return op;
}

function* operations(): Generator<[string, string, Operation]> {
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (METHODS.has(method)) yield [path, method, op];
    }
  }
}

/** Every value reachable from `value`, with the JSON pointer to it. */
function* walk(value: unknown, pointer = "#"): Generator<[string, unknown]> {
  yield [pointer, value];
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* walk(item, `${pointer}/${i}`);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value))
      yield* walk(v, `${pointer}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  }
}

const COMPONENT_REF = /^#\/components\/schemas\/([^/]+)$/;

/** Follows $refs to a component until a definition; fails on a dangling or circular chain. */
function resolve(schema: Json): Json {
  const seen = new Set<string>();
  let current = schema;
  while (typeof current.$ref === "string") {
    const name = COMPONENT_REF.exec(current.$ref)?.[1];
    assert.ok(name, `${current.$ref} points into components.schemas`);
    assert.ok(!seen.has(name), `the $ref chain through ${name} is circular`);
    seen.add(name);
    const next = doc.components.schemas[name];
    assert.ok(next, `${current.$ref} resolves`);
    current = next;
  }
  return current;
}

/** Every schema object the document embeds, with where it is. */
function* embeddedSchemas(): Generator<[string, Json]> {
  for (const [name, schema] of Object.entries(doc.components.schemas)) yield [`components.schemas.${name}`, schema];
  for (const [path, method, op] of operations()) {
    const at = `${method.toUpperCase()} ${path}`;
    for (const p of op.parameters ?? []) if (p.schema) yield [`${at} parameter ${p.name}`, p.schema];
    for (const [type, media] of Object.entries(op.requestBody?.content ?? {}))
      if (media.schema) yield [`${at} body ${type}`, media.schema];
    for (const [status, response] of Object.entries(op.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {}))
        if (media.schema) yield [`${at} ${status} ${type}`, media.schema];
      for (const [name, header] of Object.entries(response.headers ?? {}))
        if (header.schema) yield [`${at} ${status} header ${name}`, header.schema];
    }
  }
}

const TYPES = new Set(["null", "boolean", "object", "array", "number", "string", "integer"]);
const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const SCHEMA_KEYWORDS = [
  "additionalProperties",
  "items",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
];
const SCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
const COUNT_KEYWORDS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties",
  "minContains",
  "maxContains",
];
/** OpenAPI 3.0 and draft-04 forms that JSON Schema 2020-12 does not have (or spells otherwise) */
const NOT_2020_12 = ["nullable", "definitions", "$schema", "id", "dependencies", "$recursiveRef"];

/** Checks a schema against the structure JSON Schema 2020-12 gives its keywords. */
function check2020_12(schema: unknown, at: string, problems: string[]): void {
  if (typeof schema === "boolean") return;
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    problems.push(`${at}: a schema is an object or a boolean`);
    return;
  }
  const s = schema as Json;
  for (const keyword of NOT_2020_12)
    if (keyword in s) problems.push(`${at}: ${keyword} is not 2020-12 (or not wanted in OpenAPI 3.1)`);
  if ("type" in s) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (types.length === 0 || !types.every((t) => typeof t === "string" && TYPES.has(t)))
      problems.push(`${at}: type ${JSON.stringify(s.type)}`);
  }
  if ("required" in s) {
    const required = s.required;
    if (
      !Array.isArray(required) ||
      !required.every((r) => typeof r === "string") ||
      new Set(required).size !== required.length
    ) {
      problems.push(`${at}: required must be an array of unique strings`);
    } else if (s.properties && typeof s.properties === "object") {
      for (const name of required)
        if (!(name in s.properties) && s.additionalProperties === false)
          problems.push(`${at}: required ${name} can never be present`);
    }
  }
  if ("enum" in s && (!Array.isArray(s.enum) || s.enum.length === 0))
    problems.push(`${at}: enum must be a non-empty array`);
  for (const keyword of NUMBER_KEYWORDS)
    if (keyword in s && typeof s[keyword] !== "number") problems.push(`${at}: ${keyword} must be a number`);
  for (const keyword of COUNT_KEYWORDS) {
    if (keyword in s && !(Number.isInteger(s[keyword]) && (s[keyword] as number) >= 0))
      problems.push(`${at}: ${keyword} must be a non-negative integer`);
  }
  if ("pattern" in s) {
    try {
      new RegExp(s.pattern as string, "u");
    } catch {
      problems.push(`${at}: pattern is not an ECMA-262 regular expression`);
    }
  }
  for (const keyword of ["format", "description", "title", "$ref", "$comment"]) {
    if (keyword in s && typeof s[keyword] !== "string") problems.push(`${at}: ${keyword} must be a string`);
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    if (!(keyword in s)) continue;
    const map = s[keyword];
    if (map === null || typeof map !== "object" || Array.isArray(map))
      problems.push(`${at}: ${keyword} must be an object`);
    else for (const [name, sub] of Object.entries(map)) check2020_12(sub, `${at}.${keyword}.${name}`, problems);
  }
  for (const keyword of SCHEMA_KEYWORDS) if (keyword in s) check2020_12(s[keyword], `${at}.${keyword}`, problems);
  for (const keyword of SCHEMA_ARRAY_KEYWORDS) {
    if (!(keyword in s)) continue;
    const list = s[keyword];
    if (!Array.isArray(list) || list.length === 0) problems.push(`${at}: ${keyword} must be a non-empty array`);
    else for (const [i, sub] of list.entries()) check2020_12(sub, `${at}.${keyword}[${i}]`, problems);
  }
}

describe("the OpenAPI document", () => {
  it("is served without a key as JSON, the same document a keyed request gets", async () => {
    const res = await api.request("GET", `${API_BASE_PATH}/openapi.json`, { key: null });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.doesNotThrow(() => JSON.parse(res.text));
    const keyed = await api.request("GET", `${API_BASE_PATH}/openapi.json`, { key: alice.key });
    assert.equal(keyed.text, res.text);
  });

  it("is OpenAPI 3.1.0 of API version 2026-05-09", () => {
    assert.equal(doc.openapi, "3.1.0");
    assert.equal(doc.info.version, "2026-05-09");
    assert.equal(API_VERSION, "2026-05-09");
  });

  it("passes the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(raw) as Json);
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
    assert.equal(validator.version, "3.1");
  });

  it("documents every route under its path and method, with its operationId, key and required scopes", () => {
    assert.ok(
      routes.some((r) => r.public),
      "the presigned file route is public",
    );
    for (const route of routes) {
      const op = operationOf(route.method, route.path);
      assert.equal(op.operationId, route.operationId);
      if (route.public) {
        assert.deepEqual(op.security, [], `${route.operationId} needs no key`);
        assert.equal(op["x-required-scopes"], undefined, route.operationId);
        continue;
      }
      assert.deepEqual(op["x-required-scopes"], [...route.scopes], route.operationId);
      assert.deepEqual(op.security, [{ ApiKey: [] }], route.operationId);
      assert.equal(op.deprecated, route.deprecated ? true : undefined, route.operationId);
    }
    assert.deepEqual(doc.components.securitySchemes.ApiKey, {
      ...doc.components.securitySchemes.ApiKey,
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    });
  });

  it("documents no API operation that the route table lacks, and no operationId twice", () => {
    const routeKeys = new Set(routes.map((r) => `${r.method} ${API_BASE_PATH}${r.path}`));
    const meta = new Set([`get ${API_BASE_PATH}/openapi.json`, "get /healthz"]);
    const ids: string[] = [];
    for (const [path, method, op] of operations()) {
      ids.push(op.operationId);
      assert.ok(routeKeys.has(`${method} ${path}`) || meta.has(`${method} ${path}`), `${method} ${path} has a route`);
    }
    assert.equal(new Set(ids).size, ids.length, "operationIds are unique");
    assert.equal(ids.length, routes.length + meta.size);
  });

  it("resolves every $ref to an entry of components.schemas, and no component is a mere reference to itself", () => {
    let refs = 0;
    for (const [pointer, value] of walk(doc)) {
      if (!pointer.endsWith("/$ref")) continue;
      refs += 1;
      assert.equal(typeof value, "string", pointer);
      const name = COMPONENT_REF.exec(value as string)?.[1];
      assert.ok(name, `${pointer}: ${String(value)} points into components.schemas`);
      assert.ok(Object.hasOwn(doc.components.schemas, name), `${pointer}: ${String(value)} resolves`);
    }
    assert.ok(refs > 0);
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const definition = resolve(schema);
      assert.ok(!("$ref" in definition), `components.schemas.${name} is a definition`);
      assert.ok(
        "type" in definition || "anyOf" in definition || "oneOf" in definition || "allOf" in definition,
        `components.schemas.${name} defines something`,
      );
    }
  });

  it("documents the request body of every route that takes one as JSON that rejects unknown properties, required unless no body plans with defaults", () => {
    let bodies = 0;
    for (const route of routes) {
      const op = operationOf(route.method, route.path);
      if (route.upload) {
        const schema = op.requestBody?.content?.["multipart/form-data"]?.schema;
        assert.equal(op.requestBody?.required, true, route.operationId);
        assert.deepEqual(Object.keys(op.requestBody?.content ?? {}), ["multipart/form-data"], route.operationId);
        assert.deepEqual(schema?.required, [route.upload.field], `${route.operationId} documents its one file part`);
        assert.equal(schema?.additionalProperties, false, route.operationId);
        assert.ok(op.responses["413"], `${route.operationId} documents 413`);
        continue;
      }
      if (!route.body) {
        assert.equal(op.requestBody, undefined, `${route.operationId} takes no body`);
        continue;
      }
      bodies += 1;
      assert.ok(
        ["post", "patch", "put"].includes(route.method),
        `${route.operationId} takes a body on ${route.method}`,
      );
      assert.equal(op.requestBody?.required, route.operationId !== "startCamPlanning", route.operationId);
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      assert.ok(schema, `${route.operationId} has a JSON body schema`);
      const body = resolve(schema);
      assert.equal(body.type, "object", route.operationId);
      assert.equal(body.additionalProperties, false, `${route.operationId} rejects unknown properties`);
      assert.ok(
        body.properties && Object.keys(body.properties).length > 0,
        `${route.operationId} lists its properties`,
      );
    }
    assert.ok(bodies >= 2);
    assert.ok(operationOf("post", "/projects").requestBody, "POST /projects documents its body");
    assert.ok(
      operationOf("patch", "/projects/{project_id}").requestBody,
      "PATCH /projects/{project_id} documents its body",
    );
    const create = resolve(operationOf("post", "/projects").requestBody!.content!["application/json"]!.schema!);
    assert.deepEqual(create.required, ["name"], "customer may be omitted");
    assert.equal((create.properties as Record<string, Json>).customer?.default, "");
    const planning = resolve(
      operationOf("post", "/projects/{project_id}/automation/cam-planning").requestBody!.content!["application/json"]!
        .schema!,
    );
    assert.equal(planning.required, undefined, "every option has a default");
    const options = planning.properties as Record<string, Json>;
    assert.deepEqual([options.include_face_milling?.default, options.sort_by_height?.default], [true, false]);
  });

  it("describes the error envelope as the Error component, used by every error response", () => {
    const error = resolve(doc.components.schemas.Error ?? {});
    assert.equal(error.type, "object");
    assert.deepEqual(error.required, ["detail"]);
    const detail = (error.properties as Record<string, Json>).detail!;
    assert.equal(detail.type, "object");
    const fields = detail.properties as Record<string, Json>;
    assert.deepEqual(Object.keys(fields).sort(), ["code", "details", "message", "request_id"]);
    assert.equal(fields.code?.type, "string");
    assert.equal(fields.message?.type, "string");
    assert.equal(fields.details?.type, "object");
    assert.equal(fields.request_id?.type, "string");
    assert.deepEqual([...(detail.required as string[])].sort(), ["code", "details", "message", "request_id"]);

    const publicIds = new Set(routes.filter((r) => r.public).map((r) => r.operationId));
    for (const [path, method, op] of operations()) {
      if (!path.startsWith(API_BASE_PATH) || path.endsWith("/openapi.json")) continue;
      const common = publicIds.has(op.operationId) ? ["400", "500"] : ["400", "401", "403", "429", "500"];
      for (const status of common) assert.ok(op.responses[status], `${method} ${path} documents ${status}`);
      if (publicIds.has(op.operationId)) {
        for (const status of ["401", "429"])
          assert.equal(op.responses[status], undefined, `${method} ${path} has no key, hence no ${status}`);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        assert.deepEqual(
          response.content?.["application/json"]?.schema,
          { $ref: "#/components/schemas/Error" },
          `${method} ${path} ${status}`,
        );
      }
    }
  });

  it("matches what the API sends: an error body has exactly the documented fields", async () => {
    const res = await api.request<{ detail: Json }>("GET", "/projects", { key: null });
    assert.equal(res.status, 401);
    const detail = resolve(doc.components.schemas.Error ?? {}).properties as Record<string, Json>;
    assert.deepEqual(Object.keys(res.body).sort(), ["detail"]);
    assert.deepEqual(Object.keys(res.body.detail).sort(), Object.keys(detail.detail!.properties as Json).sort());
    assert.equal(res.body.detail.request_id, res.headers.get("x-request-id"));
  });

  it("matches what the API sends: a created project has exactly the documented Project fields", async () => {
    const created = await api.request<Json>("POST", "/projects", {
      key: alice.key,
      body: { name: "Doc", customer: "C" },
    });
    assert.equal(created.status, 201);
    const schema = resolve(
      operationOf("post", "/projects").responses["201"]?.content?.["application/json"]?.schema ?? {},
    );
    assert.deepEqual(Object.keys(created.body).sort(), Object.keys(schema.properties as Json).sort());
    assert.deepEqual([...(schema.required as string[])].sort(), Object.keys(created.body).sort());
  });

  it("requires every path parameter and documents exactly the parameters in the path template", () => {
    for (const [path, method, op] of operations()) {
      const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const pathParams = (op.parameters ?? []).filter((p) => p.in === "path");
      assert.deepEqual(pathParams.map((p) => p.name).sort(), inTemplate, `${method} ${path}`);
      for (const p of pathParams) {
        assert.equal(p.required, true, `${method} ${path} parameter ${p.name}`);
        assert.ok(p.schema, `${method} ${path} parameter ${p.name} has a schema`);
      }
    }
    const projectId = operationOf("get", "/projects/{project_id}").parameters?.find((p) => p.name === "project_id");
    assert.equal(projectId?.schema?.format, "uuid");
  });

  it("documents the Idempotency-Key header on exactly the idempotent routes", () => {
    assert.ok(
      routes.some((r) => r.idempotent),
      "POST /projects is idempotent",
    );
    for (const route of routes) {
      const op = operationOf(route.method, route.path);
      const header = (op.parameters ?? []).find((p) => p.in === "header" && p.name === "Idempotency-Key");
      if (route.idempotent) {
        assert.equal(header?.required, false, route.operationId);
        assert.deepEqual(header?.schema, { type: "string", minLength: 1, maxLength: 255 });
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 300)
            assert.ok(response.headers?.["Idempotency-Replayed"], `${route.operationId} ${status}`);
        }
      } else {
        assert.equal(header, undefined, route.operationId);
      }
    }
    assert.equal(routes.find((r) => r.method === "post" && r.path === "/projects")?.idempotent, true);
  });

  it("documents the body of every webhook event, quote.ready with whether the quote may go out unread", () => {
    assert.deepEqual(Object.keys(doc.webhooks), [...EVENT_TYPES]);
    for (const [type, item] of Object.entries(doc.webhooks)) {
      const headers = (item.post.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
      assert.deepEqual(headers, ["X-Service-Event-Type", "X-Service-Delivery-Id", "X-Service-Signature"], type);
      const body = resolve(item.post.requestBody!.content!["application/json"]!.schema!) as {
        properties: Record<string, Json>;
      };
      assert.deepEqual(Object.keys(body.properties), ["id", "type", "created_at", "data"], type);
    }
    const quoteReady = resolve(
      doc.webhooks["quote.ready"]!.post.requestBody!.content!["application/json"]!.schema!,
    ) as { properties: { data: Json } };
    const data = resolve(quoteReady.properties.data) as { properties: Record<string, Json>; required: string[] };
    assert.ok(data.required.includes("quote"));
    const quote = resolve(data.properties.quote!) as { properties: Record<string, Json> };
    assert.deepEqual(Object.keys(quote.properties), ["job_id", "sendable", "completeness", "setup_costs_dropped"]);
  });

  it("embeds schemas that are well-formed JSON Schema 2020-12", () => {
    const problems: string[] = [];
    let count = 0;
    for (const [at, schema] of embeddedSchemas()) {
      count += 1;
      check2020_12(schema, at, problems);
    }
    assert.ok(count > 10, "the walk found the schemas");
    assert.deepEqual(problems, []);
    assert.ok(!raw.includes("#/$defs/"), "no $ref is left pointing at a $defs of its own");
  });

  it("finds the structural problems it looks for (the check itself can fail)", () => {
    const problems: string[] = [];
    check2020_12(
      { type: "object", nullable: true, properties: { a: { type: "text" } }, required: ["a", "a"] },
      "sample",
      problems,
    );
    check2020_12({ anyOf: [], pattern: "(", minLength: -1 }, "sample2", problems);
    assert.equal(problems.length, 6, problems.join("\n"));
  });
});
