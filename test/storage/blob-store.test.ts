/**
 * storage/postgres.ts through the API role: content addressing per user, ownership, deletion,
 * writes that roll back with their request, and a purge racing a request that reuses a blob.
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { insertWorkpiece, saveWorkpiece, workpieceMeta } from "../../db/queries/workpieces.ts";
import { createPool } from "../../db/pools.ts";
import { postgresBlobStore as store } from "../../storage/postgres.ts";
import { asUser } from "../support/as-user.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { partC } from "../support/fixture-workpiece.ts";
import { gate, waitFor } from "../support/task-records.ts";
import { createTestUser, type TestUser } from "../support/users.ts";
import type pg from "pg";

let db: TestDatabase;
let pool: pg.Pool;
let alice: TestUser;
let bob: TestUser;

before(async () => {
  db = await createTestDatabase();
  pool = createPool(db.appUrl, 5, "swarf-test-storage");
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
});
after(async () => {
  await pool.end();
  await db.drop();
});

async function blobsOf(user: TestUser): Promise<number> {
  const { rows } = await db.owner.query<{ n: number }>(
    "select count(*)::int as n from app_private.blobs where user_id = $1",
    [user.id],
  );
  return rows[0]!.n;
}

async function project(user: TestUser, name = "P"): Promise<string> {
  return asUser(pool, user, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      "insert into app_public.projects (name, customer, product_id) values ($1, 'C', 'vmc-850-fanuc') returning id",
      [name],
    );
    return rows[0]!.id;
  });
}

describe("the Postgres blob store", () => {
  it("stores bytes with their hash, size and type, and gives them back to their owner only", async () => {
    const png = (await partC()).png;
    const ref = await asUser(pool, alice, (client) => store.put(client, png, "image/png"));
    assert.equal(ref.sha256, createHash("sha256").update(png).digest("hex"));
    assert.equal(ref.size, png.length);
    assert.equal(ref.contentType, "image/png");
    const got = await asUser(pool, alice, (client) => store.get(client, ref.id));
    assert.ok(got?.bytes.equals(png));
    assert.deepEqual(await asUser(pool, alice, (client) => store.stat(client, ref.id)), ref);
    assert.equal(await asUser(pool, bob, (client) => store.get(client, ref.id)), null);
    assert.equal(await asUser(pool, bob, (client) => store.stat(client, ref.id)), null);
  });

  it("keeps one row per user and content: the same bytes again are the same blob, for another user or type a new one", async () => {
    const bytes = randomBytes(4096);
    const first = await asUser(pool, alice, (client) => store.put(client, bytes, "model/stl"));
    const count = await blobsOf(alice);
    const again = await asUser(pool, alice, (client) => store.put(client, Buffer.from(bytes), "model/stl"));
    assert.equal(again.id, first.id);
    assert.equal(await blobsOf(alice), count);
    const asStep = await asUser(pool, alice, (client) => store.put(client, bytes, "model/step"));
    assert.notEqual(asStep.id, first.id);
    const bobs = await asUser(pool, bob, (client) => store.put(client, bytes, "model/stl"));
    assert.notEqual(bobs.id, first.id, "never shared across users");
    // two requests storing the same new bytes at once end with one row
    const fresh = randomBytes(2048);
    const both = await Promise.all(
      [1, 2].map(() => asUser(pool, alice, (client) => store.put(client, fresh, "model/stl"))),
    );
    assert.equal(both[0]!.id, both[1]!.id);
  });

  it("writes in the request's transaction: a request that fails leaves no blob", async () => {
    const count = await blobsOf(alice);
    await assert.rejects(
      asUser(pool, alice, async (client) => {
        await store.put(client, randomBytes(1000), "image/png");
        throw new Error("the request fails after storing");
      }),
      /fails after storing/,
    );
    assert.equal(await blobsOf(alice), count);
  });

  it("deletes a blob of the caller's that nothing uses, and no other", async () => {
    const part = await partC();
    const loose = await asUser(pool, alice, (client) => store.put(client, randomBytes(100), "image/png"));
    assert.equal(await asUser(pool, bob, (client) => store.delete(client, loose.id)), false, "not bob's");
    assert.equal(await asUser(pool, alice, (client) => store.delete(client, loose.id)), true);
    assert.equal(await asUser(pool, alice, (client) => store.get(client, loose.id)), null);

    const projectId = await project(alice);
    const saved = await asUser(pool, alice, (client) =>
      saveWorkpiece(client, projectId, part.ingested, part.original, part.glb, part.png),
    );
    assert.equal(
      await asUser(pool, alice, (client) => store.delete(client, saved!.workpiece.blobs.mesh!)),
      false,
      "in use",
    );
  });
});

describe("a purge racing a request that stores the same file again", () => {
  it("waits for the request, and keeps the blobs the request now uses", async () => {
    const part = await partC();
    const doomed = await project(alice, "Doomed");
    const saved = await asUser(pool, alice, (client) =>
      saveWorkpiece(client, doomed, part.ingested, part.original, part.glb, part.png),
    );
    assert.ok(saved);
    await db.owner.query("update app_public.projects set deleted_at = now() where id = $1", [doomed]);
    const next = await project(alice, "Next");

    const claimed = gate();
    const proceed = gate();
    const request = asUser(pool, alice, async (client) => {
      const original = await store.put(client, part.original, "model/stl");
      assert.equal(original.id, saved.workpiece.blobs.original, "the same bytes found again, not sent again");
      claimed.open();
      await proceed.promise;
      return insertWorkpiece(client, next, workpieceMeta(part.ingested, null), {
        original: part.original,
        brep: null,
        mesh: part.glb,
        thumbnail: part.png,
      });
    });
    await claimed.promise;
    let purgeDone = false;
    const purge = db.owner.query("select * from app_private.purge_project($1)", [doomed]).finally(() => {
      purgeDone = true;
    });
    // the purge waits on the request
    await waitFor("the purge to wait on the lock", async () => {
      const { rows } = await db.owner.query(
        "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%purge_project%'",
      );
      return rows.length > 0;
    });
    assert.equal(purgeDone, false);
    proceed.open();
    const workpiece = await request;
    const purged = await purge;
    assert.deepEqual(purged.rows, [{ projects_deleted: 1, blobs_deleted: 0 }]);
    assert.deepEqual(workpiece.blobs, saved.workpiece.blobs);
    const left = await db.owner.query("select 1 from app_private.blobs where id = any($1::uuid[])", [
      [saved.workpiece.blobs.original, saved.workpiece.blobs.mesh, saved.workpiece.blobs.thumbnail],
    ]);
    assert.equal(left.rowCount, 3, "every blob the new workpiece uses is still there");
  });
});
