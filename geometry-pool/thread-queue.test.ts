/** The order in which requests get geometry threads: shares per owner, fewest running first, bounds. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createThreadQueue, type ThreadQueue, type ThreadWait } from "./thread-queue.ts";
import { GeometryUnavailable } from "./unavailable.ts";

/** Requests by name; `started` lists them in the order they got a thread. */
function requests(queue: ThreadQueue) {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  return {
    started,
    ask(name: string, wait: ThreadWait = {}): Promise<void> {
      return queue.acquire(wait).then((release) => {
        started.push(name);
        releases.set(name, release);
      });
    },
    release(name: string) {
      releases.get(name)!();
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const isCode = (code: GeometryUnavailable["code"]) => (error: unknown) =>
  error instanceof GeometryUnavailable && error.code === code;

describe("geometry thread queue", () => {
  it("never gives one owner more than its share, even with a thread free, and never holds back a request without an owner", async () => {
    const queue = createThreadQueue(2, 1);
    const r = requests(queue);
    void r.ask("alice 1", { owner: "alice" });
    void r.ask("alice 2", { owner: "alice" });
    await settle();
    assert.deepEqual(r.started, ["alice 1"]);
    assert.equal(queue.waiting(), 1);
    void r.ask("ping");
    await settle();
    assert.deepEqual(r.started, ["alice 1", "ping"], "the ping took the free thread");
    r.release("ping");
    void r.ask("bob", { owner: "bob" });
    await settle();
    assert.deepEqual(r.started, ["alice 1", "ping", "bob"]);
    r.release("alice 1");
    await settle();
    assert.deepEqual(r.started, ["alice 1", "ping", "bob", "alice 2"]);
  });

  it("gives a freed thread to the owner running the fewest, and among equals to the longest waiting", async () => {
    const queue = createThreadQueue(3, 2);
    const r = requests(queue);
    void r.ask("alice 1", { owner: "alice" });
    void r.ask("carol 1", { owner: "carol" });
    void r.ask("carol 2", { owner: "carol" });
    void r.ask("alice 2", { owner: "alice" });
    void r.ask("bob 1", { owner: "bob" });
    void r.ask("dave 1", { owner: "dave" });
    await settle();
    assert.deepEqual(r.started, ["alice 1", "carol 1", "carol 2"]);
    r.release("carol 1");
    await settle();
    // alice (one running) came first, but bob and dave run none; bob waited longer
    assert.deepEqual(r.started.slice(3), ["bob 1"]);
    r.release("carol 2");
    await settle();
    assert.deepEqual(r.started.slice(3), ["bob 1", "dave 1"]);
    r.release("bob 1");
    await settle();
    assert.deepEqual(r.started.slice(3), ["bob 1", "dave 1", "alice 2"]);
  });

  it("fails a request still waiting at its bound with geometry_busy, one whose signal aborts with geometry_aborted, and all of them at close", async () => {
    const queue = createThreadQueue(1, 1);
    const r = requests(queue);
    await r.ask("holder", { owner: "alice" });
    const started = Date.now();
    await assert.rejects(r.ask("bounded", { owner: "bob", timeoutMs: 50 }), (error: unknown) => {
      assert.ok(isCode("geometry_busy")(error));
      assert.match((error as Error).message, /^every geometry thread was busy for 0.1 s/);
      return true;
    });
    assert.ok(Date.now() - started >= 45, "it waited for its bound");
    const abort = new AbortController();
    const aborted = r.ask("aborted", { owner: "bob", signal: abort.signal });
    abort.abort();
    await assert.rejects(aborted, isCode("geometry_aborted"));
    const waiting = r.ask("waiting", { owner: "carol" });
    queue.close();
    await assert.rejects(waiting, isCode("geometry_pool_closed"));
    await assert.rejects(r.ask("late"), isCode("geometry_pool_closed"));
    assert.equal(queue.waiting(), 0);
    assert.deepEqual(r.started, ["holder"]);
  });
});
