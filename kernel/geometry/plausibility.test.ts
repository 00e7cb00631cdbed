import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sizeWarnings } from "./plausibility.ts";

const box = (size: [number, number, number]) => ({ min: [0, 0, 0] as [number, number, number], max: size });

describe("sizeWarnings", () => {
  it("says nothing about a machinable part", () => {
    assert.deepEqual(sizeWarnings(box([85.5, 44.6, 27.5]), "mm"), []);
    assert.deepEqual(sizeWarnings(box([0.2, 0.1, 0.1]), "mm"), []);
  });

  it("warns about a part over 10 m across, naming the declared unit", () => {
    const [warning] = sizeWarnings(box([85_519, 44_621, 27_527]), "m");
    assert.equal(warning?.code, "implausible_size");
    assert.match(warning?.message ?? "", /declares m\b.*metres but hold millimetres/);
  });

  it("warns about a part under 0.1 mm across, and says when no unit was declared", () => {
    const [warning] = sizeWarnings(box([0.05, 0.04, 0.03]), "unknown");
    assert.equal(warning?.code, "implausible_size");
    assert.match(warning?.message ?? "", /declares no unit/);
  });
});
