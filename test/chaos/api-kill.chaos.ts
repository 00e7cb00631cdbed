/**
 * Chaos: an API process is SIGKILLed while it runs a request that holds an Idempotency-Key.
 * Nothing of the request was stored; the client's retry with the same key, sent to another API
 * process, is told in Retry-After when the dead process's claim ends (one lease), and the retry
 * after that runs the request once.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { createTestUser } from "../support/users.ts";
import { ProcessSet, spawnApi } from "./support.ts";

const LEASE_SECONDS = 3;

let db: TestDatabase;
const processes = new ProcessSet();

before(async () => {
  db = await createTestDatabase();
});
after(async () => {
  await processes.stopAll();
  await db?.drop();
});

async function projectsNamed(userId: string, name: string): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select count(*)::int as n from app_public.projects where user_id = $1 and name = $2",
    [userId, name],
  );
  return rows[0]!.n;
}

describe("chaos: an API process killed mid-request", () => {
  it("frees the request's Idempotency-Key within one lease, and says when in Retry-After", async () => {
    const env = { IDEMPOTENCY_CLAIM_LEASE_SECONDS: String(LEASE_SECONDS) };
    const doomed = await spawnApi(processes, db.appUrl, env);
    const survivor = await spawnApi(processes, db.appUrl, env);
    const user = await createTestUser(db.owner, "killed-mid-request");
    const name = `Killed-${randomUUID().slice(0, 8)}`;
    const send = (api: typeof doomed) =>
      api.request<{ id: string; detail?: { code: string; details: { retry_after_seconds?: number } } }>(
        "POST",
        "/projects",
        {
          key: user.key,
          body: { name, customer: "ACME" },
          headers: { "Idempotency-Key": `kill-${name}` },
          timeoutMs: 30_000,
        },
      );

    // the request claims its key, then waits on the projects table, which the owner holds
    const blocker = await db.owner.connect();
    try {
      await blocker.query("begin");
      await blocker.query("lock table app_public.projects in exclusive mode");
      const inFlight = send(doomed);
      for (let waited = 0; ; waited += 50) {
        const { rows } = await db.owner.query(
          "select 1 from app_private.idempotency_records where user_id = $1 and state = 'in_flight'",
          [user.id],
        );
        if (rows.length > 0) break;
        assert.ok(waited < 15_000, "the request claimed its key");
        await sleep(50);
      }
      // a renewal or two while it waits: the claim outlives its first lease
      await sleep(LEASE_SECONDS * 1000 * 1.5);
      const duplicate = await send(survivor);
      assert.equal(duplicate.status, 409, "a live process keeps its claim past one lease");
      await doomed.kill();
      assert.equal((await inFlight).status, 0, "the killed process never answered");
    } finally {
      await blocker.query("rollback");
      blocker.release();
    }

    const retried = await send(survivor);
    assert.equal(retried.status, 409, retried.text);
    assert.equal(retried.body.detail?.code, "idempotency_request_in_flight");
    const retryAfter = Number(retried.headers.get("retry-after"));
    assert.ok(retryAfter >= 1 && retryAfter <= LEASE_SECONDS, `Retry-After ${retried.headers.get("retry-after")}`);
    assert.equal(retried.body.detail?.details.retry_after_seconds, retryAfter);

    await sleep(retryAfter * 1000 + 200);
    const done = await send(survivor);
    assert.equal(done.status, 201, done.text);
    assert.equal(await projectsNamed(user.id, name), 1, "the request ran once, by the retry");
    const replay = await send(survivor);
    assert.equal(replay.headers.get("idempotency-replayed"), "true");
    assert.equal(replay.body.id, done.body.id);
  });
});
