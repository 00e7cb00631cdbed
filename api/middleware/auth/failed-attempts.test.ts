import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApi, type TestApi } from "../../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/support/database.ts";
import { createTestUser, type TestUser } from "../../../test/support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown>; request_id: string };
}

let db: TestDatabase;
/** two API processes of one fleet, behind a proxy on loopback that names the client */
let api: TestApi;
let other: TestApi;
let alice: TestUser;

const LIMITS = { AUTH_FAILURES_PER_ADDRESS: "3", AUTH_FAILURE_WINDOW_SECONDS: "60", TRUST_PROXY: "loopback" };
const GUESS = `swarf_live_${"A".repeat(40)}`;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: LIMITS });
  other = await startTestApi(db, { env: LIMITS });
  alice = await createTestUser(db.owner, "guessed");
});
after(async () => {
  await api?.close();
  await other?.close();
  await db?.drop();
});

function from(address: string, key: string | null, target: TestApi = api) {
  return target.request<ErrorBody>("GET", "/projects", { key, headers: { "X-Forwarded-For": address } });
}

describe("key guessing", () => {
  it("is refused with 429 and Retry-After once an address has sent the limit of unknown or malformed keys", async () => {
    assert.equal((await from("203.0.113.1", GUESS)).body.detail.code, "api_key_invalid");
    assert.equal((await from("203.0.113.1", "not-a-key")).body.detail.code, "api_key_malformed");
    assert.equal(
      (await from("203.0.113.1", GUESS)).status,
      401,
      "the third failure is answered, and reaches the limit",
    );
    const refused = await from("203.0.113.1", GUESS);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.detail.code, "validation_error");
    assert.match(refused.body.detail.message, /3 failed API key attempts per 1 minute/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    assert.equal(refused.body.detail.details.retry_after_seconds, retryAfter);
    assert.equal(refused.body.detail.details.bucket, "failed_authentications");
  });

  it("lets a valid key through from a blocked address, even one never used before", async () => {
    for (let i = 0; i < 3; i++) await from("203.0.113.5", GUESS);
    assert.equal((await from("203.0.113.5", GUESS)).status, 429);
    const fresh = await alice.keyWith(["projects:read"]);
    assert.equal(
      (await from("203.0.113.5", fresh)).status,
      200,
      "a never-used valid key is not refused for others' failures",
    );
    assert.equal((await from("203.0.113.5", "not-a-key")).status, 429, "failures from the address are still refused");
    const { rows } = await db.owner.query<{ failures: number }>(
      "select sum(failures)::integer as failures from app_private.auth_failure_slots where host(address) = '203.0.113.5'",
    );
    assert.equal(rows[0]?.failures, 3, "a refused failure and a success add nothing to the count");
  });

  it("counts for the whole fleet: another API process refuses the address after its own first failure", async () => {
    for (let i = 0; i < 3; i++) await from("203.0.113.2", GUESS);
    const first = await from("203.0.113.2", GUESS, other);
    assert.equal(first.status, 401, "the other process learns the count from its own failure");
    assert.equal((await from("203.0.113.2", GUESS, other)).status, 429);
  });

  it("keeps other addresses, missing keys and keys seen to succeed out of it", async () => {
    assert.equal((await from("203.0.113.3", alice.key)).status, 200, "alice's key succeeds from her address");
    for (let i = 0; i < 3; i++) await from("203.0.113.3", GUESS);
    assert.equal((await from("203.0.113.3", GUESS)).status, 429);
    assert.equal((await from("203.0.113.3", alice.key)).status, 200, "a key this process saw succeed still passes");
    assert.equal(
      (await from("203.0.113.3", null)).body.detail.code,
      "api_key_missing",
      "a missing key guesses nothing",
    );
    assert.equal((await from("203.0.113.4", GUESS)).status, 401, "another address is counted on its own");
    const { rows } = await db.owner.query<{ address: string; failures: number }>(
      "select host(address) as address, sum(failures)::integer as failures from app_private.auth_failure_slots group by 1 order by 1",
    );
    assert.deepEqual(
      rows.find((r) => r.address === "203.0.113.4"),
      { address: "203.0.113.4", failures: 1 },
    );
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY names the proxy", async () => {
    const direct = await startTestApi(db, {
      env: { AUTH_FAILURES_PER_ADDRESS: "3", AUTH_FAILURE_WINDOW_SECONDS: "60" },
    });
    try {
      for (let i = 0; i < 3; i++) await from(`198.51.100.${i}`, GUESS, direct);
      const refused = await from("198.51.100.200", GUESS, direct);
      assert.equal(refused.status, 429, "three addresses made up by one client are one address");
    } finally {
      await direct.close();
    }
  });
});
