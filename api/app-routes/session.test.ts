import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { newToken, SESSION_COOKIE, SESSION_CREDENTIAL_PREFIX } from "../../auth/session-token.ts";
import { pruneRateLimitSlots } from "../../db/queries/rate-limits.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { givePassword, setCookieValue, signIn, TEST_PASSWORD, withSession } from "../../test/support/sessions.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}
interface SessionBody {
  user: { id: string; email: string };
  csrf_token: string;
}

const SESSION = `${APP_ROUTES_PATH}/session`;

let db: TestDatabase;
let api: TestApi;
/** a second API process over the same database */
let other: TestApi;
let alice: TestUser;
let bob: TestUser;

function sessionRow(token: string) {
  const id = createHash("sha256").update(token).digest();
  return db.owner.query<{ user_id: string; last_seen_at: Date; expires_at: Date; idle_timeout: string }>(
    "select user_id, last_seen_at, expires_at, idle_timeout::text from app_private.sessions where id = $1",
    [id],
  );
}

function assertError(res: { status: number; body: unknown }, status: number, code: string): ErrorBody {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const body = res.body as ErrorBody;
  assert.equal(body.detail.code, code);
  assert.ok(body.detail.request_id);
  return body;
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
  other = await startTestApi(db);
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  await givePassword(db.owner, alice.id);
  await givePassword(db.owner, bob.id);
});
after(async () => {
  await other.close();
  await api.close();
  await db.drop();
});

describe("signing in", () => {
  it("signs in with email and password: the user, a CSRF token and an HttpOnly SameSite=Lax cookie", async () => {
    const res = await api.request<SessionBody>("POST", SESSION, {
      body: { email: alice.email.toUpperCase(), password: TEST_PASSWORD },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.user, { id: alice.id, email: alice.email });
    assert.match(res.body.csrf_token, /^[A-Za-z0-9_-]{43}$/);
    const line = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    assert.ok(line);
    assert.match(line, /; HttpOnly/);
    assert.match(line, /; SameSite=Lax/);
    assert.match(line, /; Path=\//);
    assert.match(line, /; Expires=/);
    assert.doesNotMatch(line, /; Secure/, "plain http on loopback: not Secure");
    assert.equal(res.headers.get("cache-control"), "no-store");

    const token = setCookieValue(res);
    assert.ok(token);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    const { rows } = await sessionRow(token);
    assert.equal(rows[0]?.user_id, alice.id, "the row is found by the cookie's SHA-256 only");
    assert.equal(rows[0]?.idle_timeout, "08:00:00");
    const days = ((rows[0]?.expires_at.getTime() ?? 0) - Date.now()) / 86_400_000;
    assert.ok(days > 6.99 && days <= 7, `absolute expiry in 7 days, not ${days}`);

    const again = await withSession(api, token, res.body.csrf_token).request<SessionBody>("GET", SESSION);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, res.body);
  });

  it("sets Secure when PUBLIC_BASE_URL is https", async () => {
    const secure = await startTestApi(db, { env: { PUBLIC_BASE_URL: "https://cam.example.com" } });
    try {
      const res = await secure.request("POST", SESSION, { body: { email: alice.email, password: TEST_PASSWORD } });
      assert.equal(res.status, 200);
      assert.match(res.headers.getSetCookie().join("\n"), /swarf_session=[^;]+;.*; Secure/);
      // its Origin is the configured one
      const cross = await secure.request("POST", SESSION, {
        body: { email: alice.email, password: TEST_PASSWORD },
        headers: { Origin: secure.origin },
      });
      assertError(cross, 403, "cross_site_request");
      const same = await secure.request("POST", SESSION, {
        body: { email: alice.email, password: TEST_PASSWORD },
        headers: { Origin: "https://cam.example.com" },
      });
      assert.equal(same.status, 200);
    } finally {
      await secure.close();
    }
  });

  it("sets Secure behind a trusted proxy that says https", async () => {
    const proxied = await startTestApi(db, { env: { TRUST_PROXY: "loopback" } });
    try {
      const res = await proxied.request("POST", SESSION, {
        body: { email: alice.email, password: TEST_PASSWORD },
        headers: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "cam.example.com" },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.getSetCookie().join("\n"), /swarf_session=[^;]+;.*; Secure/);
      const untrusted = await api.request("POST", SESSION, {
        body: { email: alice.email, password: TEST_PASSWORD },
        headers: { "X-Forwarded-Proto": "https" },
      });
      assert.doesNotMatch(
        untrusted.headers.getSetCookie().join("\n"),
        /; Secure/,
        "an untrusted header does not count",
      );
    } finally {
      await proxied.close();
    }
  });

  it("answers a wrong password and an unknown email alike: 401 sign_in_failed, no cookie", async () => {
    const wrong = await api.request<ErrorBody>("POST", SESSION, {
      body: { email: alice.email, password: "not it at all" },
    });
    const unknown = await api.request<ErrorBody>("POST", SESSION, {
      body: { email: "nobody@example.com", password: TEST_PASSWORD },
    });
    const noPassword = await createTestUser(db.owner, "nopassword");
    const unset = await api.request<ErrorBody>("POST", SESSION, {
      body: { email: noPassword.email, password: TEST_PASSWORD },
    });
    for (const res of [wrong, unknown, unset]) {
      const body = assertError(res, 401, "sign_in_failed");
      assert.equal(body.detail.message, "Email or password is wrong.");
      assert.deepEqual(body.detail.details, {});
      assert.equal(setCookieValue(res), undefined);
    }
  });

  it("refuses bad bodies: 415 for a form post, 400 for missing fields, unknown fields and wrong types", async () => {
    const form = await api.request("POST", SESSION, {
      raw: {
        body: `email=${encodeURIComponent(alice.email)}&password=x`,
        contentType: "application/x-www-form-urlencoded",
      },
    });
    assertError(form, 415, "unsupported_media_type");
    assertError(
      await api.request("POST", SESSION, { raw: { body: "text", contentType: "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    assertError(await api.request("POST", SESSION), 415, "unsupported_media_type");
    assertError(
      await api.request("POST", SESSION, { raw: { body: "{", contentType: "application/json" } }),
      400,
      "malformed_json",
    );
    // a NUL reaches no query: 400, not 500
    assertError(
      await api.request("POST", SESSION, { body: { email: "a\u0000@example.com", password: "x" } }),
      400,
      "invalid_parameter",
    );
    for (const body of [
      {},
      { email: alice.email },
      { email: 1, password: 2 },
      { email: alice.email, password: "x", admin: true },
      [],
    ]) {
      assertError(await api.request("POST", SESSION, { body }), 400, "invalid_parameter");
    }
  });

  it("refuses a sign-in from another site's page: 403 cross_site_request", async () => {
    const crossSite: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { "Sec-Fetch-Site": "cross-site" },
    ];
    for (const headers of crossSite) {
      const res = await api.request("POST", SESSION, {
        body: { email: alice.email, password: TEST_PASSWORD },
        headers,
      });
      assertError(res, 403, "cross_site_request");
      assert.equal(setCookieValue(res), undefined);
    }
    const same = await api.request("POST", SESSION, {
      body: { email: alice.email, password: TEST_PASSWORD },
      headers: { Origin: api.origin, "Sec-Fetch-Site": "same-origin" },
    });
    assert.equal(same.status, 200);
  });

  it("answers GET /session without a cookie, or with an unknown or malformed one, 401 not_signed_in", async () => {
    assertError(await api.request("GET", SESSION), 401, "not_signed_in");
    for (const cookie of ["x", "A".repeat(43), "a=b; swarf_session="]) {
      assertError(
        await api.request("GET", SESSION, {
          headers: { Cookie: cookie.includes("=") ? cookie : `${SESSION_COOKIE}=${cookie}` },
        }),
        401,
        "not_signed_in",
      );
    }
  });
});

describe("a session on the public API", () => {
  it("reads and writes the user's own projects with the cookie; writes need the CSRF token", async () => {
    const session = await signIn(api, alice.email);
    const list = await session.request<{ items: unknown[] }>("GET", "/projects");
    assert.equal(list.status, 200, list.text);

    const missing = await session.request("POST", "/projects", { body: { name: "No token", customer: "C" } });
    assertError(missing, 403, "csrf_token_invalid");
    const wrong = await session.request("POST", "/projects", {
      body: { name: "Wrong token", customer: "C" },
      headers: { "X-CSRF-Token": "A".repeat(43) },
    });
    assertError(wrong, 403, "csrf_token_invalid");
    const { rows: none } = await db.owner.query("select 1 from app_public.projects where user_id = $1", [alice.id]);
    assert.equal(none.length, 0, "nothing is created without the token");

    const created = await session.request<{ id: string; name: string }>("POST", "/projects", {
      body: { name: "From the browser", customer: "C" },
      csrf: true,
    });
    assert.equal(created.status, 201, created.text);
    const { rows } = await db.owner.query<{ user_id: string }>(
      "select user_id from app_public.projects where id = $1",
      [created.body.id],
    );
    assert.equal(rows[0]?.user_id, alice.id);
    const read = await session.request<{ id: string }>("GET", `/projects/${created.body.id}`);
    assert.equal(read.status, 200);

    // another user's project is not found, as with a key
    const bobs = await signIn(api, bob.email);
    assertError(await bobs.request("GET", `/projects/${created.body.id}`), 404, "not_found");
    const bobsList = await bobs.request<{ items: { id: string }[] }>("GET", "/projects");
    assert.ok(!bobsList.body.items.some((p) => p.id === created.body.id));
  });

  it("replays an Idempotency-Key for the session's user, and counts its requests in the user's rate limit", async () => {
    const session = await signIn(api, alice.email);
    const send = () =>
      session.request<{ id: string }>("POST", "/projects", {
        body: { name: "Once", customer: "C" },
        headers: { "Idempotency-Key": "browser-1" },
        csrf: true,
      });
    const first = await send();
    const second = await send();
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.body.id, first.body.id, "replayed, not created twice");
    assert.equal(first.headers.get("x-ratelimit-limit"), String(api.env.RATE_LIMIT_PER_MINUTE));
    const { rows } = await db.owner.query<{ n: number }>(
      "select coalesce(sum(hits), 0)::int as n from app_private.rate_limit_slots where key_id = $1",
      [alice.id],
    );
    assert.ok((rows[0]?.n ?? 0) >= 2, "counted under the user");
  });

  it("has SQL refuse an ended session on its own: begin_request raises SWSES", async () => {
    const session = await signIn(api, alice.email);
    const credential = { prefix: SESSION_CREDENTIAL_PREFIX, hash: createHash("sha256").update(session.token).digest() };
    const userId = await withRequestTransaction(api.pool, credential, ["projects:write"], async (client) => {
      const { rows } = await client.query<{ id: string }>("select app_public.current_user_id() as id");
      return rows[0]?.id;
    });
    assert.equal(userId, alice.id, "every scope, the session's user");
    await db.owner.query("delete from app_private.sessions where id = $1", [credential.hash]);
    await assert.rejects(
      withRequestTransaction(api.pool, credential, [], async () => {}),
      (error: { code?: string }) => error.code === "SWSES",
    );
  });

  it("uses the key when a request has both a key and a cookie", async () => {
    const session = await signIn(api, alice.email);
    const res = await session.request<{ id: string }>("POST", "/projects", {
      key: bob.key,
      body: { name: "Keyed", customer: "C" },
    });
    assert.equal(res.status, 201, "no CSRF token needed: the key authenticates");
    const { rows } = await db.owner.query<{ user_id: string }>(
      "select user_id from app_public.projects where id = $1",
      [res.body.id],
    );
    assert.equal(rows[0]?.user_id, bob.id);
  });

  it("is refused by the operator's GraphQL, which takes keys only", async () => {
    const session = await signIn(api, alice.email);
    const res = await session.request("POST", "/ops/graphql", { body: { query: "{ __typename }" }, csrf: true });
    assertError(res, 401, "api_key_missing");
  });
});

describe("signing out and expiry", () => {
  it("ends the session everywhere at once: the other API process refuses the cookie next", async () => {
    const session = await signIn(api, alice.email);
    const elsewhere = withSession(other, session.token, session.csrfToken);
    assert.equal((await elsewhere.request("GET", "/projects")).status, 200);

    assertError(await session.request("DELETE", SESSION), 403, "csrf_token_invalid");
    const out = await session.request("DELETE", SESSION, { csrf: true });
    assert.equal(out.status, 204);
    assert.match(out.headers.getSetCookie().join("\n"), /swarf_session=;.*Expires=Thu, 01 Jan 1970/);
    assert.equal((await sessionRow(session.token)).rows.length, 0, "the row is gone");

    assertError(await elsewhere.request("GET", "/projects"), 401, "not_signed_in");
    assertError(await elsewhere.request("GET", SESSION), 401, "not_signed_in");
    assertError(await session.request("GET", "/projects"), 401, "not_signed_in");
  });

  it("ends an idle session, and one past its absolute expiry however busy", async () => {
    const idle = await signIn(api, alice.email);
    await db.owner.query(
      "update app_private.sessions set last_seen_at = now() - interval '8 hours 1 minute' where id = sha256($1::bytea)",
      [Buffer.from(idle.token)],
    );
    assertError(await idle.request("GET", SESSION), 401, "not_signed_in");
    assertError(await idle.request("GET", "/projects"), 401, "not_signed_in");

    const old = await signIn(api, alice.email);
    await db.owner.query(
      "update app_private.sessions set expires_at = now() - interval '1 second' where id = sha256($1::bytea)",
      [Buffer.from(old.token)],
    );
    assertError(await old.request("GET", "/projects"), 401, "not_signed_in");

    // seen within the idle time: still live, and last_seen_at moves at most once a minute
    const busy = await signIn(api, alice.email);
    await db.owner.query(
      "update app_private.sessions set last_seen_at = now() - interval '7 hours' where id = sha256($1::bytea)",
      [Buffer.from(busy.token)],
    );
    assert.equal((await busy.request("GET", SESSION)).status, 200);
    const seen = (await sessionRow(busy.token)).rows[0]?.last_seen_at;
    assert.ok(seen && Date.now() - seen.getTime() < 10_000, "a request renews the idle time");
    assert.equal((await busy.request("GET", SESSION)).status, 200);
    assert.equal(
      (await sessionRow(busy.token)).rows[0]?.last_seen_at.getTime(),
      seen.getTime(),
      "not rewritten within a minute",
    );
  });

  it("has the prune task delete ended sessions and links a day past expiry, keeping live ones", async () => {
    const live = await signIn(api, alice.email);
    const ended = await signIn(api, alice.email);
    await db.owner.query(
      "update app_private.sessions set last_seen_at = now() - interval '9 hours' where id = sha256($1::bytea)",
      [Buffer.from(ended.token)],
    );
    const link = newToken();
    const fresh = newToken();
    await db.owner.query(
      `insert into app_private.login_links (token_hash, user_id, expires_at)
         values (sha256($1::bytea), $3, now() - interval '2 days'), (sha256($2::bytea), $3, now() + interval '15 minutes')`,
      [Buffer.from(link), Buffer.from(fresh), alice.id],
    );
    const pruned = await pruneRateLimitSlots(db.owner, 3600);
    assert.ok(pruned >= 2, `pruned ${pruned}`);
    assert.equal((await sessionRow(ended.token)).rows.length, 0);
    assert.equal((await sessionRow(live.token)).rows.length, 1);
    const { rows } = await db.owner.query<{ n: number }>(
      "select count(*)::int as n from app_private.login_links where token_hash in (sha256($1::bytea), sha256($2::bytea))",
      [Buffer.from(link), Buffer.from(fresh)],
    );
    assert.equal(rows[0]?.n, 1, "only the fresh link is left");
  });

  it("is ended by deleting the user", async () => {
    const carol = await createTestUser(db.owner, "carol");
    await givePassword(db.owner, carol.id);
    const session = await signIn(api, carol.email);
    await db.owner.query("delete from app_public.users where id = $1", [carol.id]);
    assert.equal((await sessionRow(session.token)).rows.length, 0);
    const { rows } = await db.owner.query("select 1 from app_private.user_passwords where user_id = $1", [carol.id]);
    assert.equal(rows.length, 0);
  });
});
