import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createGeometryPool, GeometryUnavailable, type GeometryPool, type GeometryPoolUsage } from "./pool.ts";

const threadModule = new URL("../test/support/geometry-test-thread.ts", import.meta.url).href;
const bytes = (text: string) => new TextEncoder().encode(text);

let pool: GeometryPool;
before(async () => {
  pool = createGeometryPool({ size: 2, timeoutMs: 1500, threadModule });
  await pool.ready();
});
after(async () => {
  await pool.close();
});

describe("geometry pool", () => {
  it("is ready only when every thread has started", async () => {
    const answers = await Promise.all([pool.ingest(bytes("a")), pool.ingest(bytes("b"))]);
    const threads = new Set(answers.map((a) => (a.ok ? -1 : a.details.threadId)));
    assert.equal(threads.size, 2, "two requests at once run on two threads");
  });

  it("answers a request whose thread dies with geometry_worker_crashed, and replaces the thread", async () => {
    await assert.rejects(pool.ingest(bytes("crash")), (error: unknown) => {
      assert.ok(error instanceof GeometryUnavailable);
      assert.equal(error.code, "geometry_worker_crashed");
      return true;
    });
    // every thread answers again (the new one once started: a start may take longer than a
    // request's timeout on a loaded machine), and two requests run side by side
    await pool.ready();
    const after = await Promise.all([pool.ingest(bytes("x")), pool.ingest(bytes("y"))]);
    assert.deepEqual(
      after.map((a) => (a.ok ? "" : a.message)),
      ["x", "y"],
      "both threads serve again",
    );
  });

  it("cuts off a request that runs past the timeout and keeps serving", async () => {
    await assert.rejects(
      pool.ingest(bytes("hang")),
      (error: unknown) => error instanceof GeometryUnavailable && error.code === "geometry_timeout",
    );
    await pool.ready();
    const next = await pool.ingest(bytes("still here"));
    assert.equal(next.ok ? "" : next.message, "still here");
  });

  it("leaves the caller's bytes usable after handing a copy to a thread, Buffers included", async () => {
    const original = bytes("keep me");
    await pool.ingest(original);
    assert.equal(new TextDecoder().decode(original), "keep me");
    // multer hands over Buffers, whose slice() is a view on the same memory
    const buffer = Buffer.from("a buffer too");
    await pool.ingest(buffer);
    assert.equal(buffer.toString(), "a buffer too");
  });
});

describe("geometry pool shared between users", () => {
  let shared: GeometryPool;
  before(async () => {
    shared = createGeometryPool({ size: 2, timeoutMs: 3000, queueTimeoutMs: 500, threadModule });
    await shared.ready();
  });
  after(async () => {
    await shared.close();
  });

  it("keeps a thread for another user while one user's files hang, and answers the one left waiting geometry_busy", async () => {
    let firstSettled = false;
    const first = shared.ingest(bytes("hang"), { owner: "alice" });
    void first.catch(() => {}).finally(() => (firstSettled = true));
    const second = shared.ingest(bytes("hang"), { owner: "alice" });
    const bob = await shared.ingest(bytes("bob's part"), { owner: "bob" });
    assert.equal(bob.ok ? "" : bob.message, "bob's part");
    assert.equal(firstSettled, false, "bob's file was answered while alice's first still ran");
    // alice holds her share, one thread: her second file waits, then is refused as never started
    assert.deepEqual(pick(shared.usage()), { busy: 1, queued: 1 });
    await assert.rejects(second, (error: unknown) => {
      assert.ok(error instanceof GeometryUnavailable);
      assert.equal(error.code, "geometry_busy");
      assert.match(error.message, /other files held their share/);
      return true;
    });
    assert.equal(firstSettled, false, "the wait was cut short, not the processing");
    await assert.rejects(
      first,
      (error: unknown) => error instanceof GeometryUnavailable && error.code === "geometry_timeout",
    );
    await shared.ready();
  });

  it("counts a request's timeout from its start on a thread, not from its arrival", async () => {
    const single = createGeometryPool({ size: 1, timeoutMs: 2500, queueTimeoutMs: 10_000, threadModule });
    try {
      await single.ready();
      // bob's file waits 1.5 s for alice's, then takes 1.5 s: 3 s since it came, 1.5 s processing
      const answers = await Promise.all([
        single.ingest(bytes("sleep:1500"), { owner: "alice" }),
        single.ingest(bytes("sleep:1500"), { owner: "bob" }),
      ]);
      assert.deepEqual(
        answers.map((a) => (a.ok ? "" : a.message)),
        ["sleep:1500", "sleep:1500"],
      );
    } finally {
      await single.close();
    }
  });
});

function pick(usage: GeometryPoolUsage): { busy: number; queued: number } {
  return { busy: usage.busy, queued: usage.queued };
}
