import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { finiteNumber, joinPath, uniqueViolations, violationsFromZod } from "./violation.ts";

const Schema = z.strictObject({
  name: z.string().min(1),
  kind: z.enum(["a", "b"]),
  size: z.number(),
  inner: z.strictObject({ length: z.number() }),
  items: z.array(z.string()).min(1),
});

function rules(input: unknown): Record<string, string> {
  const parsed = Schema.safeParse(input);
  assert.equal(parsed.success, false);
  if (parsed.success) return {};
  return Object.fromEntries(violationsFromZod(parsed.error, input, "body").map((v) => [v.field, v.rule]));
}

describe("violationsFromZod", () => {
  it("names each problem by a dotted path and a rule of ours, one violation per unknown key", () => {
    assert.deepEqual(
      rules({ kind: "c", size: Infinity, inner: { length: "5", extra: 1, more: 2 }, items: [], typo: true }),
      {
        "body.name": "required",
        "body.kind": "one_of",
        "body.size": "finite",
        "body.inner.length": "type",
        "body.inner.extra": "unknown_field",
        "body.inner.more": "unknown_field",
        "body.items": "non_empty",
        "body.typo": "unknown_field",
      },
    );
  });

  it("calls an empty required string non_empty", () => {
    assert.equal(rules({ name: "", kind: "a", size: 1, inner: { length: 1 }, items: ["x"] })["body.name"], "non_empty");
  });
});

describe("helpers", () => {
  it("joinPath skips an empty prefix, uniqueViolations keeps the first of a (field, rule) pair", () => {
    assert.equal(joinPath("", ["a", 0, "b"]), "a.0.b");
    assert.equal(joinPath("x", ["a"]), "x.a");
    const v = { field: "a", rule: "r", message: "first" };
    assert.deepEqual(uniqueViolations([v, { ...v, message: "second" }, { ...v, rule: "s" }]), [v, { ...v, rule: "s" }]);
  });

  it("finiteNumber lets only finite numbers through", () => {
    assert.equal(finiteNumber(2.5), 2.5);
    for (const value of [NaN, Infinity, "2", null, undefined]) assert.equal(finiteNumber(value), undefined);
  });
});
