/**
 * The profile of a floor reading: the main floor's outer boundary walked with the floor on the
 * left, each edge marked W (it runs into a face of the feature: a wall or a blend) or O (open: a
 * convex edge to a face outside the feature, where the tool can leave sideways). Runs of W edges
 * are the wall chains; how the open edges leave a chain's two ends tells a slot (they come back
 * towards each other), a corner step (they meet at an angle) and a step running through (they run
 * side by side).
 */
import type { Vec3 } from "../types.ts";
import { isStraight, loopDirection, type LoopEdge, type PartIndex } from "./part-index.ts";
import { cross, dot, normalise, scale } from "../../math/vec3.ts";

export interface Chain {
  /** the faces the chain runs into, in loop order, each once */
  faces: number[];
  /** the open edges before and after the chain */
  before: LoopEdge | null;
  after: LoopEdge | null;
  /** how the open boundary leaves the chain's two ends (see the header); null when unknown */
  ends: "slot" | "corner" | "through" | null;
  /** cosine between the two directions leaving the chain's ends */
  endCos: number | null;
}

export interface FloorProfile {
  floor: number;
  loop: LoopEdge[];
  marks: ("W" | "O")[];
  chains: Chain[];
  closed: boolean;
  /** outward unit directions, in the floor's plane, of the open edges (parallel ones merged) */
  openSides: Vec3[];
}

const PARALLEL = 0.94; // about 20 degrees

/**
 * `floors` are pieces of one plane (the first the largest): their boundary is walked as one, the
 * edges between two pieces left out.
 */
export function floorProfile(index: PartIndex, floors: number[], members: Set<number>, normal: Vec3): FloorProfile {
  const floor = floors[0] as number;
  const loop = floors.length === 1 ? index.outerLoop(floor) : unionBoundary(index, floors, normal);
  const marks = loop.map((item): "W" | "O" =>
    item.other !== null && members.has(item.other) && item.convexity !== "convex" ? "W" : "O",
  );
  const closed = marks.length > 0 && marks.every((mark) => mark === "W");
  const chains: Chain[] = [];
  const openSides: Vec3[] = [];
  loop.forEach((item, i) => {
    if (marks[i] !== "O" || !isStraight(item)) return;
    // the floor is on the left of the loop: outwards is direction x normal
    const outward = normalise(cross(loopDirection(item), normal));
    if (!openSides.some((side) => dot(side, outward) > 0.999)) openSides.push(outward);
  });
  if (!closed && marks.includes("W")) {
    const n = loop.length;
    const start = marks.indexOf("O");
    let i = 0;
    while (i < n) {
      const at = (start + i) % n;
      if (marks[at] === "O") {
        i++;
        continue;
      }
      const faces: number[] = [];
      const beforeIndex = (at - 1 + n) % n;
      let j = i;
      while (j < n && marks[(start + j) % n] === "W") {
        const other = (loop[(start + j) % n] as LoopEdge).other as number;
        if (faces[faces.length - 1] !== other) faces.push(other);
        j++;
      }
      const afterIndex = (start + j) % n;
      const before = loop[beforeIndex] ?? null;
      const after = loop[afterIndex] ?? null;
      chains.push({ faces, before, after, ...endsOf(before, after) });
      i = j;
    }
  }
  return { floor, loop, marks, chains, closed, openSides };
}

/** Directions leaving the chain: along the open edge after it, and back along the one before it. */
function endsOf(before: LoopEdge | null, after: LoopEdge | null): { ends: Chain["ends"]; endCos: number | null } {
  if (before === null || after === null) return { ends: null, endCos: null };
  const leave = tangentAtStart(after);
  const back = scale(tangentAtEnd(before), -1);
  const c = dot(leave, back);
  if (before === after || c < -PARALLEL) return { ends: "slot", endCos: c };
  if (c > PARALLEL) return { ends: "through", endCos: c };
  return { ends: "corner", endCos: c };
}

/** For arcs, the chord from the start to the middle stands in for the tangent. */
function tangentAtStart(item: LoopEdge): Vec3 {
  if (isStraight(item)) return loopDirection(item);
  const middle = item.edge.middle;
  return normalise([middle[0] - item.from[0], middle[1] - item.from[1], middle[2] - item.from[2]]);
}

function tangentAtEnd(item: LoopEdge): Vec3 {
  if (isStraight(item)) return loopDirection(item);
  const middle = item.edge.middle;
  return normalise([item.to[0] - middle[0], item.to[1] - middle[1], item.to[2] - middle[2]]);
}

/** The outer boundary of several coplanar faces: their loops without the edges they share, chained end to end; the loop enclosing most area. */
function unionBoundary(index: PartIndex, floors: number[], normal: Vec3): LoopEdge[] {
  const set = new Set(floors);
  const pending = floors
    .flatMap((id) => index.loops(id).flat())
    .filter((item) => item.other === null || !set.has(item.other));
  const tol = Math.max(index.tolerance.distance * 10, 1e-6);
  const loops: LoopEdge[][] = [];
  while (pending.length > 0) {
    const loop = [pending.shift() as LoopEdge];
    for (;;) {
      const end = (loop[loop.length - 1] as LoopEdge).to;
      const next = pending.findIndex(
        (item) => Math.hypot(item.from[0] - end[0], item.from[1] - end[1], item.from[2] - end[2]) < tol,
      );
      if (next < 0) break;
      loop.push(pending.splice(next, 1)[0] as LoopEdge);
    }
    loops.push(loop);
  }
  const area = (loop: LoopEdge[]): number => {
    let sum: Vec3 = [0, 0, 0];
    for (const item of loop) {
      const c = cross(item.from, item.to);
      sum = [sum[0] + c[0], sum[1] + c[1], sum[2] + c[2]];
    }
    return dot(sum, normal);
  };
  return loops.sort((a, b) => area(b) - area(a))[0] ?? [];
}
