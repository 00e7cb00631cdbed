/** The part's colours by feature (web/src/viewer/feature-colours.ts) against the recogniser's classes. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FEATURE_CLASSES } from "../../kernel/features/recognition/types.ts";
import {
  FAMILY_COLOURS,
  FEATURE_FAMILIES,
  featureFamily,
  featuresByFace,
  HIGHLIGHT,
  PART_GREY,
  partColours,
} from "../support/viewer-stock.ts";

/** the features route's feature, as the colouring takes it */
type ViewerFeature = Parameters<typeof featuresByFace>[0][number];

function feature(id: number, featureClass: string, faces: number[]): ViewerFeature {
  return {
    id,
    class: featureClass,
    faces,
  };
}

const colourOf = (colours: Float32Array, vertex: number) => Array.from(colours.subarray(3 * vertex, 3 * vertex + 3));
const f32 = (c: readonly number[]) => Array.from(Float32Array.from(c));

describe("feature colours", () => {
  it("puts every class the recogniser names in a family, and every family is used", () => {
    const families = new Set(FEATURE_CLASSES.map(featureFamily));
    assert.deepEqual([...families].sort(), [...FEATURE_FAMILIES].sort());
    assert.equal(featureFamily("blind_hole"), "hole");
    assert.equal(featureFamily("6sides_pocket"), "pocket");
    assert.equal(featureFamily("chamfer"), "edge");
  });

  it("colours each vertex by its face's feature, the highlighted ones yellow, the rest grey", () => {
    const features = [feature(1, "through_hole", [3, 4]), feature(2, "rectangular_pocket", [7])];
    const byFace = featuresByFace(features);
    // vertices on faces 3, 4, 7 and 9 (no feature); a float face id as the GLB stores it
    const faceIds = Float32Array.from([3, 4, 7, 9]);
    const classes = partColours({ faceIds, byFace, classes: true, highlighted: new Set() });
    assert.deepEqual(colourOf(classes, 0), f32(FAMILY_COLOURS.hole));
    assert.deepEqual(colourOf(classes, 1), f32(FAMILY_COLOURS.hole));
    assert.deepEqual(colourOf(classes, 2), f32(FAMILY_COLOURS.pocket));
    assert.deepEqual(colourOf(classes, 3), f32(PART_GREY));
    const highlighted = partColours({ faceIds, byFace, classes: false, highlighted: new Set([2]) });
    assert.deepEqual(colourOf(highlighted, 0), f32(PART_GREY));
    assert.deepEqual(colourOf(highlighted, 2), f32(HIGHLIGHT));
  });
});
