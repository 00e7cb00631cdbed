/**
 * Design feedback on NIST STC-06 and CTC-01 (../shared/fixtures/parts), read as the planner reads
 * them, without planning. What a person finds there, and docs/quote.md lists: STC-06's two
 * rectangular steps (features 30, 31) with sharp vertical inside corners no end mill makes, and
 * eight faces no 3-axis direction reaches (its undercuts and O-ring grooves); its thinnest wall
 * is 2.01 mm and no pocket is deeper than its width. CTC-01 has corner radii of 10 mm and more,
 * no wall under 6 mm and no cavity deeper than 1.25 widths: nothing to say.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { fixtureFeedback, summary } from "./test-support.ts";
import { wallThicknesses } from "./thin-walls.ts";

const oc = await loadOpenCascade();

describe("design feedback on NIST STC-06", () => {
  const { file, items } = fixtureFeedback(oc, "nist_stc_06_asme1_ap242-e3.stp");

  it("finds the sharp inside corners of the two rectangular steps, below the 1 mm end mill's radius", () => {
    const corners = items.filter((i) => i.kind.startsWith("corner_radius"));
    assert.deepEqual(
      corners.map((i) => [i.kind, i.feature, i.measured?.value, i.limit?.value, i.details.corners]),
      [
        ["corner_radius_below_tool", 31, 0, 0.5, 6],
        ["corner_radius_below_tool", 30, 0, 0.5, 9],
      ],
    );
    for (const item of corners) {
      const feature = file.recognition.features[item.feature!]!;
      assert.ok(
        item.faces.every((f) => feature.faces.includes(f)),
        "the corners' faces are the step's",
      );
    }
  });

  it("finds the faces no 3-axis direction reaches", () => {
    const unreachable = items.filter((i) => i.kind === "face_unreachable");
    assert.deepEqual(
      unreachable.flatMap((i) => i.faces),
      [32, 45, 46, 80, 82, 83, 88, 89],
    );
    assert.deepEqual(
      unreachable.map((i) => [i.feature, file.recognition.features[i.feature!]?.class]),
      [
        [12, "round"],
        [10, "through_hole"],
        [10, "through_hole"],
        [13, "round"],
        [11, "through_hole"],
        [11, "through_hole"],
        [27, "o_ring"],
        [28, "o_ring"],
      ],
    );
  });

  it("measures its thinnest wall, 2.01 mm between faces 116 and 123: no thin wall, and no deep pocket", () => {
    const [thinnest] = wallThicknesses({ analysis: file.analysis, mesh: file.mesh! }, 3);
    assert.deepEqual(thinnest?.faces, [116, 123]);
    assert.ok(Math.abs(thinnest!.mm - 2.01) < 0.01, String(thinnest?.mm));
    assert.deepEqual(summary(items.filter((i) => i.kind === "thin_wall" || i.kind === "deep_pocket")), []);
  });
});

describe("design feedback on NIST CTC-01", () => {
  const { file, items } = fixtureFeedback(oc, "nist_ctc_01_asme1_ap242-e1.stp");

  it("has nothing to say: large radii, thick walls, shallow cavities, every face reachable", () => {
    assert.deepEqual(summary(items), []);
    assert.deepEqual(wallThicknesses({ analysis: file.analysis, mesh: file.mesh! }, 6), []);
    const radii = file.recognition.features.flatMap((f) => f.min_internal_corner_radius_mm ?? []);
    assert.ok(Math.min(...radii) >= 10, String(radii));
  });
});
