import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KeptByJob } from "./kept-by-job.ts";

describe("what the viewer's routes keep by job", () => {
  it("makes a job's value once, and drops the least recently used beyond its limit", async () => {
    const kept = new KeptByJob<string>(2);
    const made: string[] = [];
    const get = (job: string) =>
      kept.get(job, async () => {
        made.push(job);
        return `value of ${job}`;
      });
    assert.equal(await get("a"), "value of a");
    assert.equal(await get("b"), "value of b");
    assert.equal(await get("a"), "value of a", "kept");
    // a was used last: c drops b
    await get("c");
    assert.equal(kept.size, 2);
    await get("a");
    await get("b");
    assert.deepEqual(made, ["a", "b", "c", "b"]);
  });

  it("keeps nothing when the making fails", async () => {
    const kept = new KeptByJob<string>(2);
    await assert.rejects(
      kept.get("a", async () => {
        throw new Error("the blob is missing");
      }),
      /the blob is missing/,
    );
    assert.equal(kept.size, 0);
    assert.equal(await kept.get("a", async () => "read"), "read");
  });
});
