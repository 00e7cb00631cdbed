import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type pg from "pg";
import { generateApiKey, parseApiKey } from "../../../auth/api-key.ts";
import { SCOPES } from "../../../auth/scopes.ts";
import { createPool } from "../../../db/pools.ts";
import { revokeApiKey } from "../../../db/queries/api-keys.ts";
import { withRequestTransaction } from "../../../db/request-transaction.ts";
import { startTestApi, type TestApi } from "../../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/support/database.ts";
import { createTestUser, type TestUser } from "../../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

let db: TestDatabase;
/** the default auth cache (60 s) */
let api: TestApi;
/** AUTH_CACHE_TTL_SECONDS=0: every request looks the key up */
let uncached: TestApi;
let appPool: pg.Pool;
let alice: TestUser;

function prefixOf(key: string): string {
  const prefix = key.split("_live_")[0];
  assert.ok(prefix);
  return prefix;
}

async function keyRow(key: string): Promise<{ id: string; last_used_at: Date | null }> {
  const { rows } = await db.owner.query<{ id: string; last_used_at: Date | null }>(
    "select id, last_used_at from app_private.api_keys where key_prefix = $1",
    [prefixOf(key)],
  );
  assert.ok(rows[0], "the key exists");
  return rows[0];
}

async function rateHits(key: string): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    `select coalesce(sum(s.hits), 0)::int as n from app_private.rate_limit_slots s
       join app_private.api_keys k on k.id = s.key_id where k.key_prefix = $1`,
    [prefixOf(key)],
  );
  return rows[0]?.n ?? -1;
}

async function projectCount(userId: string): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select count(*)::int as n from app_public.projects where user_id = $1",
    [userId],
  );
  return rows[0]?.n ?? -1;
}

function assert401(res: { status: number; headers: Headers; body: ErrorBody }, code: string): void {
  assert.equal(res.status, 401);
  assert.equal(res.body.detail.code, code);
  assert.equal(res.body.detail.request_id, res.headers.get("x-request-id"));
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  uncached = await startTestApi(db, { env: { AUTH_CACHE_TTL_SECONDS: "0" } });
  appPool = createPool(db.appUrl, 2, "swarf-test-auth");
  alice = await createTestUser(db.owner, "alice");
});
after(async () => {
  await appPool.end();
  await uncached.close();
  await api.close();
  await db.drop();
});

describe("auth middleware", () => {
  it("answers 401 api_key_missing without an X-API-Key header or with an empty one", async () => {
    assert401(await api.request<ErrorBody>("GET", "/projects"), "api_key_missing");
    assert401(await api.request<ErrorBody>("GET", "/projects", { headers: { "X-API-Key": "" } }), "api_key_missing");
  });

  it("answers 401 api_key_malformed for a key of the wrong shape", async () => {
    const good = generateApiKey().plaintext;
    const [prefix, secret] = good.split("_live_") as [string, string];
    for (const key of [
      "nope",
      `${prefix}_test_${secret}`,
      `${prefix}_live_${secret.toLowerCase()}`,
      `${prefix}_live_${secret}A`,
      `${prefix}_live_${secret.slice(1)}`,
      `${prefix.toUpperCase()}_live_${secret}`,
      `Bearer ${good}`,
    ]) {
      assert401(await api.request<ErrorBody>("GET", "/projects", { key }), "api_key_malformed");
    }
  });

  it("answers 401 api_key_invalid for a well-formed key nobody holds", async () => {
    assert401(await api.request<ErrorBody>("GET", "/projects", { key: generateApiKey().plaintext }), "api_key_invalid");
    // a live key's prefix with another secret
    const forged = `${prefixOf(alice.key)}_live_${generateApiKey().plaintext.split("_live_")[1]}`;
    assert401(await api.request<ErrorBody>("GET", "/projects", { key: forged }), "api_key_invalid");
  });

  it("accepts a live key", async () => {
    const res = await api.request("GET", "/projects", { key: alice.key });
    assert.equal(res.status, 200);
  });

  it("refuses a revoked key at once on a database-backed route while the auth cache still holds it", async () => {
    const key = await alice.keyWith(SCOPES);
    assert.equal((await api.request("GET", "/projects", { key })).status, 200, "the key is now cached");
    assert.equal(await revokeApiKey(db.owner, prefixOf(key)), true);

    const read = await api.request<ErrorBody>("GET", "/projects", { key });
    assert401(read, "api_key_invalid");
    // the cached key got past the middleware to the rate limiter: begin_request refused it
    assert.equal(read.headers.get("x-ratelimit-limit"), String(api.env.RATE_LIMIT_PER_MINUTE));
    assert.equal(await rateHits(key), 2);

    const before = await projectCount(alice.id);
    const write = await api.request<ErrorBody>("POST", "/projects", { key, body: { name: "Revoked", customer: "C" } });
    assert401(write, "api_key_invalid");
    const keyed = await api.request<ErrorBody>("POST", "/projects", {
      key,
      body: { name: "Revoked", customer: "C" },
      headers: { "Idempotency-Key": "revoked-1" },
    });
    assert401(keyed, "api_key_invalid");
    assert.equal(await projectCount(alice.id), before, "nothing is created with a revoked key");
  });

  it("refuses a revoked key in the middleware itself with AUTH_CACHE_TTL_SECONDS=0", async () => {
    const key = await alice.keyWith(SCOPES);
    assert.equal((await uncached.request("GET", "/projects", { key })).status, 200);
    assert.equal(await rateHits(key), 1);
    await revokeApiKey(db.owner, prefixOf(key));

    const res = await uncached.request<ErrorBody>("GET", "/projects", { key });
    assert401(res, "api_key_invalid");
    assert.equal(res.headers.get("x-ratelimit-limit"), null, "refused before the rate limiter");
    assert.equal(await rateHits(key), 1, "a request refused by the middleware counts nowhere");
  });

  it("writes last_used_at on first use and not again within a minute", async () => {
    const key = await alice.keyWith(["projects:read"]);
    assert.equal((await keyRow(key)).last_used_at, null);

    const started = Date.now();
    assert.equal((await uncached.request("GET", "/projects", { key })).status, 200);
    const first = (await keyRow(key)).last_used_at;
    assert.ok(first, "last_used_at is written on first use");
    assert.ok(Math.abs(first.getTime() - started) < 10_000, "last_used_at is about now");

    assert.equal((await uncached.request("GET", "/projects", { key })).status, 200);
    assert.equal((await api.request("GET", "/projects", { key })).status, 200);
    const second = (await keyRow(key)).last_used_at;
    assert.equal(second?.getTime(), first.getTime(), "not rewritten within a minute");

    // older than a minute: the next authentication writes it again
    await db.owner.query(
      "update app_private.api_keys set last_used_at = now() - interval '2 minutes' where key_prefix = $1",
      [prefixOf(key)],
    );
    assert.equal((await uncached.request("GET", "/projects", { key })).status, 200);
    const third = (await keyRow(key)).last_used_at;
    assert.ok(third && Math.abs(third.getTime() - Date.now()) < 10_000, "rewritten once a minute has passed");
  });

  it("answers 403 insufficient_scope with details.missing_scopes when the key lacks projects:write, and creates nothing", async () => {
    const reader = await createTestUser(db.owner, "reader");
    const key = await reader.keyWith(["projects:read"]);
    const res = await api.request<ErrorBody>("POST", "/projects", {
      key,
      body: { name: "Nope", customer: "C" },
      headers: { "Idempotency-Key": "scope-1" },
    });
    assert.equal(res.status, 403);
    assert.equal(res.body.detail.code, "insufficient_scope");
    assert.deepEqual(res.body.detail.details.missing_scopes, ["projects:write"]);
    assert.match(res.body.detail.message, /projects:write/);
    assert.equal(await projectCount(reader.id), 0);
    const { rowCount } = await db.owner.query("select 1 from app_private.idempotency_records where user_id = $1", [
      reader.id,
    ]);
    assert.equal(rowCount, 0, "no idempotency claim is left behind");

    const writer = await reader.keyWith(["projects:write"]);
    const list = await api.request<ErrorBody>("GET", "/projects", { key: writer });
    assert.equal(list.status, 403);
    assert.deepEqual(list.body.detail.details.missing_scopes, ["projects:read"]);
  });

  it("has SQL refuse a missing scope on its own: withRequestTransaction rejects with SQLSTATE SWSCP", async () => {
    const key = await alice.keyWith(["projects:read"]);
    const credential = parseApiKey(key);
    assert.ok(credential);

    let ran = false;
    await assert.rejects(
      withRequestTransaction(appPool, credential, ["projects:write"], async () => {
        ran = true;
      }),
      (error: { code?: string; detail?: string }) => {
        assert.equal(error.code, "SWSCP");
        assert.equal(error.detail, "projects:write");
        return true;
      },
    );
    assert.equal(ran, false, "the work never runs");

    await assert.rejects(
      withRequestTransaction(appPool, credential, ["projects:write", "cam:write", "projects:read"], async () => {}),
      (error: { code?: string; detail?: string }) =>
        error.code === "SWSCP" && error.detail === "cam:write projects:write",
    );

    // the same key with a scope it holds: the transaction opens with the caller's identity
    const userId = await withRequestTransaction(appPool, credential, ["projects:read"], async (client) => {
      const { rows } = await client.query<{ id: string }>("select app_public.current_user_id() as id");
      return rows[0]?.id;
    });
    assert.equal(userId, alice.id);
  });

  it("has SQL refuse an unknown or revoked key with SQLSTATE SWAUT", async () => {
    const key = await alice.keyWith(["projects:read"]);
    const credential = parseApiKey(key);
    assert.ok(credential);
    await revokeApiKey(db.owner, prefixOf(key));
    await assert.rejects(
      withRequestTransaction(appPool, credential, [], async () => {}),
      (error: { code?: string }) => error.code === "SWAUT",
    );
    const unknown = parseApiKey(generateApiKey().plaintext);
    assert.ok(unknown);
    await assert.rejects(
      withRequestTransaction(appPool, unknown, [], async () => {}),
      (error: { code?: string }) => error.code === "SWAUT",
    );
  });
});
