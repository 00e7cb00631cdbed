import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { SCOPES } from "../../auth/scopes.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { givePassword, signIn, type TestSession } from "../../test/support/sessions.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}
interface KeyBody {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  key?: string;
}

const KEYS = `${APP_ROUTES_PATH}/keys`;

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let aliceSession: TestSession;
let bobSession: TestSession;

function assertError(res: { status: number; body: unknown }, status: number, code: string): ErrorBody {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const body = res.body as ErrorBody;
  assert.equal(body.detail.code, code);
  return body;
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  await givePassword(db.owner, alice.id);
  await givePassword(db.owner, bob.id);
  aliceSession = await signIn(api, alice.email);
  bobSession = await signIn(api, bob.email);
});
after(async () => {
  await api.close();
  await db.drop();
});

describe("the user's API keys", () => {
  it("creates a key: the plaintext once, only its hash stored, usable on the public API", async () => {
    const res = await aliceSession.request<KeyBody>("POST", KEYS, {
      body: { name: "Shop floor", scopes: ["projects:read"] },
      csrf: true,
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.name, "Shop floor");
    assert.deepEqual(res.body.scopes, ["projects:read"]);
    assert.equal(res.body.last_used_at, null);
    assert.ok(res.body.key);
    assert.match(res.body.key, /^[a-z2-7]{4,32}_live_[A-Z2-7]{40}$/);
    assert.equal(res.body.key.split("_live_")[0], res.body.prefix);

    const { rows } = await db.owner.query<{ user_id: string; key_hash: Buffer }>(
      "select user_id, key_hash from app_private.api_keys where id = $1",
      [res.body.id],
    );
    assert.equal(rows[0]?.user_id, alice.id);
    assert.deepEqual(rows[0]?.key_hash, createHash("sha256").update(res.body.key).digest());

    assert.equal((await api.request("GET", "/projects", { key: res.body.key })).status, 200);
    const write = await api.request("POST", "/projects", { key: res.body.key, body: { name: "P", customer: "C" } });
    assertError(write, 403, "insufficient_scope");

    const every = await aliceSession.request<KeyBody>("POST", KEYS, { body: { name: "Everything" }, csrf: true });
    assert.equal(every.status, 201);
    assert.deepEqual(every.body.scopes, [...SCOPES], "every public scope by default, no operator scope");
  });

  it("lists the user's live keys newest first, without plaintext or hash", async () => {
    const first = await aliceSession.request<KeyBody>("POST", KEYS, { body: { name: "older" }, csrf: true });
    const second = await aliceSession.request<KeyBody>("POST", KEYS, { body: { name: "newer" }, csrf: true });
    const list = await aliceSession.request<{ items: KeyBody[] }>("GET", KEYS);
    assert.equal(list.status, 200);
    const ids = list.body.items.map((k) => k.id);
    assert.ok(ids.indexOf(second.body.id) < ids.indexOf(first.body.id), "newest first");
    for (const item of list.body.items) {
      assert.deepEqual(Object.keys(item).sort(), ["created_at", "id", "last_used_at", "name", "prefix", "scopes"]);
    }
    assert.ok(!list.text.includes(first.body.key ?? "-"), "no plaintext");
    const bobs = await bobSession.request<{ items: KeyBody[] }>("GET", KEYS);
    assert.ok(!bobs.body.items.some((k) => k.id === first.body.id), "another user's keys are not listed");
  });

  it("revokes a key: this process refuses it at once although it was cached; another user's id is 404", async () => {
    const created = await aliceSession.request<KeyBody>("POST", KEYS, { body: { name: "short-lived" }, csrf: true });
    const key = created.body.key ?? "";
    assert.equal((await api.request("GET", "/projects", { key })).status, 200, "now in the auth cache");

    assertError(await bobSession.request("DELETE", `${KEYS}/${created.body.id}`, { csrf: true }), 404, "not_found");
    assertError(await aliceSession.request("DELETE", `${KEYS}/${created.body.id}`), 403, "csrf_token_invalid");
    assert.equal((await api.request("GET", "/projects", { key })).status, 200, "neither revoked it");

    const revoked = await aliceSession.request("DELETE", `${KEYS}/${created.body.id}`, { csrf: true });
    assert.equal(revoked.status, 204);
    assertError(await api.request("GET", "/projects", { key }), 401, "api_key_invalid");
    // refused by the middleware itself, before the rate limiter: the cache no longer holds it
    const again = await api.request("GET", "/projects", { key });
    assertError(again, 401, "api_key_invalid");
    assert.equal(again.headers.get("x-ratelimit-limit"), null);

    assertError(await aliceSession.request("DELETE", `${KEYS}/${created.body.id}`, { csrf: true }), 404, "not_found");
    const list = await aliceSession.request<{ items: KeyBody[] }>("GET", KEYS);
    assert.ok(!list.body.items.some((k) => k.id === created.body.id), "a revoked key is not listed");
    assertError(
      await aliceSession.request("DELETE", `${KEYS}/00000000-0000-4000-8000-000000000000`, { csrf: true }),
      404,
      "not_found",
    );
    assertError(await aliceSession.request("DELETE", `${KEYS}/not-a-uuid`, { csrf: true }), 400, "invalid_parameter");
  });

  it("refuses bad names and scopes with 400 in the envelope, creating nothing", async () => {
    const before = await db.owner.query("select 1 from app_private.api_keys where user_id = $1", [alice.id]);
    for (const body of [
      {},
      { name: "" },
      { name: "   " },
      { name: "x".repeat(101) },
      { name: "tab\there" },
      { name: 42 },
      { name: "ok", scopes: [] },
      { name: "ok", scopes: ["ops:read"] },
      { name: "ok", scopes: ["nonsense"] },
      { name: "ok", scopes: ["projects:read", "projects:read"] },
      { name: "ok", extra: 1 },
    ]) {
      const res = await aliceSession.request("POST", KEYS, { body, csrf: true });
      assertError(res, 400, "invalid_parameter");
    }
    const exactly = await aliceSession.request<KeyBody>("POST", KEYS, { body: { name: "ü".repeat(100) }, csrf: true });
    assert.equal(exactly.status, 201, "100 characters is fine");
    const after = await db.owner.query("select 1 from app_private.api_keys where user_id = $1", [alice.id]);
    assert.equal(after.rows.length, before.rows.length + 1);
  });

  it("stores and returns an XSS attempt in a key's name as given, as JSON text", async () => {
    const name = `<img src=x onerror="alert(1)"><script>alert('k')</script>&amp;`;
    const res = await aliceSession.request<KeyBody>("POST", KEYS, { body: { name }, csrf: true });
    assert.equal(res.status, 201);
    assert.equal(res.body.name, name);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    const list = await aliceSession.request<{ items: KeyBody[] }>("GET", KEYS);
    assert.ok(list.body.items.some((k) => k.name === name));
  });

  it("needs a session: no cookie 401, and an API key is not a session", async () => {
    assertError(await api.request("GET", KEYS), 401, "not_signed_in");
    assertError(await api.request("GET", KEYS, { key: alice.key }), 401, "not_signed_in");
    assertError(await api.request("POST", KEYS, { key: alice.key, body: { name: "x" } }), 401, "not_signed_in");
    assertError(await api.request("GET", `${APP_ROUTES_PATH}/scopes`), 401, "not_signed_in");
    const scopes = await aliceSession.request<{ scopes: string[] }>("GET", `${APP_ROUTES_PATH}/scopes`);
    assert.deepEqual(scopes.body.scopes, [...SCOPES]);
  });

  it("keeps the app routes out of the public OpenAPI document, and unknown app paths 404 in the envelope", async () => {
    const doc = await api.request<{ paths: Record<string, unknown> }>("GET", "/backend-api/api/public/v1/openapi.json");
    assert.equal(doc.status, 200);
    const paths = Object.keys(doc.body.paths);
    assert.ok(paths.length > 10);
    assert.ok(!paths.some((p) => /session|\/app\/|^\/keys|scopes/.test(p)), paths.join(" "));
    assert.ok(!doc.text.includes("/api/app"));
    assert.ok(!doc.text.includes("csrf"));
    assertError(await aliceSession.request("GET", `${APP_ROUTES_PATH}/nothing-here`), 404, "route_not_found");
  });
});
