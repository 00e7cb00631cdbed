/**
 * A face with nothing measured yet: no area, no axis or radius, no wires. The B-rep analysis
 * starts every face from it (and keeps it for a face OCCT cannot measure); a mesh region's face
 * fills in its surface, area, centroid and box.
 */
import type { FaceAnalysis } from "./types.ts";

export function emptyFace(id: number, stepEntity: number | null): FaceAnalysis {
  return {
    id,
    stepEntity,
    surface: "other",
    area: 0,
    centroid: [0, 0, 0],
    bbox: { min: [0, 0, 0], max: [0, 0, 0] },
    normal: null,
    axis: null,
    radius: null,
    semiAngle: null,
    minorRadius: null,
    sense: null,
    axialRange: null,
    sweepAngle: null,
    outerWires: 0,
    innerWires: 0,
    wires: [],
    edges: [],
  };
}
