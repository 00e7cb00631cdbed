import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateHolder } from "../holder.ts";
import {
  erColletChuck,
  holderForShank,
  shellMillArbor,
  stickOut,
  tappingChuck,
  weldonHolder,
} from "./standard-holders.ts";

describe("standard holders", () => {
  it("are valid holders whose profile sums to their gauge length", () => {
    for (const mount of [
      erColletChuck(3),
      erColletChuck(12),
      erColletChuck(20),
      erColletChuck(25),
      weldonHolder(16),
      weldonHolder(25),
      shellMillArbor(22),
      shellMillArbor(40),
      tappingChuck(6),
      tappingChuck(16),
    ]) {
      const result = validateHolder(mount.holder);
      assert.deepEqual(result.ok ? [] : result.violations, [], mount.holder.name);
      assert.equal(mount.holder.segments[0]?.upper_diameter_mm, 63, "an SK40 flange at the gauge line");
    }
  });

  it("pick the smallest ER collet chuck that grips a shank comfortably", () => {
    assert.equal(erColletChuck(1).holder.name, "SK40 ER16 collet chuck A70");
    assert.equal(erColletChuck(8).holder.name, "SK40 ER16 collet chuck A70");
    assert.equal(erColletChuck(10).holder.name, "SK40 ER25 collet chuck A70");
    assert.equal(erColletChuck(16).holder.name, "SK40 ER32 collet chuck A70");
    assert.equal(erColletChuck(25).holder.name, "SK40 ER40 collet chuck A80");
    assert.throws(() => erColletChuck(32), /no ER collet chuck/);
  });

  it("put milling shanks of 16 mm and up in Weldon holders and the rest in collets", () => {
    assert.equal(holderForShank(16, true).holder.clamping, "weldon");
    assert.equal(holderForShank(12, true).holder.clamping, "collet_chuck");
    assert.equal(holderForShank(16, false).holder.clamping, "collet_chuck");
    assert.deepEqual(weldonHolder(20).holder.clamping_range_mm, { min: 20, max: 20 });
  });

  it("clamp what they can and leave the reach outside", () => {
    const er16 = erColletChuck(6);
    assert.equal(stickOut(er16, 57, 13), 57 - 18);
    // a short tool: the holder grips less so that the flutes stay out
    assert.equal(stickOut(er16, 34, 12), 34 - 18);
    assert.equal(stickOut(er16, 30, 14), 30 - 14);
    assert.throws(() => stickOut(er16, 30, 25), /too little shank/);
    assert.equal(stickOut(shellMillArbor(22), 40, 40), 40, "a face mill sits on its arbor");
  });
});
