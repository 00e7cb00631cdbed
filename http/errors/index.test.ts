import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { isConnectionError } from "../../db/connection-errors.ts";
import { insertProject } from "../../db/queries/projects.ts";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { findFreePort } from "../../test/support/ports.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";
import { json } from "../../api/reply.ts";
import { defineRoute, type RouteSpec } from "../../api/route.ts";
import { routes as defaultRoutes } from "../../api/routes/index.ts";
import { NoQuery } from "../../api/schemas/common.ts";
import { HttpError } from "./index.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

const SECRET = "secret-boom-7f3a password=hunter2";

function testRoute(path: string, handler: RouteSpec["handler"]): RouteSpec {
  return defineRoute({
    method: "get",
    path,
    operationId: `test${path.replaceAll("/", "_")}`,
    summary: "a route for the error middleware tests",
    tag: "Test",
    scopes: ["projects:read"],
    query: NoQuery,
    responses: { 200: { description: "never" } },
    handler,
  });
}

const testRoutes: RouteSpec[] = [
  testRoute("/test/boom", async () => {
    throw new Error(SECRET);
  }),
  testRoute("/test/bad-uuid", async ({ db }) => {
    await db.query("select id from app_public.projects where id = $1", ["not-a-uuid"]);
    return json(200, { reached: true });
  }),
  testRoute("/test/check-violation", async ({ db }) => {
    const project = await insertProject(db, { name: "Check", customer: "C" });
    await db.query("update app_public.quote_jobs set discount = 150 where project_id = $1", [project.id]);
    return json(200, { reached: true });
  }),
  testRoute("/test/undefined-table", async ({ db }) => {
    await db.query("select * from app_public.no_such_table_4c1e");
    return json(200, { reached: true });
  }),
  testRoute("/test/session-terminated", async ({ db }) => {
    // what a DBA's pg_terminate_backend, or a fast shutdown of the server, does to a request
    await db.query("select pg_terminate_backend(pg_backend_pid())");
    return json(200, { reached: true });
  }),
  testRoute("/test/connection-lost", async () => {
    throw new Error("Connection terminated unexpectedly");
  }),
  testRoute("/test/teapot", async () => {
    throw new HttpError(
      418,
      "teapot",
      "short and stout",
      { spout: true },
      { "X-Brew": "earl-grey", "Retry-After": "7" },
    );
  }),
];

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

function assertEnvelope(res: { headers: Headers; body: unknown }, code: string): ErrorBody["detail"] {
  const body = res.body as ErrorBody;
  assert.equal(typeof body, "object", "the body is JSON");
  assert.deepEqual(Object.keys(body), ["detail"]);
  assert.deepEqual(Object.keys(body.detail).sort(), ["code", "details", "message", "request_id"]);
  assert.equal(body.detail.code, code);
  assert.equal(typeof body.detail.message, "string");
  assert.ok(body.detail.message.length > 0);
  assert.equal(typeof body.detail.details, "object");
  assert.equal(body.detail.request_id, res.headers.get("x-request-id"));
  return body.detail;
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { routes: [...defaultRoutes, ...testRoutes] });
  alice = await createTestUser(db.owner, "alice");
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("error middleware", () => {
  it("answers 404 route_not_found in the error envelope for an unknown route", async () => {
    for (const path of [
      "/healthz/no-such-thing",
      "/backend-api/api/public/v1/no-such-thing",
      "/backend-api/api/public/v1/projects/x/y/z",
    ]) {
      const res = await api.request<ErrorBody>("GET", path, { key: alice.key });
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      const detail = assertEnvelope(res, "route_not_found");
      assert.equal(detail.details.method, "GET");
      assert.equal(detail.details.path, path);
    }
  });

  it("answers 405 method_not_allowed with an Allow header for a known path and the wrong method", async () => {
    const list = await api.request<ErrorBody>("PUT", "/projects", { key: alice.key, body: {} });
    assert.equal(list.status, 405);
    const detail = assertEnvelope(list, "method_not_allowed");
    assert.deepEqual((list.headers.get("allow") ?? "").split(", ").sort(), ["GET", "POST"]);
    assert.deepEqual([...(detail.details.allowed as string[])].sort(), ["GET", "POST"]);

    const one = await api.request<ErrorBody>("POST", `/projects/${randomUUID()}`, { key: alice.key });
    assert.equal(one.status, 405);
    assertEnvelope(one, "method_not_allowed");
    assert.deepEqual((one.headers.get("allow") ?? "").split(", ").sort(), ["DELETE", "GET", "PATCH"]);
  });

  it("answers 500 internal_error for a plain Error without its message or a stack in the body", async () => {
    const res = await api.request<ErrorBody>("GET", "/test/boom", { key: alice.key });
    assert.equal(res.status, 500);
    const detail = assertEnvelope(res, "internal_error");
    assert.deepEqual(detail.details, {});
    assert.ok(!res.text.includes("secret-boom"), "the error's message leaked");
    assert.ok(!res.text.includes("hunter2"), "the error's message leaked");
    assert.ok(!/\bat\s.*\.ts:\d+/.test(res.text), "a stack trace leaked");
    assert.ok(!res.text.includes("index.test.ts"), "a stack trace leaked");
    assert.ok(!/stack/i.test(res.text), "a stack leaked");
  });

  it("answers 400 invalid_parameter, not 500, when a handler's query casts a bad uuid", async () => {
    const res = await api.request<ErrorBody>("GET", "/test/bad-uuid", { key: alice.key });
    assert.equal(res.status, 400);
    const detail = assertEnvelope(res, "invalid_parameter");
    const fields = detail.details.fields as { code: string }[];
    assert.equal(fields.length, 1);
    assert.equal(fields[0]?.code, "rejected");
  });

  it("answers 400 invalid_parameter, not 500, on a check constraint violation, and rolls the request back", async () => {
    const before = await db.owner.query("select count(*)::int as n from app_public.projects where user_id = $1", [
      alice.id,
    ]);
    const res = await api.request<ErrorBody>("GET", "/test/check-violation", { key: alice.key });
    assert.equal(res.status, 400);
    const detail = assertEnvelope(res, "invalid_parameter");
    const fields = detail.details.fields as { code: string; message: string }[];
    assert.equal(fields[0]?.code, "rejected");
    assert.match(fields[0]?.message ?? "", /check constraint/);
    const after = await db.owner.query("select count(*)::int as n from app_public.projects where user_id = $1", [
      alice.id,
    ]);
    assert.equal(after.rows[0].n, before.rows[0].n, "the project inserted before the violation was rolled back");
  });

  it("answers 500 internal_error for a Postgres error a request cannot cause, without the database's message", async () => {
    const res = await api.request<ErrorBody>("GET", "/test/undefined-table", { key: alice.key });
    assert.equal(res.status, 500);
    assertEnvelope(res, "internal_error");
    assert.ok(!res.text.includes("no_such_table"), "the database's message leaked");
  });

  it("answers 503 database_unavailable with Retry-After, not 500, when a request's database session is terminated", async () => {
    for (const path of ["/test/session-terminated", "/test/connection-lost"]) {
      const res = await api.request<ErrorBody>("GET", path, { key: alice.key });
      assert.equal(res.status, 503, `${path}: ${res.text}`);
      const detail = assertEnvelope(res, "database_unavailable");
      assert.equal(res.headers.get("retry-after"), "5");
      assert.deepEqual(detail.details, { retry_after_seconds: 5 });
      assert.ok(!/terminat/i.test(res.text), "the driver's message leaked");
    }
    // the pool dropped the dead connection: the next requests are served
    for (let i = 0; i < 3; i++) assert.equal((await api.request("GET", "/projects", { key: alice.key })).status, 200);
  });

  it("answers 503 database_unavailable with Retry-After, and /healthz 503, when the database server cannot be reached", async () => {
    const port = await findFreePort(); // nothing listens there
    const unreachable: TestDatabase = { ...db, appUrl: `postgres://app_user:x@127.0.0.1:${port}/nowhere` };
    const down = await startTestApi(unreachable);
    try {
      const started = Date.now();
      const res = await down.request<ErrorBody>("GET", "/projects", { key: alice.key });
      assert.equal(res.status, 503, res.text);
      const detail = assertEnvelope(res, "database_unavailable");
      assert.equal(res.headers.get("retry-after"), "5");
      assert.equal(detail.details.retry_after_seconds, 5);
      assert.ok(!res.text.includes("ECONNREFUSED"), "the socket error leaked");
      assert.ok(Date.now() - started < 5000, "answered at once, not after a timeout");
      const health = await down.request<{ checks: Record<string, string> }>("GET", "/healthz");
      assert.equal(health.status, 503);
      assert.equal(health.body.checks.database, "failing");
    } finally {
      await down.close();
    }
  });

  it("tells a lost or refused database connection from an error of the statement", () => {
    const connectionErrors: unknown[] = [
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED", syscall: "connect" }),
      Object.assign(new Error("connect ENOENT /tmp/.s.PGSQL.5432"), { code: "ENOENT", syscall: "connect" }),
      Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read" }),
      Object.assign(new Error("terminating connection due to administrator command"), {
        code: "57P01",
        severity: "FATAL",
      }),
      Object.assign(new Error("the database system is starting up"), { code: "57P03", severity: "FATAL" }),
      Object.assign(new Error("the database system is shutting down"), { code: "57P03", severity: "FATAL" }),
      Object.assign(new Error("connection failure"), { code: "08006", severity: "FATAL" }),
      new Error("Connection terminated unexpectedly"),
      new Error("Connection terminated due to connection timeout"),
      new Error("Client has encountered a connection error and is not queryable"),
      new Error("timeout exceeded when trying to connect"),
    ];
    for (const error of connectionErrors) assert.equal(isConnectionError(error), true, String(error));
    const statementErrors: unknown[] = [
      Object.assign(new Error("relation does not exist"), { code: "42P01", severity: "ERROR" }),
      Object.assign(new Error("duplicate key"), { code: "23505", severity: "ERROR" }),
      Object.assign(new Error("canceling statement due to user request"), { code: "57014", severity: "ERROR" }),
      Object.assign(new Error("ENOENT: no such file or directory, open 'x'"), { code: "ENOENT", syscall: "open" }),
      new Error("boom"),
      "Connection terminated unexpectedly",
      null,
    ];
    for (const error of statementErrors) assert.equal(isConnectionError(error), false, String(error));
  });

  it("sends an HttpError's status, code, details and headers", async () => {
    const res = await api.request<ErrorBody>("GET", "/test/teapot", { key: alice.key });
    assert.equal(res.status, 418);
    const detail = assertEnvelope(res, "teapot");
    assert.equal(detail.message, "short and stout");
    assert.deepEqual(detail.details, { spout: true });
    assert.equal(res.headers.get("x-brew"), "earl-grey");
    assert.equal(res.headers.get("retry-after"), "7");
  });
});
