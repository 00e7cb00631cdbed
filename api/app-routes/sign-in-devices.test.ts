/**
 * Device cookies through the real API: a guesser who knows only an email fills the account's
 * limit of failed sign-ins, and the owner's browser, which has signed in before, still signs in.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DEVICE_COOKIE, newToken, tokenHash } from "../../auth/session-token.ts";
import { pruneRateLimitSlots } from "../../db/queries/rate-limits.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { createLoginLink } from "../../scripts/cli/sign-in.ts";
import type { TestResponse } from "../../test/support/api.ts";
import { startTestApi, type TestApi } from "../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../test/support/database.ts";
import { givePassword, setCookieValue, TEST_PASSWORD } from "../../test/support/sessions.ts";
import { createTestUser, type TestUser } from "../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; details: Record<string, unknown> };
}

const SESSION = `${APP_ROUTES_PATH}/session`;
const WRONG = "not the password";

let db: TestDatabase;
/** 3 failures per account, 3 per device, 6 per address, in a 60 s window */
let api: TestApi;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, {
    env: {
      SIGN_IN_FAILURES_PER_ACCOUNT: "3",
      SIGN_IN_FAILURES_PER_DEVICE: "3",
      SIGN_IN_FAILURES_PER_ADDRESS: "6",
      SIGN_IN_FAILURE_WINDOW_SECONDS: "60",
      TRUST_PROXY: "loopback",
    },
  });
});
after(async () => {
  await api.close();
  await db.drop();
});

/** a sign-in from that client address, with a device cookie when given */
function attempt(email: string, password: string, address: string, device?: string): Promise<TestResponse<ErrorBody>> {
  const headers: Record<string, string> = { "X-Forwarded-For": address };
  if (device !== undefined) headers.Cookie = `${DEVICE_COOKIE}=${device}`;
  return api.request<ErrorBody>("POST", SESSION, { body: { email, password }, headers });
}

function deviceCookieLine(res: TestResponse): string | undefined {
  return res.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
}

function deviceCookie(res: TestResponse): string {
  const value = deviceCookieLine(res)
    ?.slice(DEVICE_COOKIE.length + 1)
    .split(";")[0];
  assert.ok(value, "the sign-in sets the device cookie");
  return value;
}

function assertBlocked(res: TestResponse<ErrorBody>, bucket: string): void {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.body.detail.details.bucket, bucket);
  assert.equal(setCookieValue(res), undefined);
  assert.equal(deviceCookieLine(res), undefined);
}

async function newUser(label: string): Promise<TestUser> {
  const user = await createTestUser(db.owner, label);
  await givePassword(db.owner, user.id);
  return user;
}

/** a browser that has signed in as the user: its device cookie */
async function ownersBrowser(user: TestUser, address: string): Promise<string> {
  const res = await attempt(user.email, TEST_PASSWORD, address);
  assert.equal(res.status, 200, res.text);
  return deviceCookie(res);
}

/** a guesser's wrong passwords from addresses of their own, until the account is at its limit */
async function lockAccount(user: TestUser, addressPrefix: string): Promise<void> {
  for (let i = 1; i <= 3; i++) {
    assert.equal((await attempt(user.email, WRONG, `${addressPrefix}.${i}`)).status, 401);
  }
  assertBlocked(await attempt(user.email, TEST_PASSWORD, `${addressPrefix}.9`), "failed_sign_ins_per_account");
}

async function deviceRow(token: string) {
  const { rows } = await db.owner.query<{ user_id: string; failures: number; days: number }>(
    `select user_id, failures, extract(epoch from expires_at - created_at) / 86400 as days
       from app_private.sign_in_devices where token_hash = $1`,
    [tokenHash(token)],
  );
  return rows[0];
}

async function accountFailures(user: TestUser): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select coalesce(sum(failures), 0)::int as n from app_private.sign_in_failure_slots where subject = $1",
    [`account:${user.email.toLowerCase()}`],
  );
  return rows[0]?.n ?? 0;
}

describe("device cookies", () => {
  it("let the owner's browser sign in while a guesser keeps the account locked for everyone else", async () => {
    const alice = await newUser("alice");
    const first = await attempt(alice.email, TEST_PASSWORD, "10.1.0.1");
    assert.equal(first.status, 200, first.text);
    const line = deviceCookieLine(first) ?? "";
    assert.match(line, /; HttpOnly/i);
    assert.match(line, /; SameSite=Lax/i);
    assert.match(line, /; Path=\//);
    assert.doesNotMatch(line, /; Secure/i, "plain http");
    const expires = Date.parse(/; Expires=([^;]+)/i.exec(line)?.[1] ?? "");
    const days = (expires - Date.now()) / 86_400_000;
    assert.ok(days > 89.9 && days <= 90, `expires in ${days} days`);
    const device = deviceCookie(first);
    const row = await deviceRow(device);
    assert.equal(row?.user_id, alice.id, "stored as its SHA-256, bound to the user");
    assert.equal(Number(row?.days), 90);

    await lockAccount(alice, "10.2.0");
    assertBlocked(await attempt(alice.email, TEST_PASSWORD, "10.1.0.1"), "failed_sign_ins_per_account");

    // the owner's browser: its typo counts against the device, not the account
    const typo = await attempt(alice.email, WRONG, "10.1.0.1", device);
    assert.equal(typo.status, 401, typo.text);
    assert.equal(typo.body.detail.code, "sign_in_failed");
    assert.equal(await accountFailures(alice), 3);
    assert.equal((await deviceRow(device))?.failures, 1);
    const back = await attempt(alice.email.toUpperCase(), TEST_PASSWORD, "10.1.0.1", device);
    assert.equal(back.status, 200, back.text);
    assert.ok(setCookieValue(back), "a session");

    // each sign-in replaces the device token: the old one is gone, the new one has no failures
    const next = deviceCookie(back);
    assert.notEqual(next, device);
    assert.equal(await deviceRow(device), undefined);
    assert.equal((await deviceRow(next))?.failures, 0);
    assertBlocked(await attempt(alice.email, TEST_PASSWORD, "10.1.0.1", device), "failed_sign_ins_per_account");
    const again = await attempt(alice.email, TEST_PASSWORD, "10.1.0.1", next);
    assert.equal(again.status, 200);

    // over https (through the trusted proxy) the device cookie is Secure, as the session's is
    const secure = await api.request("POST", SESSION, {
      body: { email: alice.email, password: TEST_PASSWORD },
      headers: {
        "X-Forwarded-For": "10.1.0.1",
        "X-Forwarded-Proto": "https",
        Cookie: `${DEVICE_COOKIE}=${deviceCookie(again)}`,
      },
    });
    assert.equal(secure.status, 200);
    assert.match(deviceCookieLine(secure) ?? "", /; Secure/i);
  });

  it("of another user does not lift the account's limit, and is left as it was", async () => {
    const bob = await newUser("bob");
    const carol = await newUser("carol");
    const bobs = await ownersBrowser(bob, "10.3.0.1");
    await lockAccount(carol, "10.3.1");
    assertBlocked(await attempt(carol.email, TEST_PASSWORD, "10.3.0.1", bobs), "failed_sign_ins_per_account");
    assertBlocked(await attempt(carol.email, WRONG, "10.3.0.1", bobs), "failed_sign_ins_per_account");
    assert.equal((await deviceRow(bobs))?.failures, 0);
    assert.equal((await attempt(bob.email, TEST_PASSWORD, "10.3.0.1", bobs)).status, 200);
  });

  it("forged, unknown or malformed is ignored", async () => {
    const dave = await newUser("dave");
    await ownersBrowser(dave, "10.4.0.1");
    await lockAccount(dave, "10.4.1");
    for (const forged of [newToken(), "not-a-token", "", `${"A".repeat(43)}`]) {
      assertBlocked(await attempt(dave.email, TEST_PASSWORD, "10.4.0.1", forged), "failed_sign_ins_per_account");
    }
    const { rows } = await db.owner.query<{ n: number }>(
      "select count(*)::int as n from app_private.sign_in_devices where user_id = $1",
      [dave.id],
    );
    assert.equal(rows[0]?.n, 1, "only the real browser's");
  });

  it("is revoked after its own limit of failures; its next attempt is a stranger's", async () => {
    const erin = await newUser("erin");
    const device = await ownersBrowser(erin, "10.5.0.1");
    await lockAccount(erin, "10.5.1");
    for (let i = 1; i <= 3; i++) {
      assert.equal((await attempt(erin.email, WRONG, "10.5.0.1", device)).status, 401);
    }
    assert.equal((await deviceRow(device))?.failures, 3);
    assertBlocked(await attempt(erin.email, TEST_PASSWORD, "10.5.0.1", device), "failed_sign_ins_per_account");
    assert.equal(await deviceRow(device), undefined, "revoked");
    assert.equal(await accountFailures(erin), 3);
  });

  it("is counted before the password is checked: concurrent guesses do not overrun its limit", async () => {
    const fay = await newUser("fay");
    const device = await ownersBrowser(fay, "10.5.5.1");
    await lockAccount(fay, "10.5.6");
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => attempt(fay.email, WRONG, `10.5.5.${10 + i}`, device)),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
    assert.equal(await deviceRow(device), undefined);
  });

  it("does not lift the address's limit, and a refused attempt does not use up the device", async () => {
    const gina = await newUser("gina");
    const device = await ownersBrowser(gina, "10.6.0.1");
    for (let i = 0; i < 6; i++) {
      assert.equal((await attempt(`nobody${i}@example.com`, WRONG, "10.6.0.2")).status, 401);
    }
    assertBlocked(await attempt(gina.email, TEST_PASSWORD, "10.6.0.2", device), "failed_sign_ins_per_address");
    assertBlocked(await attempt(gina.email, WRONG, "10.6.0.2", device), "failed_sign_ins_per_address");
    assert.equal((await deviceRow(device))?.failures, 0);
    assert.equal((await attempt(gina.email, TEST_PASSWORD, "10.6.0.3", device)).status, 200);
  });

  it("expires in SQL, and the prune task deletes the expired ones", async () => {
    const hank = await newUser("hank");
    const expired = await ownersBrowser(hank, "10.7.0.1");
    const live = await ownersBrowser(hank, "10.7.0.2");
    await db.owner.query(
      "update app_private.sign_in_devices set expires_at = now() - interval '1 second' where token_hash = $1",
      [tokenHash(expired)],
    );
    await lockAccount(hank, "10.7.1");
    assertBlocked(await attempt(hank.email, TEST_PASSWORD, "10.7.0.1", expired), "failed_sign_ins_per_account");
    assert.ok(await deviceRow(expired), "an expired token is not counted against, only ignored");

    const pruned = await pruneRateLimitSlots(db.owner, 3600);
    assert.ok(pruned >= 1, `pruned ${pruned}`);
    assert.equal(await deviceRow(expired), undefined);
    assert.ok(await deviceRow(live));
    assert.equal((await attempt(hank.email, TEST_PASSWORD, "10.7.0.2", live)).status, 200);
  });

  it("is set by a login link, revoked by a new password and deleted with the user", async () => {
    const ida = await newUser("ida");
    const url = await createLoginLink(db.owner, ida.id, { PUBLIC_BASE_URL: undefined, PORT: 8080 });
    const linked = await api.request("POST", `${SESSION}/link`, {
      body: { token: url.split("#")[1] },
      headers: { "X-Forwarded-For": "10.8.0.1" },
    });
    assert.equal(linked.status, 200, linked.text);
    const fromLink = deviceCookie(linked);
    assert.equal((await deviceRow(fromLink))?.user_id, ida.id);

    await givePassword(db.owner, ida.id);
    assert.equal(await deviceRow(fromLink), undefined, "a new password revokes the devices");

    const device = await ownersBrowser(ida, "10.8.0.1");
    await db.owner.query("delete from app_public.users where id = $1", [ida.id]);
    assert.equal(await deviceRow(device), undefined);
  });
});
