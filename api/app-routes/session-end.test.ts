import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { newToken } from "../../auth/session-token.ts";
import { pruneRateLimitSlots } from "../../db/queries/rate-limits.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { givePassword, signIn, withSession } from "../../test/support/sessions.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

const SESSION = `${APP_ROUTES_PATH}/session`;

let db: TestDatabase;
let api: TestApi;
/** a second API process over the same database */
let other: TestApi;
let alice: TestUser;

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
  await givePassword(db.owner, alice.id);
});
after(async () => {
  await other.close();
  await api.close();
  await db.drop();
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
