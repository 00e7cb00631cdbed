/**
 * What machining needs from a prismatic feature once it is classified: access direction, depth,
 * floors and walls, the smallest internal corner radius, the narrowest width and the open sides.
 */
import type { Vec3 } from "../types.ts";
import type { PartIndex } from "./part-index.ts";
import { isCornerBlend, type PrismaticResult } from "./prismatic.ts";
import { add, cross, dot, length, normalise, perpendicularPart, projectAlong, scale, sub } from "../../math/vec3.ts";

export interface PrismaticMeasures {
  access_direction: Vec3;
  other_access_directions: Vec3[];
  depth_mm: number;
  floor_faces: number[];
  wall_faces: number[];
  min_internal_corner_radius_mm: number | null;
  min_width_mm: number | null;
  open_sides: Vec3[];
}

export function facePoints(index: PartIndex, faces: number[]): Vec3[] {
  const points: Vec3[] = [];
  for (const id of faces) {
    for (const edgeId of index.face(id).edges) {
      const edge = index.edges[edgeId];
      if (edge !== undefined) points.push(edge.start, edge.middle, edge.end);
    }
  }
  return points;
}

export function measurePrismatic(index: PartIndex, faces: number[], result: PrismaticResult): PrismaticMeasures {
  const { reading, profile } = result;
  const d = reading.direction;
  const members = new Set(faces);
  const all = projectAlong(facePoints(index, faces), d);
  let depth: number;
  if (reading.kind === "floor") {
    const floorLevel = Math.min(...reading.floors.map((id) => dot(index.face(id).centroid, d)));
    depth = all.max - floorLevel;
  } else {
    depth = all.max - all.min;
  }

  const walls = reading.walls.map((id) => index.face(id));
  // internal vertical corners: concave cylinders along d, or two planar walls meeting concavely along d
  let corner: number | null = null;
  for (const wall of walls) {
    if (
      wall.surface === "cylinder" &&
      wall.sense === "concave" &&
      wall.radius !== null &&
      (isCornerBlend(index, wall, members) || reading.kind === "through")
    ) {
      corner = corner === null ? wall.radius : Math.min(corner, wall.radius);
    }
  }
  if (corner === null) {
    for (const wall of walls) {
      if (wall.surface !== "plane") continue;
      for (const n of index.neighbours[wall.id] ?? []) {
        if (
          n.convexity !== "concave" ||
          !members.has(n.face) ||
          index.face(n.face).surface !== "plane" ||
          !reading.walls.includes(n.face)
        )
          continue;
        const alongD = n.edges.some((edgeId) => {
          const edge = index.edges[edgeId];
          return edge !== undefined && edge.curve === "line" && index.parallel(normalise(sub(edge.end, edge.start)), d);
        });
        if (alongD) corner = 0;
      }
    }
  }

  // narrowest width: between planar walls facing each other
  let width: number | null = null;
  const planar = walls.filter((wall) => wall.surface === "plane" && wall.normal !== null);
  for (let i = 0; i < planar.length; i++) {
    for (let j = i + 1; j < planar.length; j++) {
      const a = planar[i]!,
        b = planar[j]!;
      const na = a.normal as Vec3;
      if (dot(na, b.normal as Vec3) > -index.tolerance.parallelCos) continue;
      const gap = dot(sub(b.centroid, a.centroid), na);
      if (gap > 0) width = width === null ? gap : Math.min(width, gap);
    }
  }
  for (const wall of walls) {
    // a round end or a through slot's round floor: its diameter bounds the tool
    if (
      wall.surface === "cylinder" &&
      wall.sense === "concave" &&
      wall.radius !== null &&
      !isCornerBlend(index, wall, members)
    ) {
      width = width === null ? 2 * wall.radius : Math.min(width, 2 * wall.radius);
    }
  }
  if (width === null && profile !== null && profile.closed && planar.length >= 3)
    width = inscribedDiameter(index, profile.floor, d);
  if (width === null && profile !== null && !profile.closed) {
    // a step: from its wall across the floor to the far open edge
    const floorPoints = facePoints(index, [profile.floor]);
    for (const wall of planar) {
      const n = wall.normal as Vec3;
      let far = 0;
      for (const p of floorPoints) far = Math.max(far, dot(sub(p, wall.centroid), n));
      if (far > 0) width = width === null ? far : Math.min(width, far);
    }
  }

  let openSides: Vec3[];
  if (profile !== null) openSides = profile.openSides;
  else {
    let sum: Vec3 = [0, 0, 0];
    for (const wall of walls) if (wall.normal !== null) sum = add(sum, scale(wall.normal, wall.area));
    const side = perpendicularPart(sum, d);
    openSides = length(side) > 1e-9 * (1 + length(sum)) && !ringOf(result) ? [normalise(side)] : [];
  }

  return {
    access_direction: d,
    other_access_directions: reading.kind === "through" ? [scale(d, -1)] : [],
    depth_mm: depth,
    floor_faces: [...reading.floors].sort((a, b) => a - b),
    wall_faces: [...reading.walls].sort((a, b) => a - b),
    min_internal_corner_radius_mm: corner,
    min_width_mm: width,
    open_sides: openSides,
  };
}

function ringOf(result: PrismaticResult): boolean {
  return result.class.endsWith("passage") || result.class === "through_hole";
}

/** Twice the radius of the largest circle in the floor's outer polygon (triangles exactly; others by their straight edges). */
function inscribedDiameter(index: PartIndex, floor: number, d: Vec3): number | null {
  const loop = index.outerLoop(floor).filter((item) => item.edge.curve === "line");
  if (loop.length < 3) return null;
  // a convex polygon's inradius: the largest r with a point at least r inside every edge; by
  // bisection over r on the intersection of the inward-shifted half planes (few edges: cheap)
  const u = normalise(perpendicularPart(sub(loop[0]!.to, loop[0]!.from), d));
  const v = cross(d, u);
  const lines = loop.map((item) => {
    const a: [number, number] = [dot(item.from, u), dot(item.from, v)];
    const b: [number, number] = [dot(item.to, u), dot(item.to, v)];
    const t = [b[0] - a[0], b[1] - a[1]];
    const l = Math.hypot(t[0]!, t[1]!);
    // the floor is on the left of the loop: the inward normal is the tangent turned left
    const n: [number, number] = [-t[1]! / l, t[0]! / l];
    return { n, c: n[0] * a[0] + n[1] * a[1] };
  });
  const perimeterPoints = loop.map((item) => [dot(item.from, u), dot(item.from, v)] as [number, number]);
  let low = 0,
    high = Math.max(
      ...lines.map((line) => Math.max(...perimeterPoints.map((p) => line.n[0] * p[0] + line.n[1] * p[1] - line.c))),
    );
  for (let step = 0; step < 40; step++) {
    const r = (low + high) / 2;
    if (feasible(lines, r, perimeterPoints)) low = r;
    else high = r;
  }
  return low > 0 ? 2 * low : null;
}

/** Whether some point is at least r inside every line (n . p >= c + r), tried at the shifted lines' crossings. */
function feasible(lines: { n: [number, number]; c: number }[], r: number, _points: [number, number][]): boolean {
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i]!,
        b = lines[j]!;
      const det = a.n[0] * b.n[1] - a.n[1] * b.n[0];
      if (Math.abs(det) < 1e-12) continue;
      const ca = a.c + r,
        cb = b.c + r;
      const p: [number, number] = [(ca * b.n[1] - a.n[1] * cb) / det, (a.n[0] * cb - ca * b.n[0]) / det];
      if (lines.every((line) => line.n[0] * p[0] + line.n[1] * p[1] >= line.c + r - 1e-9)) return true;
    }
  }
  return false;
}
