import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import { expireIdempotencyRecords } from "../../../db/queries/idempotency.ts";
import { insertProject } from "../../../db/queries/projects.ts";
import { startTestApi, type TestApi } from "../../../test/support/api.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/support/database.ts";
import { createTestUser, type TestUser } from "../../../test/support/users.ts";
import { json } from "../../reply.ts";
import { defineRoute, type RouteSpec } from "../../route.ts";
import { routes as defaultRoutes } from "../../routes/index.ts";
import { NoQuery } from "../../schemas/common.ts";

interface Project {
  id: string;
  name: string;
  customer: string;
  product_id: string;
}

interface ErrorBody {
  detail: { code: string; message: string; details: Record<string, unknown> };
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A held call of /test/held: `entered` once its project is inserted, then it waits for `release`. */
interface Hold {
  entered: Deferred;
  release: Deferred;
}

/** each call of /test/held takes the next hold, if any, and otherwise runs straight through */
const holds: Hold[] = [];
/** every hold ever made, so that after() can let a handler go that a failed test left waiting */
const allHolds: Hold[] = [];

function holdNextCall(): Hold {
  const hold = { entered: deferred(), release: deferred() };
  holds.push(hold);
  allHolds.push(hold);
  return hold;
}

const NameBody = z.strictObject({ name: z.string().min(1).max(200) });

const testRoutes: readonly RouteSpec[] = [
  ...defaultRoutes,
  defineRoute({
    method: "post",
    path: "/test/held",
    operationId: "testHeld",
    summary: "inserts a project, then waits until the test releases it",
    tag: "Test",
    scopes: ["projects:write"],
    query: NoQuery,
    body: NameBody,
    idempotent: true,
    responses: { 201: { description: "the project's id" } },
    async handler({ db, body }) {
      const row = await insertProject(db, { name: body.name, customer: "held" });
      const hold = holds.shift();
      if (hold) {
        hold.entered.resolve();
        await hold.release.promise;
      }
      return json(201, { id: row.id });
    },
  }),
  defineRoute({
    method: "post",
    path: "/test/fails-after-work",
    operationId: "testFailsAfterWork",
    summary: "inserts a project, then throws",
    tag: "Test",
    scopes: ["projects:write"],
    query: NoQuery,
    body: NameBody,
    idempotent: true,
    responses: { 201: { description: "never" } },
    async handler({ db, body }) {
      await insertProject(db, { name: body.name, customer: "doomed" });
      throw new Error("the handler failed after its work");
    },
  }),
  defineRoute({
    method: "post",
    path: "/test/fails-at-commit",
    operationId: "testFailsAtCommit",
    summary: "inserts a project and a row that breaks a deferred constraint: the response is stored, the commit fails",
    tag: "Test",
    scopes: ["projects:write"],
    query: NoQuery,
    body: NameBody,
    idempotent: true,
    responses: { 201: { description: "never reaches the client" } },
    async handler({ db, body }) {
      const row = await insertProject(db, { name: body.name, customer: "commit fails" });
      await db.query("insert into app_public.test_deferred_unique (n) values (1), (1)");
      return json(201, { id: row.id });
    },
  }),
];

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { routes: testRoutes });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  // checked only at COMMIT, after the handler's response has been stored in its transaction
  await db.owner.query(
    "create table app_public.test_deferred_unique (n integer, constraint test_deferred_unique_n unique (n) deferrable initially deferred)",
  );
  await db.owner.query(`grant insert on app_public.test_deferred_unique to ${api.env.APP_DB_ROLE}`);
});
after(async () => {
  // a failed test must not leave a handler waiting
  for (const hold of allHolds) hold.release.resolve();
  await api.close();
  await db.drop();
});

function freshKey(): string {
  return `key-${randomUUID()}`;
}

function uniqueName(label: string): string {
  return `${label} ${randomUUID()}`;
}

async function projectsNamed(user: TestUser, name: string): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select count(*)::integer as n from app_public.projects where user_id = $1 and name = $2",
    [user.id, name],
  );
  return rows[0]!.n;
}

interface RecordRow {
  state: string;
  locked_until: Date | null;
  created_at: Date;
  expires_at: Date;
}

async function recordOf(user: TestUser, key: string): Promise<RecordRow | undefined> {
  const { rows } = await db.owner.query<RecordRow>(
    "select state, locked_until, created_at, expires_at from app_private.idempotency_records where user_id = $1 and idempotency_key = $2",
    [user.id, key],
  );
  return rows[0];
}

function createProject(user: TestUser, key: string, body: unknown) {
  return api.request<Project>("POST", "/projects", { key: user.key, body, headers: { "Idempotency-Key": key } });
}

describe("idempotency", () => {
  it("replays the first response byte for byte, with its Location and Idempotency-Replayed: true, and creates one project", async () => {
    const key = freshKey();
    const name = uniqueName("Replayed");
    const first = await createProject(alice, key, { name, customer: "ACME" });
    assert.equal(first.status, 201);
    assert.equal(first.headers.get("idempotency-replayed"), null, "the first response is not a replay");
    const location = first.headers.get("location");
    assert.equal(location, `/backend-api/api/public/v1/projects/${first.body.id}`);

    const second = await createProject(alice, key, { name, customer: "ACME" });
    assert.equal(second.status, 201);
    assert.equal(second.text, first.text, "identical body bytes");
    assert.equal(second.headers.get("location"), location);
    assert.equal(second.headers.get("content-type"), first.headers.get("content-type"));
    assert.equal(second.headers.get("idempotency-replayed"), "true");
    assert.notEqual(
      second.headers.get("x-request-id"),
      first.headers.get("x-request-id"),
      "the request id is this response's own",
    );
    assert.ok(second.headers.get("x-ratelimit-remaining"), "the replay carries this request's rate-limit headers");
    assert.equal(await projectsNamed(alice, name), 1);
  });

  it("replays a repeat whose body has the same keys in another order", async () => {
    const key = freshKey();
    const name = uniqueName("Reordered");
    const first = await createProject(alice, key, { name, customer: "ACME", notes: "n" });
    assert.equal(first.status, 201);
    const reordered = await api.request<Project>("POST", "/projects", {
      key: alice.key,
      raw: { body: JSON.stringify({ notes: "n", customer: "ACME", name }), contentType: "application/json" },
      headers: { "Idempotency-Key": key },
    });
    assert.equal(reordered.status, 201);
    assert.equal(reordered.headers.get("idempotency-replayed"), "true");
    assert.equal(reordered.text, first.text);
    assert.equal(await projectsNamed(alice, name), 1);
  });

  it("keeps a record for 24 hours", async () => {
    const key = freshKey();
    assert.equal((await createProject(alice, key, { name: uniqueName("Kept"), customer: "C" })).status, 201);
    const record = await recordOf(alice, key);
    assert.equal(record?.state, "completed");
    assert.equal(record.locked_until, null);
    assert.equal(record.expires_at.getTime() - record.created_at.getTime(), 24 * 3600 * 1000);
  });

  it("answers 422 idempotency_key_reused to the same key with another body, and creates nothing", async () => {
    const key = freshKey();
    const name = uniqueName("Original");
    assert.equal((await createProject(alice, key, { name, customer: "ACME" })).status, 201);
    const otherName = uniqueName("Other");
    const reused = await createProject(alice, key, { name: otherName, customer: "ACME" });
    assert.equal(reused.status, 422);
    assert.equal((reused.body as unknown as ErrorBody).detail.code, "idempotency_key_reused");
    assert.equal(reused.headers.get("idempotency-replayed"), null);
    assert.equal(await projectsNamed(alice, otherName), 0);
    assert.equal(await projectsNamed(alice, name), 1);
  });

  it("answers 422 idempotency_key_reused to the same key on another route", async () => {
    const key = freshKey();
    const name = uniqueName("Route");
    assert.equal((await createProject(alice, key, { name, customer: "ACME" })).status, 201);
    const elsewhere = await api.request<ErrorBody>("POST", "/test/held", {
      key: alice.key,
      body: { name },
      headers: { "Idempotency-Key": key },
    });
    assert.equal(elsewhere.status, 422);
    assert.equal(elsewhere.body.detail.code, "idempotency_key_reused");
    assert.equal(await projectsNamed(alice, name), 1);
  });

  it("answers 409 idempotency_request_in_flight to a duplicate sent while the first still runs", async () => {
    const key = freshKey();
    const name = uniqueName("In flight");
    const hold = holdNextCall();
    const send = () =>
      api.request<{ id: string }>("POST", "/test/held", {
        key: alice.key,
        body: { name },
        headers: { "Idempotency-Key": key },
      });
    const first = send();
    await hold.entered.promise;

    const duplicate = await send();
    assert.equal(duplicate.status, 409);
    assert.equal((duplicate.body as unknown as ErrorBody).detail.code, "idempotency_request_in_flight");
    const retryAfter = Number(duplicate.headers.get("retry-after"));
    assert.ok(
      retryAfter >= 1 && retryAfter <= api.env.IDEMPOTENCY_CLAIM_LEASE_SECONDS,
      `Retry-After ${duplicate.headers.get("retry-after")}`,
    );
    assert.equal((duplicate.body as unknown as ErrorBody).detail.details.retry_after_seconds, retryAfter);
    assert.equal((await recordOf(alice, key))?.state, "in_flight", "the duplicate leaves the first one's claim alone");

    hold.release.resolve();
    const done = await first;
    assert.equal(done.status, 201);
    assert.equal(done.headers.get("idempotency-replayed"), null);

    const later = await send();
    assert.equal(later.status, 201);
    assert.equal(later.headers.get("idempotency-replayed"), "true");
    assert.equal(later.body.id, done.body.id);
    assert.equal(await projectsNamed(alice, name), 1);
  });

  it("releases the key when the request fails, so a corrected retry with the same key succeeds", async () => {
    const key = freshKey();
    const name = uniqueName("Corrected");
    const failed = await createProject(alice, key, { name, customer: "ACME", product_id: "nope" });
    assert.equal(failed.status, 400);
    assert.equal((failed.body as unknown as ErrorBody).detail.code, "invalid_parameter");
    assert.equal(await recordOf(alice, key), undefined, "no record is left for the failed request");
    assert.equal(await projectsNamed(alice, name), 0);

    const retried = await createProject(alice, key, { name, customer: "ACME" });
    assert.equal(retried.status, 201);
    assert.equal(retried.headers.get("idempotency-replayed"), null, "a fresh run, not a replay of the failure");
    assert.equal(retried.body.product_id, "vmc-850-fanuc");
    assert.equal(await projectsNamed(alice, name), 1);
  });

  it("gives another user using the same key string a fresh result of their own", async () => {
    const key = freshKey();
    const name = uniqueName("Shared key");
    const alices = await createProject(alice, key, { name, customer: "ACME" });
    assert.equal(alices.status, 201);
    const bobs = await createProject(bob, key, { name, customer: "ACME" });
    assert.equal(bobs.status, 201);
    assert.equal(bobs.headers.get("idempotency-replayed"), null);
    assert.notEqual(bobs.body.id, alices.body.id);
    assert.equal(await projectsNamed(alice, name), 1);
    assert.equal(await projectsNamed(bob, name), 1);
    // and another body under the same key string is no conflict across users either
    const bobsOther = await createProject(bob, freshKey(), { name: uniqueName("x"), customer: "B" });
    assert.equal(bobsOther.status, 201);
    const bobsReplay = await createProject(bob, key, { name, customer: "ACME" });
    assert.equal(bobsReplay.headers.get("idempotency-replayed"), "true");
    assert.equal(bobsReplay.body.id, bobs.body.id, "each user replays their own response");
  });

  for (const [label, key] of [
    ["300 characters", "k".repeat(300)],
    ["a non-ASCII character", "clé-1"],
    ["a space", "two words"],
  ] as const) {
    it(`answers 400 invalid_parameter to an Idempotency-Key with ${label}, and creates nothing`, async () => {
      const name = uniqueName("Bad key");
      const res = await createProject(alice, key, { name, customer: "ACME" });
      assert.equal(res.status, 400);
      const body = res.body as unknown as ErrorBody;
      assert.equal(body.detail.code, "invalid_parameter");
      assert.deepEqual(
        (body.detail.details.fields as { field: string }[]).map((f) => f.field),
        ["header.Idempotency-Key"],
      );
      assert.equal(await projectsNamed(alice, name), 0);
    });
  }

  it("accepts a key of exactly 255 characters", async () => {
    const key = `${randomUUID()}${"k".repeat(255 - 36)}`;
    const first = await createProject(alice, key, { name: uniqueName("Long key"), customer: "ACME" });
    assert.equal(first.status, 201);
    assert.equal((await recordOf(alice, key))?.state, "completed");
  });

  it("no longer replays a record past its expiry", async () => {
    const key = freshKey();
    const name = uniqueName("Expired");
    const first = await createProject(alice, key, { name, customer: "ACME" });
    assert.equal(first.status, 201);
    await db.owner.query(
      "update app_private.idempotency_records set expires_at = now() - interval '1 second' where user_id = $1 and idempotency_key = $2",
      [alice.id, key],
    );
    const again = await createProject(alice, key, { name, customer: "ACME" });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get("idempotency-replayed"), null);
    assert.notEqual(again.body.id, first.body.id);
    assert.equal(await projectsNamed(alice, name), 2);
    const record = await recordOf(alice, key);
    assert.ok(record && record.expires_at > new Date(), "the new run has a fresh record");
  });

  it("deletes expired records with expireIdempotencyRecords and keeps live ones", async () => {
    const expired = freshKey();
    const live = freshKey();
    assert.equal((await createProject(alice, expired, { name: uniqueName("E"), customer: "C" })).status, 201);
    assert.equal((await createProject(alice, live, { name: uniqueName("L"), customer: "C" })).status, 201);
    await db.owner.query(
      "update app_private.idempotency_records set expires_at = now() - interval '1 minute' where user_id = $1 and idempotency_key = $2",
      [alice.id, expired],
    );
    const { rows } = await db.owner.query<{ n: number }>(
      "select count(*)::integer as n from app_private.idempotency_records where expires_at <= now()",
    );
    const removed = await expireIdempotencyRecords(db.owner);
    assert.equal(removed, rows[0]!.n);
    assert.ok(removed >= 1);
    assert.equal(await recordOf(alice, expired), undefined);
    assert.equal((await recordOf(alice, live))?.state, "completed");
    assert.equal(await expireIdempotencyRecords(db.owner), 0, "nothing is left to expire");
  });

  it("commits the work with its stored response: a handler that fails after its work leaves neither a project nor a record", async () => {
    const key = freshKey();
    const name = uniqueName("Doomed");
    const send = () =>
      api.request<ErrorBody>("POST", "/test/fails-after-work", {
        key: alice.key,
        body: { name },
        headers: { "Idempotency-Key": key },
      });
    const res = await send();
    assert.equal(res.status, 500);
    assert.equal(res.body.detail.code, "internal_error");
    assert.equal(await projectsNamed(alice, name), 0);
    assert.equal(await recordOf(alice, key), undefined);
    const retried = await send();
    assert.equal(retried.status, 500, "the failure was not stored: the retry runs again");
    assert.equal(retried.headers.get("idempotency-replayed"), null);
  });

  it("commits the stored response with the work: when the commit fails after the response was stored, neither remains", async () => {
    const key = freshKey();
    const name = uniqueName("Commit fails");
    const send = () =>
      api.request<ErrorBody>("POST", "/test/fails-at-commit", {
        key: alice.key,
        body: { name },
        headers: { "Idempotency-Key": key },
      });
    const res = await send();
    assert.equal(res.status, 409);
    assert.equal(res.body.detail.code, "conflict");
    assert.equal(await projectsNamed(alice, name), 0);
    assert.equal(await recordOf(alice, key), undefined, "no stored response outlives the failed commit");
    const retried = await send();
    assert.equal(retried.status, 409, "a retry runs again rather than replaying a response whose work is gone");
    assert.equal(retried.headers.get("idempotency-replayed"), null);
  });

  it("lets a new request take over a claim whose lock has passed, and rolls the old holder's work back", async () => {
    const key = freshKey();
    const name = uniqueName("Taken over");
    const send = () =>
      api.request<{ id: string }>("POST", "/test/held", {
        key: alice.key,
        body: { name },
        headers: { "Idempotency-Key": key },
      });
    const hold = holdNextCall();
    const stale = send();
    await hold.entered.promise;
    // the holder looks dead: its lock ran out
    const { rowCount } = await db.owner.query(
      "update app_private.idempotency_records set locked_until = now() - interval '1 second' where user_id = $1 and idempotency_key = $2 and state = 'in_flight'",
      [alice.id, key],
    );
    assert.equal(rowCount, 1);

    const takeover = await send();
    assert.equal(takeover.status, 201);
    assert.equal(takeover.headers.get("idempotency-replayed"), null);
    assert.equal((await recordOf(alice, key))?.state, "completed");

    hold.release.resolve();
    const lost = await stale;
    assert.equal(lost.status, 409, "the old holder's response can no longer be stored");
    assert.equal((lost.body as unknown as ErrorBody).detail.code, "idempotency_request_in_flight");
    assert.equal(await projectsNamed(alice, name), 1, "only the takeover's project exists");

    const replay = await send();
    assert.equal(replay.headers.get("idempotency-replayed"), "true");
    assert.equal(replay.body.id, takeover.body.id);
  });

  it("takes over a claim left in flight by a dead holder once its lock has passed, and not before", async () => {
    // a finished request gives the method, path and hash a dead holder of the same request had
    const template = freshKey();
    const name = uniqueName("Dead holder");
    const body = { name, customer: "ACME" };
    assert.equal((await createProject(alice, template, body)).status, 201);
    const dead = freshKey();
    const insertClaim = (lockedUntil: string) =>
      db.owner.query(
        `insert into app_private.idempotency_records
           (user_id, idempotency_key, method, path, request_hash, claim_token, state, locked_until)
         select user_id, $3, method, path, request_hash, gen_random_uuid(), 'in_flight', now() + $4::interval
           from app_private.idempotency_records where user_id = $1 and idempotency_key = $2`,
        [alice.id, template, dead, lockedUntil],
      );
    await insertClaim("1 minute");
    const blocked = await createProject(alice, dead, body);
    assert.equal(blocked.status, 409, "a live lock blocks the request");
    assert.equal((blocked.body as unknown as ErrorBody).detail.code, "idempotency_request_in_flight");
    assert.equal(await projectsNamed(alice, name), 1);

    await db.owner.query("delete from app_private.idempotency_records where user_id = $1 and idempotency_key = $2", [
      alice.id,
      dead,
    ]);
    await insertClaim("-1 second");
    const taken = await createProject(alice, dead, body);
    assert.equal(taken.status, 201, "a passed lock lets the request run");
    assert.equal(taken.headers.get("idempotency-replayed"), null);
    assert.equal(await projectsNamed(alice, name), 2);
    const replay = await createProject(alice, dead, body);
    assert.equal(replay.headers.get("idempotency-replayed"), "true");
    assert.equal(replay.body.id, taken.body.id);
  });
});
