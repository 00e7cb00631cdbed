import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_GRIP_MM, defaultGripMm, gripOnParallels, MIN_GRIP_MM } from "./grip.ts";
import { defaultWorkholding } from "./defaults.ts";

// the VMCs' vise: 45 mm jaws, parallels of 10 to 40 mm in 5 mm steps
const vise = defaultWorkholding("vmc-850-fanuc");
assert.ok(vise?.kind === "vise");

describe("defaultGripMm", () => {
  it("is 5 mm for jaws of 15 mm and taller, a third below, never under 3 mm", () => {
    assert.equal(defaultGripMm(45), DEFAULT_GRIP_MM);
    assert.equal(defaultGripMm(15), 5);
    assert.equal(defaultGripMm(12), 4);
    assert.equal(defaultGripMm(6), MIN_GRIP_MM);
  });
});

describe("gripOnParallels", () => {
  it("gives 5 mm on 40 mm parallels in 45 mm jaws", () => {
    assert.deepEqual(gripOnParallels(vise, 5), { grip_mm: 5, parallel_height_mm: 40 });
  });

  it("takes the deepest grip not deeper than wanted", () => {
    assert.deepEqual(gripOnParallels(vise, 12), { grip_mm: 10, parallel_height_mm: 35 });
    assert.deepEqual(gripOnParallels(vise, 100), { grip_mm: 45, parallel_height_mm: 0 });
  });

  it("gives nothing when no parallel leaves at least 3 mm and at most the grip wanted", () => {
    assert.equal(gripOnParallels(vise, 4), undefined);
    assert.equal(gripOnParallels({ ...vise, parallel_heights_mm: [43] }, 5), undefined);
  });
});
