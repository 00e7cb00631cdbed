/**
 * The mesh as welded triangles with neighbours (step 1 of ../analyse-mesh.ts): vertices welded by
 * exact position, each triangle's normal, area and how well that normal is resolved, and each
 * half-edge paired with the one running the other way in its neighbour.
 */
import type { BoundingBox, Vec3 } from "../types.ts";
import type { TriangleMesh } from "../../mesh/types.ts";
import { weldByPosition } from "../../geometry/mesh-metrics.ts";
import { pointDistance, triangleCross } from "../../math/triangle.ts";

export interface MeshGeometry {
  triangleCount: number;
  /** welded vertex positions, doubles */
  points: Float64Array;
  /** three welded vertex ids per triangle */
  corners: Uint32Array;
  /** unit normal per triangle (0 for a degenerate one) */
  normals: Float64Array;
  areas: Float64Array;
  /** 2 area / longest side: how well the triangle's normal is resolved */
  heights: Float64Array;
  degenerate: Uint8Array;
  /** per half-edge 3 t + k (corner k to k + 1): the opposite half-edge, -1 free, -2 non-manifold */
  twin: Int32Array;
  inconsistentEdges: number;
  /** the triangles faced inwards and were turned around */
  inverted: boolean;
  bbox: BoundingBox | null;
  diagonal: number;
  volume: number;
}

export function meshGeometry(mesh: TriangleMesh): MeshGeometry {
  const { vertexOf, count } = weldByPosition(mesh.positions);
  const points = new Float64Array(count * 3);
  for (let v = 0; v < vertexOf.length; v++) {
    const w = vertexOf[v] as number;
    points[3 * w] = mesh.positions[3 * v] as number;
    points[3 * w + 1] = mesh.positions[3 * v + 1] as number;
    points[3 * w + 2] = mesh.positions[3 * v + 2] as number;
  }
  const triangleCount = Math.floor(mesh.indices.length / 3);
  const corners = new Uint32Array(triangleCount * 3);
  for (let i = 0; i < triangleCount * 3; i++) corners[i] = vertexOf[mesh.indices[i] as number] as number;

  const normals = new Float64Array(triangleCount * 3);
  const areas = new Float64Array(triangleCount);
  const heights = new Float64Array(triangleCount);
  const degenerate = new Uint8Array(triangleCount);
  let volume = 0;
  for (let t = 0; t < triangleCount; t++) {
    const a = 3 * (corners[3 * t] as number),
      b = 3 * (corners[3 * t + 1] as number),
      c = 3 * (corners[3 * t + 2] as number);
    const [nx, ny, nz] = triangleCross(points, a, b, c);
    const length = Math.hypot(nx, ny, nz);
    const longest = Math.max(pointDistance(points, a, b), pointDistance(points, a, c), pointDistance(points, b, c));
    areas[t] = length / 2;
    heights[t] = longest > 0 ? length / longest : 0;
    if (!(length > 0) || a === b || b === c || a === c) {
      degenerate[t] = 1;
      continue;
    }
    normals[3 * t] = nx / length;
    normals[3 * t + 1] = ny / length;
    normals[3 * t + 2] = nz / length;
    volume +=
      (points[a]! * (points[b + 1]! * points[c + 2]! - points[b + 2]! * points[c + 1]!) +
        points[a + 1]! * (points[b + 2]! * points[c]! - points[b]! * points[c + 2]!) +
        points[a + 2]! * (points[b]! * points[c + 1]! - points[b + 1]! * points[c]!)) /
      6;
  }

  let { twin, inconsistentEdges } = pairHalfEdges(corners, degenerate, triangleCount, count);
  // a closed mesh whose triangles face inwards: turn it outside out (stl.ts does so already)
  let inverted = false;
  if (
    volume < 0 &&
    inconsistentEdges === 0 &&
    twin.every((other, h) => other >= 0 || degenerate[Math.floor(h / 3)] === 1)
  ) {
    inverted = true;
    volume = -volume;
    for (let t = 0; t < triangleCount; t++) {
      const b = corners[3 * t + 1] as number;
      corners[3 * t + 1] = corners[3 * t + 2] as number;
      corners[3 * t + 2] = b;
      for (let i = 0; i < 3; i++) normals[3 * t + i] = -(normals[3 * t + i] as number);
    }
    ({ twin, inconsistentEdges } = pairHalfEdges(corners, degenerate, triangleCount, count));
  }

  let bbox: BoundingBox | null = null;
  if (count > 0) {
    const min: Vec3 = [Infinity, Infinity, Infinity],
      max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (let v = 0; v < count; v++) {
      for (let axis = 0; axis < 3; axis++) {
        const value = points[3 * v + axis] as number;
        if (value < min[axis]!) min[axis] = value;
        if (value > max[axis]!) max[axis] = value;
      }
    }
    bbox = { min, max };
  }
  const diagonal =
    bbox === null ? 0 : Math.hypot(bbox.max[0] - bbox.min[0], bbox.max[1] - bbox.min[1], bbox.max[2] - bbox.min[2]);
  return {
    triangleCount,
    points,
    corners,
    normals,
    areas,
    heights,
    degenerate,
    twin,
    inconsistentEdges,
    bbox,
    diagonal,
    volume,
    inverted,
  };
}

/** Pairs each half-edge with the one running the other way (see MeshGeometry.twin). */
function pairHalfEdges(
  corners: Uint32Array,
  degenerate: Uint8Array,
  triangleCount: number,
  count: number,
): { twin: Int32Array; inconsistentEdges: number } {
  // key = low * count + high
  const twin = new Int32Array(triangleCount * 3).fill(-1);
  const firstOf = new Map<number, number>();
  const state = new Map<number, number>(); // key -> number of half-edges seen
  let inconsistentEdges = 0;
  for (let h = 0; h < triangleCount * 3; h++) {
    if (degenerate[Math.floor(h / 3)]) continue;
    const a = corners[h] as number,
      b = corners[h - (h % 3) + (((h % 3) + 1) % 3)] as number;
    const key = a < b ? a * count + b : b * count + a;
    const seen = state.get(key) ?? 0;
    state.set(key, seen + 1);
    if (seen === 0) {
      firstOf.set(key, h);
    } else if (seen === 1) {
      const other = firstOf.get(key) as number;
      if ((corners[other] as number) === b) {
        twin[h] = other;
        twin[other] = h;
      } else {
        // two triangles running the edge the same way: one of them is flipped
        twin[h] = -2;
        twin[other] = -2;
        inconsistentEdges++;
      }
    } else {
      const other = firstOf.get(key) as number;
      if (seen === 2) {
        const paired = twin[other] as number;
        if (paired >= 0) twin[paired] = -2;
        twin[other] = -2;
        inconsistentEdges++;
      }
      twin[h] = -2;
    }
  }
  return { twin, inconsistentEdges };
}

/** The triangle across half-edge h, or -1. */
export function across(geometry: MeshGeometry, h: number): number {
  const other = geometry.twin[h] as number;
  return other >= 0 ? Math.floor(other / 3) : -1;
}

export function normalOf(geometry: MeshGeometry, t: number): Vec3 {
  return [
    geometry.normals[3 * t] as number,
    geometry.normals[3 * t + 1] as number,
    geometry.normals[3 * t + 2] as number,
  ];
}

export function pointOf(geometry: MeshGeometry, v: number): Vec3 {
  return [geometry.points[3 * v] as number, geometry.points[3 * v + 1] as number, geometry.points[3 * v + 2] as number];
}

export function triangleCentroid(geometry: MeshGeometry, t: number): Vec3 {
  const a = pointOf(geometry, geometry.corners[3 * t] as number);
  const b = pointOf(geometry, geometry.corners[3 * t + 1] as number);
  const c = pointOf(geometry, geometry.corners[3 * t + 2] as number);
  return [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3];
}
