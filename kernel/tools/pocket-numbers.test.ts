import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { duplicatePocketNumbers } from "./pocket-numbers.ts";

const assembly = (uuid: string, name: string, pocket_number?: unknown) => ({ uuid, name, pocket_number });
const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const C = "33333333-3333-4333-8333-333333333333";

describe("pocket numbers within a library", () => {
  it("names every later assembly that takes a pocket number an earlier one has, and the earlier one", () => {
    const violations = duplicatePocketNumbers([
      assembly(A, "Face mill", 1),
      assembly(B, "End mill 10", 2),
      assembly(C, "End mill 16", 1),
      assembly(C, "Drill 5", 1),
    ]);
    assert.deepEqual(
      violations.map((v) => [v.field, v.rule]),
      [
        ["2.pocket_number", "unique"],
        ["3.pocket_number", "unique"],
      ],
    );
    assert.equal(
      violations[0]?.message,
      `"End mill 16" (${C}) cannot take T1: it is the pocket number of assemblies.0 "Face mill" (${A}), and one pocket holds one tool`,
    );
  });

  it("passes over assemblies without a number, and numbers their own checks refuse", () => {
    assert.deepEqual(
      duplicatePocketNumbers([
        assembly(A, "a"),
        assembly(B, "b"),
        assembly(C, "c", 2.5),
        assembly(C, "d", 2.5),
        7,
        null,
      ]),
      [],
    );
  });
});
