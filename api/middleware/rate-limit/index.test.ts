import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { SCOPES } from "../../../auth/scopes.ts";
import { startTestApi, type TestApi, type TestResponse } from "../../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/support/database.ts";
import { createTestUser, type TestUser } from "../../../test/support/users.ts";
import { json } from "../../reply.ts";
import { defineRoute, type RouteSpec } from "../../route.ts";
import { routes as defaultRoutes } from "../../routes/index.ts";
import { NoQuery } from "../../schemas/common.ts";

interface ErrorBody {
  detail: {
    code: string;
    message: string;
    details: { retry_after_seconds?: number; limit?: number; window_seconds?: number; bucket?: string };
    request_id: string;
  };
}

const slowRoute = defineRoute({
  method: "get",
  path: "/test/slow",
  operationId: "testSlow",
  summary: "a route with a bucket of its own",
  tag: "Test",
  scopes: ["projects:read"],
  query: NoQuery,
  rateLimit: { bucket: "slow", limit: () => 2, windowSeconds: 3600 },
  responses: { 200: { description: "ok" } },
  async handler() {
    return json(200, { ok: true });
  },
});
const testRoutes: readonly RouteSpec[] = [...defaultRoutes, slowRoute];

let db: TestDatabase;
let api: TestApi;
let second: TestApi;
let alice: TestUser;
let bob: TestUser;

function prefixOf(key: string): string {
  const prefix = key.split("_live_")[0];
  assert.ok(prefix);
  return prefix;
}

async function hits(key: string, bucket: string): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    `select coalesce(sum(s.hits), 0)::int as n from app_private.rate_limit_slots s
       join app_private.api_keys k on k.id = s.key_id where k.key_prefix = $1 and s.bucket = $2`,
    [prefixOf(key), bucket],
  );
  return rows[0]?.n ?? -1;
}

/** Moves a key's recorded hits `seconds` into the past (only those older than `olderThanSeconds`). */
async function age(key: string, seconds: number, olderThanSeconds = -1): Promise<void> {
  await db.owner.query(
    `update app_private.rate_limit_slots s set slot_start = s.slot_start - make_interval(secs => $2)
       from app_private.api_keys k
      where k.id = s.key_id and k.key_prefix = $1 and s.slot_start < now() - make_interval(secs => $3)`,
    [prefixOf(key), seconds, olderThanSeconds],
  );
}

function header(res: TestResponse, name: string): number {
  const value = res.headers.get(name);
  assert.match(value ?? "", /^\d+$/, `${name} is an integer: ${value}`);
  return Number(value);
}

function assertLimited(res: TestResponse<ErrorBody>, limit: number, maxRetry: number): number {
  assert.equal(res.status, 429);
  assert.equal(res.body.detail.code, "validation_error");
  assert.equal(res.body.detail.request_id, res.headers.get("x-request-id"));
  assert.match(res.body.detail.message, new RegExp(`\\b${limit} requests per`));
  const retry = res.body.detail.details.retry_after_seconds;
  assert.ok(Number.isInteger(retry), "details.retry_after_seconds is an integer");
  assert.equal(header(res, "retry-after"), retry);
  assert.ok(retry !== undefined && retry >= 1 && retry <= maxRetry, `retry after ${retry}`);
  assert.equal(header(res, "x-ratelimit-limit"), limit);
  assert.equal(header(res, "x-ratelimit-remaining"), 0);
  return retry;
}

async function spend(target: TestApi, key: string, count: number): Promise<number[]> {
  const remaining: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await target.request("GET", "/projects", { key });
    assert.equal(res.status, 200, `request ${i + 1}`);
    remaining.push(header(res, "x-ratelimit-remaining"));
  }
  return remaining;
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "5" }, routes: testRoutes });
  second = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "5" }, routes: testRoutes });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await second.close();
  await api.close();
  await db.drop();
});

describe("rate-limit middleware", () => {
  it("lets five requests through with falling X-RateLimit-Remaining and answers the sixth 429 with Retry-After", async () => {
    const key = await alice.keyWith(SCOPES);
    for (const [i, expected] of [4, 3, 2, 1, 0].entries()) {
      const res = await api.request("GET", "/projects", { key });
      assert.equal(res.status, 200, `request ${i + 1}`);
      assert.equal(header(res, "x-ratelimit-limit"), 5);
      assert.equal(header(res, "x-ratelimit-remaining"), expected);
      const reset = header(res, "x-ratelimit-reset");
      const now = Date.now() / 1000;
      assert.ok(reset > now && reset <= now + 61, `X-RateLimit-Reset ${reset} is within the next minute (now ${now})`);
    }
    const sixth = await api.request<ErrorBody>("GET", "/projects", { key });
    assertLimited(sixth, 5, 60);
    assert.match(sixth.body.detail.message, /5 requests per minute/);
    assert.equal(sixth.body.detail.details.bucket, "default");
    assert.equal(sixth.body.detail.details.window_seconds, 60);
    assert.ok(header(sixth, "x-ratelimit-reset") > Date.now() / 1000);
  });

  it("limits each key on its own: another key of the same user and another user's key are not affected", async () => {
    const first = await alice.keyWith(SCOPES);
    const sibling = await alice.keyWith(SCOPES);
    const other = await bob.keyWith(SCOPES);
    await spend(api, first, 5);
    assertLimited(await api.request<ErrorBody>("GET", "/projects", { key: first }), 5, 60);
    assert.deepEqual(await spend(api, sibling, 1), [4]);
    assert.deepEqual(await spend(api, other, 1), [4]);
    assertLimited(await api.request<ErrorBody>("GET", "/projects", { key: first }), 5, 60);
  });

  it("shares one window between two API instances on the same database", async () => {
    const key = await alice.keyWith(SCOPES);
    assert.deepEqual(await spend(api, key, 3), [4, 3, 2]);
    assert.deepEqual(await spend(second, key, 2), [1, 0]);
    assertLimited(await api.request<ErrorBody>("GET", "/projects", { key }), 5, 60);
    assertLimited(await second.request<ErrorBody>("GET", "/projects", { key }), 5, 60);
  });

  it("does not count a rejected request against the quota", async () => {
    const key = await alice.keyWith(SCOPES);
    await spend(api, key, 5);
    // the five hits were made 30 s ago: a request fits again in about 30 s
    await age(key, 30);
    for (let i = 0; i < 3; i++) {
      const retry = assertLimited(await api.request<ErrorBody>("GET", "/projects", { key }), 5, 60);
      assert.ok(retry >= 25 && retry <= 31, `retry after ${retry}, about 30 s`);
    }
    assert.equal(await hits(key, "default"), 5, "the 429s added no hits");
    // the five hits leave the window; anything the 429s had counted would stay in it
    await age(key, 40, 20);
    const res = await api.request("GET", "/projects", { key });
    assert.equal(res.status, 200);
    assert.equal(header(res, "x-ratelimit-remaining"), 4);
  });

  it("raises a key's limit with a per-key override in app_private.api_keys.rate_limits", async () => {
    const key = await alice.keyWith(SCOPES);
    const plain = await alice.keyWith(SCOPES);
    await db.owner.query(`update app_private.api_keys set rate_limits = '{"default": 8}' where key_prefix = $1`, [
      prefixOf(key),
    ]);
    const first = await api.request("GET", "/projects", { key });
    assert.equal(header(first, "x-ratelimit-limit"), 8);
    assert.deepEqual([header(first, "x-ratelimit-remaining"), ...(await spend(api, key, 7))], [7, 6, 5, 4, 3, 2, 1, 0]);
    const ninth = await api.request<ErrorBody>("GET", "/projects", { key });
    assertLimited(ninth, 8, 60);
    assert.equal(ninth.body.detail.details.limit, 8);
    // the override is that key's only
    await spend(api, plain, 5);
    assertLimited(await api.request<ErrorBody>("GET", "/projects", { key: plain }), 5, 60);
  });

  it("limits a route with a bucket of its own separately, over an hour", async () => {
    const key = await alice.keyWith(SCOPES);
    for (const expected of [1, 0]) {
      const res = await api.request("GET", "/test/slow", { key });
      assert.equal(res.status, 200);
      assert.equal(header(res, "x-ratelimit-limit"), 2, "the headers describe the bucket closest to its limit");
      assert.equal(header(res, "x-ratelimit-remaining"), expected);
      const reset = header(res, "x-ratelimit-reset");
      const now = Date.now() / 1000;
      assert.ok(
        reset > now + 3500 && reset <= now + 3601,
        `X-RateLimit-Reset ${reset} is about an hour away (now ${now})`,
      );
    }
    const third = await api.request<ErrorBody>("GET", "/test/slow", { key });
    const retry = assertLimited(third, 2, 3600);
    assert.ok(retry > 60, `retry after ${retry}: the hour window, not the minute`);
    assert.match(third.body.detail.message, /2 requests per hour for slow/);
    assert.equal(third.body.detail.details.bucket, "slow");
    assert.equal(third.body.detail.details.window_seconds, 3600);

    // the default bucket counted the two that passed, not the one refused
    const other = await api.request("GET", "/projects", { key });
    assert.equal(other.status, 200);
    assert.equal(header(other, "x-ratelimit-limit"), 5);
    assert.equal(header(other, "x-ratelimit-remaining"), 2);
    assert.equal(await hits(key, "slow"), 2);
    assert.equal(await hits(key, "default"), 3);
    const { rows } = await db.owner.query<{ seconds: number }>(
      `select extract(second from s.slot_start)::int as seconds from app_private.rate_limit_slots s
         join app_private.api_keys k on k.id = s.key_id where k.key_prefix = $1 and s.bucket = 'slow'`,
      [prefixOf(key)],
    );
    assert.ok(rows.length > 0 && rows.every((r) => r.seconds === 0), "the hour bucket counts in one-minute slots");
  });

  it("refuses a route with its own bucket when the default bucket is full", async () => {
    const key = await alice.keyWith(SCOPES);
    await spend(api, key, 5);
    const res = await api.request<ErrorBody>("GET", "/test/slow", { key });
    assertLimited(res, 5, 60);
    assert.equal(res.body.detail.details.bucket, "default");
    assert.equal(await hits(key, "slow"), 0);
  });

  it("answers with the longest wait when the default bucket and a route's own bucket are both full", async () => {
    const key = await alice.keyWith(SCOPES);
    for (let i = 0; i < 2; i++) assert.equal((await api.request("GET", "/test/slow", { key })).status, 200);
    await spend(api, key, 3);
    const res = await api.request<ErrorBody>("GET", "/test/slow", { key });
    // a request fits again only when every bucket has room: the hour bucket decides
    const retry = assertLimited(res, 2, 3600);
    assert.ok(retry > 60, `retry after ${retry}: a retry after the minute window would be refused again`);
    assert.equal(res.body.detail.details.bucket, "slow");
  });

  it("counts a high-limit key in leased batches while each response still shows one request less", async () => {
    const key = await alice.keyWith(SCOPES);
    await db.owner.query(`update app_private.api_keys set rate_limits = '{"default": 1000}' where key_prefix = $1`, [
      prefixOf(key),
    ]);
    const remaining = await spend(api, key, 25);
    assert.deepEqual(
      remaining,
      Array.from({ length: 25 }, (_, i) => 999 - i),
    );
    // one hit to learn the limit, then batches of 10 counted ahead of use
    assert.equal(await hits(key, "default"), 31);
  });

  it("never lets leasing instances together admit more than the limit", async () => {
    const key = await alice.keyWith(SCOPES);
    await db.owner.query(`update app_private.api_keys set rate_limits = '{"default": 300}' where key_prefix = $1`, [
      prefixOf(key),
    ]);
    let admitted = 0;
    for (let i = 0; i < 320; i++) {
      const res = await (i % 2 === 0 ? api : second).request("GET", "/projects", { key });
      if (res.status === 200) admitted++;
      else assert.equal(res.status, 429);
    }
    assert.ok(admitted <= 300, `admitted ${admitted}`);
    // each instance may hold at most a batch of 3 counted but unspent
    assert.ok(admitted >= 300 - 2 * 2, `admitted ${admitted}`);
    assert.equal(await hits(key, "default"), 300);
  });
});
