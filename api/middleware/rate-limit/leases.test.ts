import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BucketState } from "../../../db/queries/rate-limits.ts";
import { LeaseBook } from "./leases.ts";

function bucket(limit: number, remaining: number): BucketState {
  return { bucket: "default", rate_limit: limit, remaining, reset_at: 0, retry_after_seconds: null };
}

describe("quota leases", () => {
  it("asks for one hit at a time until it has seen the key's limits", () => {
    const book = new LeaseBook(() => 0);
    assert.equal(book.batchFor("k"), 1);
    assert.equal(book.take("k"), null);
  });

  it("leases a hundredth of the smallest limit, one for the default 120 a minute, at most 100", () => {
    const book = new LeaseBook(() => 0);
    for (const [limits, batch] of [
      [[120], 1],
      [[120, 30], 1],
      [[1000], 10],
      [[5000, 1000], 10],
      [[100_000_000], 100],
    ] as const) {
      book.grant(
        "k",
        1,
        limits.map((l) => bucket(l, l - 1)),
      );
      assert.equal(book.batchFor("k"), batch, `limits ${limits.join(", ")}`);
    }
  });

  it("spends a grant here, reporting the remaining quota as unspent hits plus what Postgres has left", () => {
    const book = new LeaseBook(() => 0);
    book.grant("k", 10, [bucket(1000, 980)]); // this request spends one, nine are left here
    const remaining: number[] = [];
    for (let i = 0; i < 9; i++) remaining.push(book.take("k")![0]!.remaining);
    assert.deepEqual(remaining, [988, 987, 986, 985, 984, 983, 982, 981, 980]);
    assert.equal(book.take("k"), null, "spent: ask Postgres again");
  });

  it("lets an unspent lease lapse after a second", () => {
    let now = 0;
    const book = new LeaseBook(() => now);
    book.grant("k", 10, [bucket(1000, 990)]);
    now = 999;
    assert.ok(book.take("k"));
    now = 1000;
    assert.equal(book.take("k"), null);
  });

  it("keeps the hits of a live lease when a concurrent grant arrives", () => {
    const book = new LeaseBook(() => 0);
    book.grant("k", 10, [bucket(1000, 990)]);
    book.grant("k", 10, [bucket(1000, 980)]);
    let spent = 0;
    while (book.take("k")) spent++;
    assert.equal(spent, 18);
  });

  it("keeps keys and bucket sets apart", () => {
    const book = new LeaseBook(() => 0);
    book.grant("a:default", 5, [bucket(1000, 995)]);
    assert.equal(book.take("b:default"), null);
    assert.equal(book.take("a:default+cam_planning"), null);
    assert.ok(book.take("a:default"));
  });
});
