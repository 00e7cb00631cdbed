import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { newToken, tokenHash } from "../../auth/session-token.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { createLoginLink } from "../../scripts/cli/sign-in.ts";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { givePassword, setCookieValue, TEST_PASSWORD, withSession } from "../../test/support/sessions.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

const SESSION = `${APP_ROUTES_PATH}/session`;
const LINK = `${APP_ROUTES_PATH}/session/link`;

let db: TestDatabase;
/** 3 failures per account, 5 per address, in a 60 s window */
let api: TestApi;
let alice: TestUser;

function assertError(res: { status: number; body: unknown }, status: number, code: string): ErrorBody {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const body = res.body as ErrorBody;
  assert.equal(body.detail.code, code);
  return body;
}

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, {
    env: {
      SIGN_IN_FAILURES_PER_ACCOUNT: "3",
      SIGN_IN_FAILURES_PER_ADDRESS: "5",
      SIGN_IN_FAILURE_WINDOW_SECONDS: "60",
      TRUST_PROXY: "loopback",
    },
  });
  alice = await createTestUser(db.owner, "alice");
  await givePassword(db.owner, alice.id);
});
after(async () => {
  await api.close();
  await db.drop();
});

/** a sign-in from the given client address (X-Forwarded-For through the trusted loopback proxy) */
function attempt(email: string, password: string, address: string) {
  return api.request<ErrorBody>("POST", SESSION, {
    body: { email, password },
    headers: { "X-Forwarded-For": address },
  });
}

describe("failed sign-ins", () => {
  it("blocks an account after its limit, from any address, even with the right password: 429 with Retry-After", async () => {
    for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) {
      assertError(await attempt(alice.email, "wrong password", address), 401, "sign_in_failed");
    }
    const blocked = await attempt(alice.email.toUpperCase(), TEST_PASSWORD, "10.0.0.4");
    const body = assertError(blocked, 429, "validation_error");
    const retry = Number(blocked.headers.get("retry-after"));
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.equal(body.detail.details.retry_after_seconds, retry);
    assert.equal(body.detail.details.bucket, "failed_sign_ins_per_account");
    assert.equal(body.detail.details.limit, 3);
    assert.equal(setCookieValue(blocked), undefined);

    // another account from those addresses is not blocked
    const bob = await createTestUser(db.owner, "bob");
    await givePassword(db.owner, bob.id);
    assert.equal((await attempt(bob.email, TEST_PASSWORD, "10.0.0.1")).status, 200);

    // the window passes (the slots are moved back): the account signs in again
    await db.owner.query(
      "update app_private.sign_in_failure_slots set slot_start = slot_start - interval '2 minutes' where subject = $1",
      [`account:${alice.email.toLowerCase()}`],
    );
    assert.equal((await attempt(alice.email, TEST_PASSWORD, "10.0.0.4")).status, 200);
  });

  it("blocks an address after its limit, for every account, unknown emails counted too", async () => {
    const address = "10.9.9.9";
    for (let i = 0; i < 5; i++) {
      assertError(await attempt(`nobody${i}@example.com`, "whatever it is", address), 401, "sign_in_failed");
    }
    const blocked = await attempt(alice.email, TEST_PASSWORD, address);
    const body = assertError(blocked, 429, "validation_error");
    assert.equal(body.detail.details.bucket, "failed_sign_ins_per_address");
    assert.ok(Number(blocked.headers.get("retry-after")) >= 1);
    assertError(
      await api.request("POST", LINK, { body: { token: newToken() }, headers: { "X-Forwarded-For": address } }),
      429,
      "validation_error",
    );
    assert.equal((await attempt(alice.email, TEST_PASSWORD, "10.9.9.8")).status, 200, "other addresses pass");
  });
});

describe("login links", () => {
  it("signs in once; used, expired and unknown links get 401 sign_in_link_invalid", async () => {
    const url = await createLoginLink(db.owner, alice.id, { PUBLIC_BASE_URL: undefined, PORT: 8080 });
    const match = /^http:\/\/localhost:8080\/sign-in\/link#([A-Za-z0-9_-]{43})$/.exec(url);
    assert.ok(match?.[1], url);
    const token = match[1];
    const { rows } = await db.owner.query<{ minutes: number }>(
      "select extract(epoch from expires_at - created_at) / 60 as minutes from app_private.login_links where token_hash = $1",
      [tokenHash(token)],
    );
    assert.equal(Number(rows[0]?.minutes), 15);

    const res = await api.request<{ user: { id: string }; csrf_token: string }>("POST", LINK, { body: { token } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.user.id, alice.id);
    const cookie = setCookieValue(res);
    assert.ok(cookie);
    const session = withSession(api, cookie, res.body.csrf_token);
    assert.equal((await session.request("GET", "/projects")).status, 200);

    const reused = assertError(await api.request("POST", LINK, { body: { token } }), 401, "sign_in_link_invalid");
    assert.match(reused.detail.message, /ask for a new link/);

    const expiredUrl = await createLoginLink(db.owner, alice.id, {
      PUBLIC_BASE_URL: "https://cam.example.com/swarf",
      PORT: 8080,
    });
    assert.match(expiredUrl, /^https:\/\/cam\.example\.com\/swarf\/sign-in\/link#/);
    const expired = expiredUrl.split("#")[1] ?? "";
    await db.owner.query(
      "update app_private.login_links set expires_at = now() - interval '1 second' where token_hash = $1",
      [tokenHash(expired)],
    );
    assertError(await api.request("POST", LINK, { body: { token: expired } }), 401, "sign_in_link_invalid");
    assertError(await api.request("POST", LINK, { body: { token: newToken() } }), 401, "sign_in_link_invalid");
    assertError(await api.request("POST", LINK, { body: { token: "short" } }), 401, "sign_in_link_invalid");
    assertError(await api.request("POST", LINK, { body: {} }), 400, "invalid_parameter");
    assertError(
      await api.request("POST", LINK, { body: { token }, headers: { Origin: "https://evil.example" } }),
      403,
      "cross_site_request",
    );
  });

  it("is used once under two racing redemptions", async () => {
    for (let round = 0; round < 5; round++) {
      const url = await createLoginLink(db.owner, alice.id, { PUBLIC_BASE_URL: undefined, PORT: 8080 });
      const token = url.split("#")[1] ?? "";
      const results = await Promise.all([
        api.request("POST", LINK, { body: { token }, headers: { "X-Forwarded-For": `10.1.0.${round}` } }),
        api.request("POST", LINK, { body: { token }, headers: { "X-Forwarded-For": `10.1.0.${round}` } }),
        api.request("POST", LINK, { body: { token }, headers: { "X-Forwarded-For": `10.1.0.${round}` } }),
      ]);
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 401, 401], `round ${round}`);
    }
  });
});
