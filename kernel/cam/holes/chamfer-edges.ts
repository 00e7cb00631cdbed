/**
 * A chamfer's lower edge, which the chamfer mill's path follows, from the part's triangles in
 * the setup frame. The soup's vertices need not be shared between faces (tessellations give
 * each face its own): edges are matched by position, to POSITION_KEY_MM.
 *
 * Per triangle of the chamfer faces: its outward normal n (counter-clockwise seen from outside),
 * the angle of its plane to the tool axis (90° - the normal's angle to +Z), and its uphill
 * direction u (+Z projected into the plane). A boundary edge of the faces is a lower edge when
 * it runs across u (|cos| <= 0.5) with its triangle above it, an upper edge with the triangle
 * below, an end edge otherwise. Lower edges keep their triangle's winding: seen from +Z the
 * chamfer, and the material under it, are on their left; the tool goes on their right, `away`
 * (n's horizontal part).
 *
 * Lower edges chain end to start into open or closed chains. At an open chain's end the face
 * beyond the chamfer's end edge is a wall when it faces back along the chain (the chamfer runs
 * into it): the path must stop short of it (chamfer.ts).
 */
import { cross, dot, length, sub } from "../../math/vec3.ts";
import type { TriangleSoup, Vec2, Vec3 } from "../types.ts";

/** Positions within this (mm) are one vertex. */
export const POSITION_KEY_MM = 1e-3;
/** A chamfer's triangles all lie at the same angle to the axis within this (degrees), else it is not one chamfer mill's cut. */
export const CHAMFER_ANGLE_SPREAD_DEG = 2;
/** The chamfer plane's angle to the tool axis must lie in this range (degrees): near 0 it is a wall, near 90 a floor. */
export const CHAMFER_ANGLE_RANGE_DEG = { min: 5, max: 85 } as const;
/** A neighbour face is a wall the chamfer runs into when its normal points back along the chain by more than this (cosine). */
const WALL_FACING_COS = 0.2;

export interface Plane {
  point: Vec3;
  /** unit, out of the material */
  normal: Vec3;
}

export interface ChamferChain {
  /** the lower edge's points in order: the material on the left seen from +Z */
  points: Vec3[];
  /** per segment (points[i] to points[i + 1]): unit horizontal direction away from the material */
  away: Vec2[];
  /** the last point is the first (not repeated) and a segment joins them */
  closed: boolean;
  /** a wall the chain's start and end run into, else null */
  start_wall: Plane | null;
  end_wall: Plane | null;
}

export interface ChamferEdges {
  faces: number[];
  /** the chamfer plane's angle to the tool axis, area-weighted over its triangles (45 for a 45° bevel) */
  angle_to_axis_deg: number;
  /** across the face, the widest */
  width_mm: number;
  /** the chamfer's highest point */
  top_z: number;
  chains: ChamferChain[];
}

export type ChamferEdgesResult =
  | { ok: true; edges: ChamferEdges }
  | { ok: false; code: "no_triangles" | "not_a_chamfer" | "uneven_angle" | "no_lower_edge"; message: string };

/** Per-triangle face ids from a mesh's per-vertex ones (kernel/mesh/types.ts TriangleMesh.faceIds). */
export function triangleFaceIds(vertexFaceIds: ArrayLike<number>, indices: ArrayLike<number>): Uint32Array {
  const out = new Uint32Array(indices.length / 3);
  for (let t = 0; t < out.length; t++) out[t] = vertexFaceIds[indices[3 * t] as number] as number;
  return out;
}

interface Tri {
  v: [Vec3, Vec3, Vec3];
  keys: [string, string, string];
  normal: Vec3;
  area: number;
}

function vertexKey(p: Vec3): string {
  return `${Math.round(p[0] / POSITION_KEY_MM)},${Math.round(p[1] / POSITION_KEY_MM)},${Math.round(p[2] / POSITION_KEY_MM)}`;
}

function triangle(soup: TriangleSoup, t: number): Tri | null {
  const v = [0, 1, 2].map((k) => {
    const i = soup.indices[3 * t + k] as number;
    return [
      soup.positions[3 * i] as number,
      soup.positions[3 * i + 1] as number,
      soup.positions[3 * i + 2] as number,
    ] as Vec3;
  }) as [Vec3, Vec3, Vec3];
  const c = cross(sub(v[1], v[0]), sub(v[2], v[0]));
  const twice = length(c);
  if (!(twice > 1e-12)) return null;
  return {
    v,
    keys: [vertexKey(v[0]), vertexKey(v[1]), vertexKey(v[2])],
    normal: [c[0] / twice, c[1] / twice, c[2] / twice],
    area: twice / 2,
  };
}

/**
 * The other faces' triangles by their edges, for what lies beyond the chamfer's ends: only those
 * that can share a vertex with the chamfer (within its box grown by POSITION_KEY_MM) are keyed; a
 * NIST part has some 100,000 triangles, and keying them all took seconds per chamfer.
 */
function neighbours(
  soup: TriangleSoup,
  faceIds: ArrayLike<number>,
  wanted: ReadonlySet<number>,
  tris: readonly Tri[],
): Map<string, Tri> {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (const tri of tris) {
    for (const p of tri.v) {
      for (let a = 0; a < 3; a++) {
        lo[a] = Math.min(lo[a] as number, (p[a] as number) - POSITION_KEY_MM);
        hi[a] = Math.max(hi[a] as number, (p[a] as number) + POSITION_KEY_MM);
      }
    }
  }
  const near = (i: number): boolean => {
    for (let a = 0; a < 3; a++) {
      const c = soup.positions[3 * i + a] as number;
      if (c < (lo[a] as number) || c > (hi[a] as number)) return false;
    }
    return true;
  };
  const others = new Map<string, Tri>();
  const count = soup.indices.length / 3;
  for (let t = 0; t < count; t++) {
    if (wanted.has(faceIds[t] as number)) continue;
    const [i, j, k] = [
      soup.indices[3 * t] as number,
      soup.indices[3 * t + 1] as number,
      soup.indices[3 * t + 2] as number,
    ];
    // a shared edge needs two of its corners near the chamfer
    if (Number(near(i)) + Number(near(j)) + Number(near(k)) < 2) continue;
    const tri = triangle(soup, t);
    if (tri)
      for (let e = 0; e < 3; e++) others.set(edgeKey(tri.keys[e] as string, tri.keys[(e + 1) % 3] as string), tri);
  }
  return others;
}

const edgeKey = (a: string, b: string) => (a < b ? `${a}/${b}` : `${b}/${a}`);

interface LowerEdge {
  from: string;
  to: string;
  p: Vec3;
  q: Vec3;
  away: Vec2;
}

/** The chamfer faces' lower edges, chained, and the chamfer's angle and width. */
export function chamferEdges(
  soup: TriangleSoup,
  faceIds: ArrayLike<number>,
  faces: readonly number[],
): ChamferEdgesResult {
  const wanted = new Set(faces);
  const count = soup.indices.length / 3;
  const tris: Tri[] = [];
  for (let t = 0; t < count; t++) {
    if (!wanted.has(faceIds[t] as number)) continue;
    const tri = triangle(soup, t);
    if (tri) tris.push(tri);
  }
  if (tris.length === 0)
    return { ok: false, code: "no_triangles", message: `faces ${faces.join(", ")} have no triangles` };
  const others = neighbours(soup, faceIds, wanted, tris);

  let areaSum = 0;
  let angleSum = 0;
  const angles = tris.map((tri) => (Math.asin(Math.min(1, Math.max(-1, tri.normal[2]))) * 180) / Math.PI);
  for (const [i, tri] of tris.entries()) {
    const angle = angles[i] as number;
    if (angle < CHAMFER_ANGLE_RANGE_DEG.min || angle > CHAMFER_ANGLE_RANGE_DEG.max) {
      return {
        ok: false,
        code: "not_a_chamfer",
        message: `faces ${faces.join(", ")}: a triangle lies at ${Math.round(angle * 10) / 10}° to the tool axis, which a chamfer mill from +Z does not cut`,
      };
    }
    areaSum += tri.area;
    angleSum += angle * tri.area;
  }
  // the plane's angle to the axis is the normal's elevation: a 45° bevel's normal is 45° up
  const angle = angleSum / areaSum;
  if (angles.some((a) => Math.abs(a - angle) > CHAMFER_ANGLE_SPREAD_DEG)) {
    return {
      ok: false,
      code: "uneven_angle",
      message: `faces ${faces.join(", ")} are not at one angle to the tool axis (${Math.round(Math.min(...angles))}° to ${Math.round(Math.max(...angles))}°)`,
    };
  }

  const uses = new Map<string, number>();
  for (const tri of tris) {
    for (let k = 0; k < 3; k++) {
      const key = edgeKey(tri.keys[k] as string, tri.keys[(k + 1) % 3] as string);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }

  const lower: LowerEdge[] = [];
  /** end edges by their vertices: what lies beyond them */
  const endEdges = new Map<string, { key: string; tri: Tri }[]>();
  let width = 0;
  let top = -Infinity;
  for (const tri of tris) {
    const n = tri.normal;
    const up = sub([0, 0, 1], [n[0] * n[2], n[1] * n[2], n[2] * n[2]]);
    const upLength = length(up);
    const u: Vec3 = [up[0] / upLength, up[1] / upLength, up[2] / upLength];
    const heights = tri.v.map((p) => dot(p, u));
    width = Math.max(width, Math.max(...heights) - Math.min(...heights));
    top = Math.max(top, ...tri.v.map((p) => p[2]));
    const horizontal = Math.hypot(n[0], n[1]);
    const away: Vec2 = [n[0] / horizontal, n[1] / horizontal];
    for (let k = 0; k < 3; k++) {
      const a = tri.keys[k] as string;
      const b = tri.keys[(k + 1) % 3] as string;
      const key = edgeKey(a, b);
      if (uses.get(key) !== 1) continue;
      const p = tri.v[k] as Vec3;
      const q = tri.v[(k + 1) % 3] as Vec3;
      const opposite = tri.v[(k + 2) % 3] as Vec3;
      const e = sub(q, p);
      if (Math.abs(dot(e, u)) <= 0.5 * length(e)) {
        if (dot(sub(opposite, p), u) > 0) lower.push({ from: a, to: b, p, q, away });
      } else {
        for (const vertex of [a, b]) {
          const list = endEdges.get(vertex) ?? [];
          list.push({ key, tri });
          endEdges.set(vertex, list);
        }
      }
    }
  }
  if (lower.length === 0)
    return { ok: false, code: "no_lower_edge", message: `faces ${faces.join(", ")} have no lower edge to follow` };

  const chains = chainEdges(lower).map((edges): ChamferChain => {
    const first = edges[0] as LowerEdge;
    const last = edges[edges.length - 1] as LowerEdge;
    const closed = last.to === first.from;
    const points = edges.map((e) => e.p);
    if (!closed) points.push(last.q);
    const wallAt = (vertex: string, outward: Vec2): Plane | null => {
      for (const { key } of endEdges.get(vertex) ?? []) {
        const beyond = others.get(key);
        if (!beyond) continue;
        const facing = beyond.normal[0] * outward[0] + beyond.normal[1] * outward[1];
        if (facing < -WALL_FACING_COS) return { point: beyond.v[0], normal: beyond.normal };
      }
      return null;
    };
    const direction = (e: LowerEdge): Vec2 => {
      const d: Vec2 = [e.q[0] - e.p[0], e.q[1] - e.p[1]];
      const l = Math.hypot(d[0], d[1]) || 1;
      return [d[0] / l, d[1] / l];
    };
    const d0 = direction(first);
    const d1 = direction(last);
    return {
      points,
      away: edges.map((e) => e.away),
      closed,
      start_wall: closed ? null : wallAt(first.from, [-d0[0], -d0[1]]),
      end_wall: closed ? null : wallAt(last.to, d1),
    };
  });
  return { ok: true, edges: { faces: [...faces], angle_to_axis_deg: angle, width_mm: width, top_z: top, chains } };
}

/** Lower edges joined end to start: open chains from their first edge, then closed loops. */
function chainEdges(edges: LowerEdge[]): LowerEdge[][] {
  const byStart = new Map<string, LowerEdge[]>();
  const ends = new Set<string>();
  for (const e of edges) {
    const list = byStart.get(e.from) ?? [];
    list.push(e);
    byStart.set(e.from, list);
    ends.add(e.to);
  }
  const used = new Set<LowerEdge>();
  const follow = (start: LowerEdge): LowerEdge[] => {
    const chain: LowerEdge[] = [];
    let edge: LowerEdge | undefined = start;
    while (edge && !used.has(edge)) {
      used.add(edge);
      chain.push(edge);
      edge = (byStart.get(edge.to) ?? []).find((next) => !used.has(next));
    }
    return chain;
  };
  const chains: LowerEdge[][] = [];
  for (const e of edges) if (!used.has(e) && !ends.has(e.from)) chains.push(follow(e));
  for (const e of edges) if (!used.has(e)) chains.push(follow(e));
  return chains;
}
