/** A region as the FaceAnalysis a B-rep face would give: its surface, size and, for a cylinder, the turn it covers. */
import type { FaceAnalysis, Sense, Vec3 } from "../types.ts";
import type { Region } from "./region.ts";
import { add, basisAround, dot, normalise, scale, sub } from "../../math/vec3.ts";
import { emptyFace } from "../empty-face.ts";
import { pointOf, triangleCentroid, type MeshGeometry } from "./mesh-geometry.ts";

export function describeRegion(geometry: MeshGeometry, region: Region, id: number): FaceAnalysis {
  let area = 0;
  const weighted: Vec3 = [0, 0, 0];
  const normalSum: Vec3 = [0, 0, 0];
  const min: Vec3 = [Infinity, Infinity, Infinity],
    max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const vertices = new Set<number>();
  for (const t of region.triangles) {
    const a = geometry.areas[t] as number;
    const c = triangleCentroid(geometry, t);
    area += a;
    for (let i = 0; i < 3; i++) {
      weighted[i]! += a * c[i]!;
      normalSum[i]! += a * geometry.normals[3 * t + i]!;
    }
    for (let k = 0; k < 3; k++) vertices.add(geometry.corners[3 * t + k] as number);
  }
  for (const v of vertices) {
    for (let axis = 0; axis < 3; axis++) {
      const value = geometry.points[3 * v + axis] as number;
      if (value < min[axis]!) min[axis] = value;
      if (value > max[axis]!) max[axis] = value;
    }
  }
  const centroid: Vec3 = area > 0 ? scale(weighted, 1 / area) : triangleCentroid(geometry, region.triangles[0] ?? 0);
  // emptyFace's key order, these four filled in
  const face: FaceAnalysis = { ...emptyFace(id, null), surface: region.kind, area, centroid, bbox: { min, max } };
  if (region.kind === "plane") {
    face.normal = normalise(normalSum);
    region.normal = face.normal;
  } else if (region.kind === "cylinder" && region.cylinder !== null) {
    const { axis, point, radius, sense } = region.cylinder;
    const origin = add(point, scale(axis, dot(sub(centroid, point), axis)));
    face.axis = { origin, direction: axis };
    face.radius = radius;
    face.sense = (sense > 0 ? "convex" : "concave") satisfies Sense;
    let low = Infinity,
      high = -Infinity;
    for (const v of vertices) {
      const along = dot(sub(pointOf(geometry, v), origin), axis);
      low = Math.min(low, along);
      high = Math.max(high, along);
    }
    face.axialRange = [low, high];
    face.sweepAngle = angularCoverage(geometry, region.triangles, origin, axis);
  }
  return face;
}

/** The angle around `axis` the triangles cover (the union of their angular spans). */
function angularCoverage(geometry: MeshGeometry, triangles: number[], origin: Vec3, axis: Vec3): number {
  const [e1, e2] = basisAround(axis);
  const spans: [number, number][] = [];
  for (const t of triangles) {
    const angles: number[] = [];
    for (let k = 0; k < 3; k++) {
      const p = sub(pointOf(geometry, geometry.corners[3 * t + k] as number), origin);
      angles.push(Math.atan2(dot(p, e2), dot(p, e1)));
    }
    // the shortest arc holding the three angles: the complement of the largest gap between them
    angles.sort((a, b) => a - b);
    const gaps = [angles[1]! - angles[0]!, angles[2]! - angles[1]!, angles[0]! + 2 * Math.PI - angles[2]!];
    const largest = gaps.indexOf(Math.max(...gaps));
    const from = angles[(largest + 1) % 3]!;
    const width = 2 * Math.PI - gaps[largest]!;
    spans.push([from, from + width]);
  }
  // union on the circle: normalise starts to [0, 2 pi), sort, merge, and wrap the end around
  const normalisedSpans = spans
    .map(([a, b]): [number, number] => {
      const start = ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
      return [start, start + (b - a)];
    })
    .sort((x, y) => x[0] - y[0]);
  let covered = 0;
  let [currentStart, currentEnd] = normalisedSpans[0] ?? [0, 0];
  for (const [a, b] of normalisedSpans.slice(1)) {
    if (a <= currentEnd + 1e-9) currentEnd = Math.max(currentEnd, b);
    else {
      covered += currentEnd - currentStart;
      [currentStart, currentEnd] = [a, b];
    }
  }
  covered += currentEnd - currentStart;
  // an arc running past 2 pi overlaps the first ones
  const first = normalisedSpans[0];
  if (first !== undefined && currentEnd > 2 * Math.PI)
    covered -= Math.max(0, Math.min(currentEnd - 2 * Math.PI, first[1]) - first[0]);
  return Math.min(2 * Math.PI, covered);
}
