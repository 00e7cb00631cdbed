import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { signedVolume, turnedRound } from "../../geometry/mesh-metrics.ts";
import { boxesSoup, POCKETED_BLOCK } from "../milling/test-support.ts";
import { facingOut } from "./read-part.ts";

describe("the part's triangles", () => {
  it("are turned round when they face in, and left as they are when they face out", () => {
    const out = boxesSoup(POCKETED_BLOCK);
    const volume = signedVolume(out.positions, out.indices);
    assert.ok(volume > 0);
    assert.equal(facingOut(out), out);
    const turned = facingOut({ positions: out.positions, indices: turnedRound(out.indices) });
    assert.ok(Math.abs(signedVolume(turned.positions, turned.indices) - volume) < 1e-6 * volume);
  });
});
