/**
 * The API's request transactions (db/request-transaction.ts) against connections the server
 * has closed: a pooled connection that died while idle is replaced, once, before anything of
 * the request ran; a connection that dies during the request's work is not (its work may have
 * reached the database), and the error is a connection error (503 database_unavailable).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type pg from "pg";
import { isConnectionError } from "../../db/connection-errors.ts";
import { createPool } from "../../db/pools.ts";
import { withPublicTransaction } from "../../db/request-transaction.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";

let db: TestDatabase;
let pool: pg.Pool;

before(async () => {
  db = await createTestDatabase();
  pool = createPool(db.appUrl, 3, "swarf-test-reopen");
});
after(async () => {
  await pool?.end();
  await db?.drop();
});

/** A checked-out client whose server session has ended (pg_terminate_backend waits for it). */
async function terminatedClient(): Promise<pg.PoolClient> {
  const client = await pool.connect();
  const { rows } = await client.query<{ pid: number }>("select pg_backend_pid() as pid");
  const ended = await db.owner.query<{ ended: boolean }>("select pg_terminate_backend($1, 10000) as ended", [
    rows[0]!.pid,
  ]);
  assert.equal(ended.rows[0]!.ended, true);
  return client;
}

describe("request transactions on closed connections", () => {
  it("opens the transaction again on a fresh connection when the pooled one was closed by the server", async () => {
    const stale = await terminatedClient();
    let handedOut = 0;
    // the pool hands out the dead connection first, as it does when its close was not yet read
    const first: Pick<pg.Pool, "connect"> = {
      connect: (async () => (++handedOut === 1 ? stale : pool.connect())) as pg.Pool["connect"],
    };
    let ran = 0;
    const pid = await withPublicTransaction(first as pg.Pool, async (client) => {
      ran += 1;
      return (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
    });
    assert.equal(ran, 1, "the work ran once");
    assert.equal(handedOut, 2, "a second connection was taken");
    assert.ok(pid > 0);
  });

  it("does not run the work again when the connection dies during it, and reports a connection error", async () => {
    let ran = 0;
    const error = await withPublicTransaction(pool, async (client) => {
      ran += 1;
      await client.query("select pg_terminate_backend(pg_backend_pid())");
    }).then(
      () => null,
      (caught: unknown) => caught,
    );
    assert.equal(ran, 1);
    assert.ok(error, "the request failed");
    assert.equal(isConnectionError(error), true, String(error));
    // and the pool serves the next request
    assert.equal(
      await withPublicTransaction(pool, async (client) => (await client.query("select 1 as one")).rows[0].one),
      1,
    );
  });
});
