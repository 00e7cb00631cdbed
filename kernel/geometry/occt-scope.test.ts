import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OcctScope, withOcctScope } from "./occt-scope.ts";

/** A stand-in for an OCCT object that records what happens to it. */
function tracked(name: string, log: string[], options: { failDelete?: boolean; nullable?: boolean } = {}) {
  return {
    name,
    delete(): void {
      log.push(`delete ${name}`);
      if (options.failDelete) throw new Error(`cannot delete ${name}`);
    },
    ...(options.nullable ? { Nullify: (): void => void log.push(`nullify ${name}`) } : {}),
  };
}

describe("withOcctScope", () => {
  it("deletes what the block owned, newest first, and returns the block's value", () => {
    const log: string[] = [];
    const result = withOcctScope((scope) => {
      scope.own(tracked("a", log));
      scope.own(tracked("b", log));
      return 42;
    });
    assert.equal(result, 42);
    assert.deepEqual(log, ["delete b", "delete a"]);
  });

  it("nullifies shapes and handles before deleting them, so their B-rep data is let go", () => {
    const log: string[] = [];
    withOcctScope((scope) => void scope.own(tracked("shape", log, { nullable: true })));
    assert.deepEqual(log, ["nullify shape", "delete shape"]);
  });

  it("deletes everything when the block throws, and the block's error is the one that surfaces", () => {
    const log: string[] = [];
    assert.throws(
      () =>
        withOcctScope((scope) => {
          scope.own(tracked("a", log));
          scope.own(tracked("b", log, { failDelete: true }));
          throw new Error("the block failed");
        }),
      /the block failed/,
    );
    assert.deepEqual(log, ["delete b", "delete a"]);
  });

  it("leaves a released object to its new owner", () => {
    const log: string[] = [];
    const outer = new OcctScope();
    const kept = withOcctScope((scope) => {
      scope.own(tracked("temporary", log));
      return outer.own(scope.release(scope.own(tracked("kept", log))));
    });
    assert.deepEqual(log, ["delete temporary"]);
    assert.equal(kept.name, "kept");
    outer.dispose();
    assert.deepEqual(log, ["delete temporary", "delete kept"]);
  });

  it("tries every deletion and then reports the first failure", () => {
    const log: string[] = [];
    const scope = new OcctScope();
    scope.own(tracked("a", log, { failDelete: true }));
    scope.own(tracked("b", log, { failDelete: true }));
    assert.throws(() => scope.dispose(), /cannot delete b/);
    assert.deepEqual(log, ["delete b", "delete a"]);
    assert.equal(scope.size, 0);
  });

  it("refuses to release an object it does not own", () => {
    const scope = new OcctScope();
    assert.throws(() => scope.release(tracked("stranger", [])), /not owned/);
  });
});
