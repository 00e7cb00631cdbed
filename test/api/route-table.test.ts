/**
 * Rules every route of the table obeys, checked route by route so that a new route is covered
 * the day it is added: a key without the route's scopes gets 403, an id that is not an id gets
 * 400, another user's id gets 404 (a public route: it answers without a key), and the health
 * check tells ready from not ready.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { routes } from "../../api/routes/index.ts";
import { SCOPES } from "../../auth/scopes.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createRouteFixtures, pathFor as pathWith, requestOptions, SHARED_KEYS } from "../support/route-fixtures.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; details: Record<string, unknown> };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
/** alice's resources, by path parameter */
const aliceIds: Record<string, string> = {};

/** a machine assigned to alice only (bob's keys must not reach it) */
const ALICE_MACHINE = "alice-only-mill";
/**
 * A value of the parameter's format that no user has, for the 400 rule: an id that is not a
 * UUID by default; product_id and cost_index are text and an index, so theirs break their own format.
 */
const NOT_AN_ID: Record<string, string> = { product_id: "not!a-machine", cost_index: "first" };

/** a query string the route's schema accepts (filled in before()) */
const validQueries: Record<string, string> = {};

function pathFor(route: (typeof routes)[number], ids: Record<string, string>): string {
  return pathWith(route, ids, validQueries);
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  const fixtures = await createRouteFixtures(db, api, alice, ALICE_MACHINE);
  Object.assign(aliceIds, fixtures.ids);
  Object.assign(validQueries, fixtures.queries);
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("every route of the table", () => {
  for (const route of routes) {
    const label = `${route.method.toUpperCase()} ${route.path}`;

    it(`${label} refuses a key without ${route.scopes.join(" and ")} with 403 and changes nothing`, async () => {
      for (const missing of route.scopes) {
        const key = await alice.keyWith(SCOPES.filter((scope) => scope !== missing));
        const before = await db.owner.query("select count(*)::int as n, max(updated_at) as t from app_public.projects");
        const res = await api.request<ErrorBody>(route.method.toUpperCase(), pathFor(route, aliceIds), {
          key,
          ...requestOptions(route),
        });
        assert.equal(res.status, 403, `${label} without ${missing}`);
        assert.equal(res.body.detail.code, "insufficient_scope");
        assert.deepEqual(res.body.detail.details.missing_scopes, [missing]);
        const afterwards = await db.owner.query(
          "select count(*)::int as n, max(updated_at) as t from app_public.projects",
        );
        assert.deepEqual(afterwards.rows, before.rows, "nothing changed");
      }
    });

    if (route.public) {
      it(`${label} is public: it declares no scope and answers without a key`, async () => {
        assert.deepEqual(route.scopes, []);
        const res = await api.request(route.method.toUpperCase(), pathFor(route, aliceIds), {
          key: null,
          ...requestOptions(route),
        });
        assert.equal(res.status, 200, label);
      });
    }

    const allParams = [...route.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
    const params = allParams.filter((param) => !SHARED_KEYS.has(param));
    if (params.length === 0) continue;

    it(`${label} answers 400 naming the parameter for an id that is not an id`, async () => {
      for (const param of params) {
        const res = await api.request<ErrorBody>(
          route.method.toUpperCase(),
          pathFor(route, { ...aliceIds, [param]: NOT_AN_ID[param] ?? "12345" }),
          {
            key: alice.key,
            ...requestOptions(route),
          },
        );
        assert.equal(res.status, 400);
        assert.equal(res.body.detail.code, "invalid_parameter");
        assert.deepEqual(
          (res.body.detail.details.fields as { field: string }[]).map((f) => f.field),
          [`path.${param}`],
        );
      }
    });

    if (route.public) continue; // a presigned URL is for whoever holds it

    it(`${label} answers 404 to another user for the owner's ids, and the owner's data is untouched`, async () => {
      const before = await db.owner.query("select * from app_public.projects where id = $1", [aliceIds.project_id]);
      const res = await api.request<ErrorBody>(route.method.toUpperCase(), pathFor(route, aliceIds), {
        key: bob.key,
        ...requestOptions(route),
      });
      assert.equal(res.status, 404, label);
      assert.equal(res.body.detail.code, "not_found");
      const afterwards = await db.owner.query("select * from app_public.projects where id = $1", [aliceIds.project_id]);
      assert.deepEqual(afterwards.rows, before.rows);
    });
  }
});

describe("GET /healthz", () => {
  it("answers 503 naming the check that is not ready, and 200 once all are", async () => {
    let workers: "ok" | "starting" = "starting";
    const starting = await startTestApi(db, { health: () => ({ migrations: "ok", workers }) });
    try {
      const early = await starting.request<{ status: string; checks: Record<string, string> }>("GET", "/healthz");
      assert.equal(early.status, 503);
      assert.deepEqual(early.body.checks, { migrations: "ok", workers: "starting", database: "ok" });
      workers = "ok";
      const ready = await starting.request<{ status: string }>("GET", "/healthz");
      assert.equal(ready.status, 200);
      assert.equal(ready.body.status, "ok");
    } finally {
      await starting.close();
    }
  });
});
