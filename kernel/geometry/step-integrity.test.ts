import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkStepIntegrity } from "./step-integrity.ts";
import { fixture, partCCutAtLine, text } from "./test-support.ts";

describe("checkStepIntegrity", () => {
  it("finds partC.step complete: terminated, every reference defined", () => {
    assert.deepEqual(checkStepIntegrity(text(fixture("partC.step"))), {
      terminated: true,
      undefinedReferences: 0,
      undefinedSample: [],
    });
  });

  it("finds the first half of partC.step unterminated", () => {
    const whole = text(fixture("partC.step"));
    assert.equal(checkStepIntegrity(whole.slice(0, whole.length / 2)).terminated, false);
  });

  it("finds the references a file cut at a line boundary no longer defines", () => {
    const integrity = checkStepIntegrity(text(partCCutAtLine(0.5)));
    assert.equal(integrity.terminated, true);
    assert.ok(integrity.undefinedReferences > 10, `${integrity.undefinedReferences} undefined`);
    assert.ok(integrity.undefinedSample.length > 0 && integrity.undefinedSample.length <= 5);
  });

  it("does not take a '#' inside a string or comment for a reference", () => {
    const file =
      "ISO-10303-21;\nDATA;\n#1 = PRODUCT('part #7 it''s #8','',/* see #9 */ (#2));\n#2 = PRODUCT_CONTEXT('',$,'');\nENDSEC;\nEND-ISO-10303-21;\n";
    assert.deepEqual(checkStepIntegrity(file), { terminated: true, undefinedReferences: 0, undefinedSample: [] });
  });
});
