/**
 * Region boundaries as edges: one per connected chain of mesh edges between the same two regions,
 * with its curve and its convexity, and each face's chains as loops.
 */
import type { CurveType, EdgeAnalysis, EdgeTopology, FaceAnalysis, Vec3, WireInfo } from "../types.ts";
import type { Region } from "./region.ts";
import { CircleFit } from "./cylinder-fit.ts";
import { ConvexityVote } from "../graph.ts";
import { add, cross, distance, dot, normalise, scale, sub } from "../../math/vec3.ts";
import { normalOf, pointOf, type MeshGeometry } from "./mesh-geometry.ts";
import { radialFrom } from "./linear-algebra.ts";

interface MeshEdge {
  /** half-edge in the lower region's triangle (its direction orients the tangent) */
  h: number;
  a: number;
  b: number;
}

export function boundaryEdges(
  geometry: MeshGeometry,
  regionOf: Int32Array,
  regions: Region[],
  faces: FaceAnalysis[],
  smoothAngle: number,
  fitDistance: number,
): EdgeAnalysis[] {
  const { corners, triangleCount } = geometry;
  // group mesh edges by (region a, region b), b = -1 free, -2 non-manifold
  const byPair = new Map<string, { a: number; b: number; edges: MeshEdge[] }>();
  const addEdge = (a: number, b: number, h: number): void => {
    const key = `${a}:${b}`;
    let group = byPair.get(key);
    if (group === undefined) {
      group = { a, b, edges: [] };
      byPair.set(key, group);
    }
    group.edges.push({ h, a, b });
  };
  const nonManifoldDone = new Set<string>();
  for (let h = 0; h < triangleCount * 3; h++) {
    const t = Math.floor(h / 3);
    if (geometry.degenerate[t]) continue;
    const a = regionOf[t] as number;
    const other = geometry.twin[h] as number;
    if (other >= 0) {
      const b = regionOf[Math.floor(other / 3)] as number;
      if (a < b) addEdge(a, b, h);
    } else if (other === -1) {
      addEdge(a, -1, h);
    } else {
      const v0 = corners[h] as number,
        v1 = corners[h - (h % 3) + (((h % 3) + 1) % 3)] as number;
      const key = `${Math.min(v0, v1)}:${Math.max(v0, v1)}:${a}`;
      if (nonManifoldDone.has(key)) continue;
      nonManifoldDone.add(key);
      addEdge(a, -2, h);
    }
  }

  const edges: EdgeAnalysis[] = [];
  const chainVertices = new Map<number, number[]>(); // edge id -> its vertices in order
  const groups = [...byPair.values()].sort((x, y) => x.a - y.a || x.b - y.b);
  for (const group of groups) {
    for (const chain of chainsOf(geometry, group.edges)) {
      const edge = describeChain(geometry, regions, chain, edges.length, group.a, group.b, smoothAngle, fitDistance);
      chainVertices.set(edge.analysis.id, edge.path);
      edges.push(edge.analysis);
    }
  }
  // wires: per face, its boundary chains grouped into loops (connected through shared vertices)
  for (const face of faces) face.edges = [];
  for (const edge of edges) for (const faceId of edge.faces) faces[faceId]?.edges.push(edge.id);
  for (const face of faces) {
    face.edges.sort((x, y) => x - y);
    face.wires = loopsOf(geometry, face.edges, chainVertices);
    face.outerWires = face.wires.filter((wire) => wire.outer).length;
    face.innerWires = face.wires.length - face.outerWires;
  }
  return edges;
}

/** Splits mesh edges into chains connected through shared vertices. */
function chainsOf(geometry: MeshGeometry, edges: MeshEdge[]): MeshEdge[][] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(x, root);
    return root;
  };
  const ends = (edge: MeshEdge): [number, number] => {
    const h = edge.h;
    return [geometry.corners[h] as number, geometry.corners[h - (h % 3) + (((h % 3) + 1) % 3)] as number];
  };
  for (const edge of edges) {
    const [v0, v1] = ends(edge);
    if (!parent.has(v0)) parent.set(v0, v0);
    if (!parent.has(v1)) parent.set(v1, v1);
    const r0 = find(v0),
      r1 = find(v1);
    if (r0 !== r1) parent.set(r0, r1);
  }
  const chains = new Map<number, MeshEdge[]>();
  for (const edge of edges) {
    const root = find(ends(edge)[0]);
    let chain = chains.get(root);
    if (chain === undefined) {
      chain = [];
      chains.set(root, chain);
    }
    chain.push(edge);
  }
  return [...chains.values()];
}

/** The outward normal of a region at point p, or of triangle t for a free-form region. */
function regionNormalAt(geometry: MeshGeometry, region: Region, p: Vec3, t: number): Vec3 {
  if (region.kind === "plane") return region.normal;
  if (region.kind === "cylinder" && region.cylinder !== null) {
    const { axis, point, sense } = region.cylinder;
    return scale(normalise(radialFrom(p, point, axis)), sense);
  }
  return normalOf(geometry, t);
}

function describeChain(
  geometry: MeshGeometry,
  regions: Region[],
  chain: MeshEdge[],
  id: number,
  a: number,
  b: number,
  smoothAngle: number,
  fitDistance: number,
): { analysis: EdgeAnalysis; path: number[] } {
  const topology: EdgeTopology = b >= 0 ? "manifold" : b === -1 ? "free" : "non_manifold";
  const vote = new ConvexityVote(smoothAngle);
  let length = 0;
  const next = new Map<number, number>(); // vertex -> following vertex along the chain (a's direction)
  const indegree = new Map<number, number>();
  for (const edge of chain) {
    const h = edge.h;
    const t = Math.floor(h / 3);
    const v0 = geometry.corners[h] as number,
      v1 = geometry.corners[h - (h % 3) + (((h % 3) + 1) % 3)] as number;
    next.set(v0, v1);
    indegree.set(v1, (indegree.get(v1) ?? 0) + 1);
    const p0 = pointOf(geometry, v0),
      p1 = pointOf(geometry, v1);
    const segment = sub(p1, p0);
    const segmentLength = Math.hypot(segment[0], segment[1], segment[2]);
    length += segmentLength;
    if (topology !== "manifold" || !(segmentLength > 0)) continue;
    const middle = scale(add(p0, p1), 0.5);
    const other = Math.floor((geometry.twin[h] as number) / 3);
    const na = regionNormalAt(geometry, regions[a] as Region, middle, t);
    const nb = regionNormalAt(geometry, regions[b] as Region, middle, other);
    const tangent = scale(segment, 1 / segmentLength);
    vote.add(Math.atan2(dot(cross(na, nb), tangent), dot(na, nb)), segmentLength);
  }
  // walk the chain from a vertex nothing leads to (or anywhere on a loop)
  const start = [...next.keys()].find((v) => !indegree.has(v)) ?? (next.keys().next().value as number);
  const path = [start];
  const visited = new Set([start]);
  for (let v = next.get(start); v !== undefined && !visited.has(v); v = next.get(v)) {
    path.push(v);
    visited.add(v);
  }
  const closedLoop = next.get(path[path.length - 1] as number) === start;
  if (closedLoop) path.push(start);
  const points = path.map((v) => pointOf(geometry, v));
  // the middle by length along the walk
  let middle = points[0] as Vec3;
  let walked = 0;
  const walkedLength = points.slice(1).reduce((sum, p, i) => sum + distance(p, points[i] as Vec3), 0);
  for (let i = 1; i < points.length; i++) {
    const step = distance(points[i] as Vec3, points[i - 1] as Vec3);
    if (walked + step >= walkedLength / 2) {
      const f = step > 0 ? (walkedLength / 2 - walked) / step : 0;
      middle = add(points[i - 1] as Vec3, scale(sub(points[i] as Vec3, points[i - 1] as Vec3), f));
      break;
    }
    walked += step;
  }
  const shape = chainCurve(
    points,
    closedLoop,
    regions[a] as Region,
    b >= 0 ? (regions[b] as Region) : null,
    fitDistance,
  );
  const measured = topology === "manifold" ? vote.result() : null;
  const analysis: EdgeAnalysis = {
    id,
    curve: shape.curve,
    length,
    start: points[0] as Vec3,
    middle,
    end: points[points.length - 1] as Vec3,
    circle: shape.circle,
    faces: b >= 0 ? [a, b] : [a],
    topology,
    convexity: measured?.convexity ?? null,
    angle: measured?.angle ?? null,
    uniform: measured?.uniform ?? true,
  };
  return { analysis, path };
}

/** Line, circle (in a plane of one of the two regions, or around a cylinder's axis) or other. */
function chainCurve(
  points: Vec3[],
  closedLoop: boolean,
  a: Region,
  b: Region | null,
  fitDistance: number,
): { curve: CurveType; circle: EdgeAnalysis["circle"] } {
  const first = points[0] as Vec3,
    last = points[points.length - 1] as Vec3;
  if (!closedLoop && points.length >= 2) {
    const direction = sub(last, first);
    const length = Math.hypot(direction[0], direction[1], direction[2]);
    if (length > 0) {
      const unit = scale(direction, 1 / length);
      const straight = points.every((p) => {
        const w = sub(p, first);
        const along = dot(w, unit);
        return Math.hypot(w[0] - along * unit[0], w[1] - along * unit[1], w[2] - along * unit[2]) <= fitDistance;
      });
      if (straight) return { curve: "line", circle: null };
    }
  }
  const distinct = closedLoop ? points.slice(0, -1) : points;
  if (distinct.length < 4) return { curve: "other", circle: null };
  const axes: Vec3[] = [];
  for (const region of [a, b]) {
    if (region?.kind === "plane") axes.push(region.normal);
    if (region?.kind === "cylinder" && region.cylinder) axes.push(region.cylinder.axis);
  }
  for (const axis of axes) {
    // the points must lie in one plane perpendicular to the axis
    const heights = distinct.map((p) => dot(p, axis));
    let low = Infinity,
      high = -Infinity;
    for (const h of heights) {
      low = Math.min(low, h);
      high = Math.max(high, h);
    }
    if (high - low > fitDistance) continue;
    const fit = new CircleFit(axis);
    for (const p of distinct) fit.add(p);
    if (!fit.fitted() || fit.maxResidual() > Math.max(fitDistance, 1e-3 * fit.radius)) continue;
    const centre = add(fit.centre(), scale(axis, heights[0] as number));
    return { curve: "circle", circle: { center: centre, axis, radius: fit.radius } };
  }
  return { curve: "other", circle: null };
}

/** A face's boundary chains grouped into loops; the loop spanning the largest box is the outer one. */
function loopsOf(geometry: MeshGeometry, ids: number[], vertices: Map<number, number[]>): WireInfo[] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(x, root);
    return root;
  };
  for (const id of ids) {
    for (const v of vertices.get(id) ?? []) if (!parent.has(v)) parent.set(v, v);
    const list = vertices.get(id) ?? [];
    for (let i = 1; i < list.length; i++) {
      const r0 = find(list[0] as number),
        r1 = find(list[i] as number);
      if (r0 !== r1) parent.set(r0, r1);
    }
  }
  const loops = new Map<number, number[]>();
  for (const id of ids) {
    const first = (vertices.get(id) ?? [])[0];
    if (first === undefined) continue;
    const root = find(first);
    let loop = loops.get(root);
    if (loop === undefined) {
      loop = [];
      loops.set(root, loop);
    }
    loop.push(id);
  }
  const wires = [...loops.values()].map((loopEdges) => {
    const min: Vec3 = [Infinity, Infinity, Infinity],
      max: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (const id of loopEdges) {
      for (const v of vertices.get(id) ?? []) {
        const p = pointOf(geometry, v);
        for (let axis = 0; axis < 3; axis++) {
          min[axis] = Math.min(min[axis]!, p[axis]!);
          max[axis] = Math.max(max[axis]!, p[axis]!);
        }
      }
    }
    return { edges: loopEdges.sort((x, y) => x - y), span: distance(min, max) };
  });
  const outerIndex = wires.reduce((best, wire, index) => (wire.span > (wires[best]?.span ?? -1) ? index : best), 0);
  return wires.map((wire, index) => ({ outer: index === outerIndex, edges: wire.edges }));
}
