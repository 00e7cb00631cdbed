/**
 * The scope matrix: every route of the table against a key holding each single scope, and the
 * table's scopes against the spec's. A cell is 403 insufficient_scope naming exactly what is
 * missing, or (when the scope is all the route needs) anything but 403. The keys belong to a
 * third user and the ids to alice, so a cell that passes the scope check reaches nothing of hers.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { routes } from "../../api/routes/index.ts";
import { OPERATOR_SCOPES, SCOPES, type KeyScope } from "../../auth/scopes.ts";
import { repoRoot } from "../../config/env.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createRouteFixtures, pathFor, requestOptions } from "../support/route-fixtures.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; details: Record<string, unknown> };
}

const SPEC = path.resolve(repoRoot, "..", "shared", "spec", "public-api.md");

/** `| METHOD | /path?query | scope and scope | payload |` rows of the spec's route tables */
function specRoutes(): { method: string; path: string; scopes: string[] }[] {
  return fs
    .readFileSync(SPEC, "utf8")
    .split("\n")
    .map((line) => line.match(/^\| (GET|POST|PATCH|PUT|DELETE) \| (\/[^ |]*) \| ([^|]+) \|/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ method: m[1]!, path: m[2]!.split("?")[0]!, scopes: m[3]!.trim().split(" and ").sort() }));
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let carol: TestUser;
const ids: Record<string, string> = {};
const queries: Record<string, string> = {};
const keys = new Map<KeyScope, string>();

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  carol = await createTestUser(db.owner, "carol");
  const fixtures = await createRouteFixtures(db, api, alice, "matrix-mill");
  Object.assign(ids, fixtures.ids);
  Object.assign(queries, fixtures.queries);
  for (const scope of [...SCOPES, ...OPERATOR_SCOPES]) keys.set(scope, await carol.keyWith([scope]));
});
after(async () => {
  await api?.close();
  await db?.drop();
});

describe("the scope matrix", () => {
  it("has every route of the spec's tables, requiring exactly the spec's scopes", () => {
    const rows = specRoutes();
    assert.ok(rows.length >= 50, `${rows.length} rows read from the spec`);
    for (const row of rows) {
      const route = routes.find((r) => r.method.toUpperCase() === row.method && r.path === row.path);
      assert.ok(route, `${row.method} ${row.path} is in the route table`);
      assert.deepEqual([...route.scopes].sort(), row.scopes, `${row.method} ${row.path}`);
    }
  });

  for (const route of routes.filter((r) => !r.public)) {
    const label = `${route.method.toUpperCase()} ${route.path}`;
    it(`${label}: a key with one scope is refused exactly when the route needs another`, async () => {
      const projects = "select count(*)::int as n, max(updated_at) as t from app_public.projects where user_id = $1";
      const before = await db.owner.query(projects, [alice.id]);
      for (const [scope, key] of keys) {
        const res = await api.request<ErrorBody>(route.method.toUpperCase(), pathFor(route, ids, queries), {
          key,
          ...requestOptions(route),
        });
        const missing = route.scopes.filter((needed) => needed !== scope);
        if (missing.length > 0) {
          assert.equal(res.status, 403, `${label} with ${scope}: ${res.text.slice(0, 200)}`);
          assert.equal(res.body.detail.code, "insufficient_scope");
          assert.deepEqual(res.body.detail.details.missing_scopes, missing, `${label} with ${scope}`);
        } else {
          assert.notEqual(res.status, 403, `${label} with ${scope}`);
          assert.ok(res.status < 500, `${label} with ${scope}: ${res.status}`);
        }
      }
      const afterwards = await db.owner.query(projects, [alice.id]);
      assert.deepEqual(afterwards.rows, before.rows, "alice's projects are untouched");
    });
  }
});
