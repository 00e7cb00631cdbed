/**
 * How a group of feature faces reads as a 2.5D removal along one direction d (the tool axis,
 * pointing out of the material): which faces are floors (facing d), which are walls (parallel to
 * d), and which fit neither. Every planar face's normal offers a "floor" reading, every concave
 * straight edge between two faces of the group a "through" reading (walls only, open at both
 * ends); the reading that explains most of the group's area wins.
 */
import type { FaceAnalysis, Vec3 } from "../types.ts";
import type { PartIndex } from "./part-index.ts";
import { isAxisDirection, length, normalise, sub } from "../../math/vec3.ts";

export type Role = "floor" | "wall" | "misfit";

export interface Reading {
  kind: "floor" | "through";
  /** unit; for "through" readings the sign is arbitrary (both ends are open) */
  direction: Vec3;
  floors: number[];
  walls: number[];
  misfits: number[];
  /** area of floors and walls over the group's area */
  fit: number;
  /** length-weighted share of the walls' straight edges that run along d or across it (a prism's walls: 1) */
  prism: number;
  /** d is one of the stock box's axes */
  aligned: boolean;
  /** of the planar floors */
  floorArea: number;
}

/** The role of `face` in a removal along unit `d`. */
export function roleOf(index: PartIndex, face: FaceAnalysis, d: Vec3, allowFloor: boolean): Role {
  if (face.surface === "plane" && face.normal !== null) {
    if (allowFloor && index.sameDirection(face.normal, d)) return "floor";
    if (index.perpendicular(face.normal, d)) return "wall";
    return "misfit";
  }
  if (face.axis !== null && (face.surface === "cylinder" || face.surface === "cone" || face.surface === "torus")) {
    const along = index.parallel(face.axis.direction, d);
    if (face.surface === "cylinder" && along) return "wall";
    // a concave blend between a wall and the floor (a torus around d), a round-bottomed floor
    // (a concave cylinder across d)
    if (allowFloor && face.sense === "concave") {
      if (face.surface === "torus" && along) return "floor";
      if (face.surface === "cylinder" && index.perpendicular(face.axis.direction, d)) return "floor";
    }
  }
  return "misfit";
}

/** Every reading of `group` worth considering, best first. */
export function readings(index: PartIndex, group: number[]): Reading[] {
  const candidates: { kind: "floor" | "through"; direction: Vec3 }[] = [];
  const known = (kind: "floor" | "through", d: Vec3): boolean =>
    candidates.some(
      (c) =>
        c.kind === kind && (kind === "floor" ? index.sameDirection(c.direction, d) : index.parallel(c.direction, d)),
    );
  const members = new Set(group);
  for (const id of group) {
    const face = index.face(id);
    if (face.surface === "plane" && face.normal !== null && !known("floor", face.normal))
      candidates.push({ kind: "floor", direction: face.normal });
  }
  for (const id of group) {
    for (const neighbour of index.neighbours[id] ?? []) {
      if (neighbour.face < id || !members.has(neighbour.face) || neighbour.convexity !== "concave") continue;
      for (const edgeId of neighbour.edges) {
        const edge = index.edges[edgeId];
        if (edge === undefined || edge.curve !== "line") continue;
        const d = normalise(sub(edge.end, edge.start));
        if (length(d) === 0 || known("through", d)) continue;
        candidates.push({ kind: "through", direction: canonical(d) });
      }
    }
    const face = index.face(id);
    if (face.surface === "cylinder" && face.axis !== null && !known("through", face.axis.direction)) {
      candidates.push({ kind: "through", direction: canonical(face.axis.direction) });
    }
  }
  const total = group.reduce((sum, id) => sum + index.face(id).area, 0) || 1;
  const result = candidates.map(({ kind, direction }) => evaluate(index, group, kind, direction, total));
  return result
    .filter((reading) =>
      reading.kind === "through" ? reading.floors.length === 0 && reading.walls.length > 0 : reading.floors.length > 0,
    )
    .sort(compareReadings);
}

function evaluate(
  index: PartIndex,
  group: number[],
  kind: "floor" | "through",
  direction: Vec3,
  total: number,
): Reading {
  const floors: number[] = [],
    walls: number[] = [],
    misfits: number[] = [];
  let explained = 0,
    floorArea = 0;
  for (const id of group) {
    const face = index.face(id);
    const role = roleOf(index, face, direction, kind === "floor");
    if (role === "floor") {
      floors.push(id);
      if (face.surface === "plane") floorArea += face.area;
    } else if (role === "wall") walls.push(id);
    else misfits.push(id);
    if (role !== "misfit") explained += face.area;
  }
  return {
    kind,
    direction,
    floors,
    walls,
    misfits,
    fit: explained / total,
    prism: prismScore(index, walls, direction),
    aligned: isAxisDirection(direction),
    floorArea,
  };
}

/** The share of the walls' straight edge length that runs along d or across it. */
function prismScore(index: PartIndex, walls: number[], d: Vec3): number {
  let good = 0,
    all = 0;
  for (const id of walls) {
    const face = index.face(id);
    if (face.surface !== "plane") continue;
    for (const edgeId of face.edges) {
      const edge = index.edges[edgeId];
      if (edge === undefined || edge.curve !== "line" || edge.length <= 0) continue;
      const t = normalise(sub(edge.end, edge.start));
      all += edge.length;
      if (index.parallel(t, d) || index.perpendicular(t, d)) good += edge.length;
    }
  }
  return all > 0 ? good / all : 1;
}

const FIT_EPSILON = 1e-6;
const PRISM_EPSILON = 1e-3;

/**
 * Best first: the most area explained; then the walls most like a prism's along d; then a stock
 * axis; then a floor over a through reading; then the larger planar floor.
 */
export function compareReadings(a: Reading, b: Reading): number {
  if (Math.abs(a.fit - b.fit) > FIT_EPSILON) return b.fit - a.fit;
  if (Math.abs(a.prism - b.prism) > PRISM_EPSILON) return b.prism - a.prism;
  if (a.aligned !== b.aligned) return a.aligned ? -1 : 1;
  if (a.kind !== b.kind) return a.kind === "floor" ? -1 : 1;
  return b.floorArea - a.floorArea;
}

/** The sign of a through direction: the one pointing most along +Z, then +Y, then +X. */
export function canonical(d: Vec3): Vec3 {
  for (const axis of [2, 1, 0] as const) {
    if (Math.abs(d[axis]) > 1e-9) return d[axis] > 0 ? d : [-d[0], -d[1], -d[2]];
  }
  return d;
}
