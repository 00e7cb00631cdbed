import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/support/database.ts";
import { createTestUser, type TestUser } from "../../../test/support/users.ts";
import { createApp } from "../../app.ts";
import { API_BASE_PATH } from "../../../http/base-path.ts";
import { json } from "../../reply.ts";
import { defineRoute, type RouteSpec } from "../../route.ts";
import { buildApiRouter } from "../../router.ts";
import { routes as defaultRoutes } from "../../routes/index.ts";
import { NoQuery } from "../../schemas/common.ts";
import type { ApiServices } from "../../services.ts";
import type { Deprecation } from "./index.ts";

const SUCCESSOR = "/backend-api/api/public/v2/things";
/** RFC 7231 section 7.1.1.1 IMF-fixdate */
const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function thingRoute(path: string, operationId: string, deprecated?: Deprecation): RouteSpec {
  return defineRoute({
    method: "get",
    path,
    operationId,
    summary: `GET ${path}`,
    tag: "Test",
    scopes: ["projects:read"],
    query: NoQuery,
    responses: { 200: { description: "ok" } },
    ...(deprecated ? { deprecated } : {}),
    async handler() {
      return json(200, { ok: true });
    },
  });
}

const testRoutes: readonly RouteSpec[] = [
  ...defaultRoutes,
  thingRoute("/things", "listThings", { announced: "2026-05-09", sunset: "2027-06-01", successor: SUCCESSOR }),
  thingRoute("/widgets", "listWidgets", { announced: "2026-05-09", sunset: "2027-06-01" }),
  thingRoute("/current", "listCurrent"),
];

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { routes: testRoutes });
  alice = await createTestUser(db.owner, "alice");
});
after(async () => {
  await api.close();
  await db.drop();
});

function services(): ApiServices {
  return { pool: api.pool, env: api.env };
}

function buildBoth(routes: readonly RouteSpec[]): { router: () => unknown; app: () => unknown } {
  return {
    router: () => buildApiRouter(routes, services()),
    app: () => createApp({ services: services(), health: () => ({}), routes }),
  };
}

describe("deprecation", () => {
  it("answers a deprecated route with Deprecation: true, an IMF-fixdate Sunset and the successor's Link", async () => {
    const res = await api.request<{ ok: boolean }>("GET", "/things", { key: alice.key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ok: true });
    assert.equal(res.headers.get("deprecation"), "true");
    const sunset = res.headers.get("sunset");
    assert.equal(sunset, new Date("2027-06-01").toUTCString());
    assert.equal(sunset, "Tue, 01 Jun 2027 00:00:00 GMT");
    assert.match(sunset, IMF_FIXDATE);
    assert.equal(res.headers.get("link"), `<${SUCCESSOR}>; rel="successor-version"`);
  });

  it("sends no Link header when the deprecated route has no successor", async () => {
    const res = await api.request("GET", "/widgets", { key: alice.key });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("deprecation"), "true");
    assert.equal(res.headers.get("sunset"), new Date("2027-06-01").toUTCString());
    assert.equal(res.headers.get("link"), null);
  });

  it("sends the deprecation headers on a deprecated route's error responses too", async () => {
    const res = await api.request<{ detail: { code: string } }>("GET", "/things", { key: null });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("deprecation"), "true");
    assert.equal(res.headers.get("sunset"), new Date("2027-06-01").toUTCString());
    assert.equal(res.headers.get("link"), `<${SUCCESSOR}>; rel="successor-version"`);
  });

  it("sends none of these headers on routes that are not deprecated", async () => {
    for (const path of ["/current", "/projects"]) {
      const res = await api.request("GET", path, { key: alice.key });
      assert.equal(res.status, 200, path);
      for (const header of ["deprecation", "sunset", "link"]) {
        assert.equal(res.headers.get(header), null, `${header} on ${path}`);
      }
    }
  });

  it("refuses to build a route table whose sunset is less than 6 months after the announcement", () => {
    const short = [thingRoute("/short", "short", { announced: "2026-05-09", sunset: "2026-11-08" })];
    const { router, app } = buildBoth(short);
    assert.throws(router, /less than 6 months/);
    assert.throws(app, /less than 6 months/);
  });

  it("accepts a sunset exactly 6 months after the announcement", () => {
    const exact = [thingRoute("/exact", "exact", { announced: "2026-05-09", sunset: "2026-11-09" })];
    const { router, app } = buildBoth(exact);
    assert.doesNotThrow(router);
    assert.doesNotThrow(app);
  });

  it("refuses deprecation dates that are not dates", () => {
    for (const deprecated of [
      { announced: "soon", sunset: "2027-06-01" },
      { announced: "2026-05-09", sunset: "2027-13-45" },
    ]) {
      const { router, app } = buildBoth([thingRoute("/bad", "bad", deprecated)]);
      assert.throws(router, /must be ISO dates/);
      assert.throws(app, /must be ISO dates/);
    }
  });

  it("marks the deprecated operations deprecated in the OpenAPI document, and only those", async () => {
    const res = await api.request<{
      paths: Record<string, Record<string, { deprecated?: boolean; "x-sunset"?: string }>>;
    }>("GET", `${API_BASE_PATH}/openapi.json`);
    assert.equal(res.status, 200);
    const op = (path: string) => res.body.paths[`${API_BASE_PATH}${path}`]?.get;
    assert.equal(op("/things")?.deprecated, true);
    assert.equal(op("/things")?.["x-sunset"], "2027-06-01");
    assert.equal(op("/widgets")?.deprecated, true);
    assert.ok(op("/current"), "the undeprecated route is documented");
    assert.equal(op("/current")?.deprecated, undefined);
    assert.equal(op("/projects")?.deprecated, undefined);
  });
});
