/**
 * Design feedback on NIST FTC-10 (../shared/fixtures/parts), read as the planner reads it,
 * without planning. What a person finds there, and docs/quote.md lists: the four 7 mm holes
 * 75 mm deep (features 26 to 29, over ten diameters), and 1 mm inside corner radii along the tool
 * axis in six features (an end mill under 3 mm); its thinnest wall is 4.5 mm and its deepest
 * cavity, the round-ended through slots, 2.92 widths deep.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { fixtureFeedback, summary } from "./test-support.ts";
import { wallThicknesses } from "./thin-walls.ts";

const oc = await loadOpenCascade();

describe("design feedback on NIST FTC-10", () => {
  const { file, items } = fixtureFeedback(oc, "nist_ftc_10_asme1_ap242-e2.stp");

  it("finds the four 7 mm holes 75 mm deep", () => {
    assert.deepEqual(
      items
        .filter((i) => i.kind === "deep_hole")
        .map((i) => [i.feature, i.measured?.value, i.limit?.value, i.details.diameter_mm]),
      [
        [26, 75, 70, 7],
        [27, 75, 70, 7],
        [28, 75, 70, 7],
        [29, 75, 70, 7],
      ],
    );
  });

  it("finds the 1 mm inside corner radii that need an end mill under 3 mm", () => {
    const corners = items.filter((i) => i.kind.startsWith("corner_radius"));
    assert.deepEqual(
      corners.map((i) => [i.kind, i.feature, i.measured?.value, i.limit?.value]),
      [100, 104, 105, 106, 110, 109].map((feature) => ["corner_radius_small", feature, 1, 1.5]),
    );
    for (const item of corners) {
      for (const face of item.faces) {
        const analysed = file.analysis.faces[face]!;
        assert.equal(analysed.surface, "cylinder");
        assert.equal(analysed.radius, 1);
      }
    }
  });

  it("measures its thinnest wall, 4.5 mm between faces 156 and 201: no thin wall, and no deep pocket", () => {
    const [thinnest] = wallThicknesses({ analysis: file.analysis, mesh: file.mesh! }, 6);
    assert.deepEqual(thinnest?.faces, [156, 201]);
    assert.ok(Math.abs(thinnest!.mm - 4.5) < 0.01, String(thinnest?.mm));
    assert.deepEqual(summary(items.filter((i) => i.kind === "thin_wall" || i.kind === "deep_pocket")), []);
  });
});
