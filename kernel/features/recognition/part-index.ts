/**
 * Lookups over a PartAnalysis that the rules share: each face's neighbours with how they meet,
 * a face's outer boundary as an ordered loop of edges, and the tolerances.
 */
import type { Convexity, EdgeAnalysis, FaceAdjacency, FaceAnalysis, PartAnalysis, Vec3 } from "../types.ts";
import { cross, distance, dot, length, normalise, sub } from "../../math/vec3.ts";

export interface Neighbour {
  face: number;
  convexity: Convexity;
  /** material angle, radians (pi/2 a box edge, 3 pi/2 a pocket's floor) */
  angle: number;
  /** length of the shared edges, mm */
  length: number;
  edges: number[];
}

/** One edge of a face's boundary loop, in loop order (counter-clockwise seen from outside the material). */
export interface LoopEdge {
  edge: EdgeAnalysis;
  /** where the edge starts and ends along the loop */
  from: Vec3;
  to: Vec3;
  /** the face on the other side (null: free, seam or degenerate) */
  other: number | null;
  convexity: Convexity | null;
}

export interface Tolerances {
  /** mm */
  distance: number;
  /** cosine below which two directions are perpendicular */
  perpendicularCos: number;
  /** cosine above which two directions are parallel */
  parallelCos: number;
}

export class PartIndex {
  readonly faces: FaceAnalysis[];
  readonly edges: EdgeAnalysis[];
  readonly neighbours: Neighbour[][];
  readonly tolerance: Tolerances;
  readonly #pairs = new Map<string, FaceAdjacency>();
  readonly #loops = new Map<number, LoopEdge[][]>();

  constructor(
    readonly analysis: PartAnalysis,
    tolerance: Tolerances,
  ) {
    this.faces = analysis.faces;
    this.edges = analysis.edges;
    this.tolerance = tolerance;
    this.neighbours = analysis.faces.map(() => []);
    for (const pair of analysis.adjacency) {
      const [a, b] = pair.faces;
      this.#pairs.set(`${a}:${b}`, pair);
      const common = { convexity: pair.convexity, angle: pair.angle, length: pair.length, edges: pair.edges };
      this.neighbours[a]?.push({ face: b, ...common });
      this.neighbours[b]?.push({ face: a, ...common });
    }
  }

  face(id: number): FaceAnalysis {
    return this.faces[id] as FaceAnalysis;
  }

  pair(a: number, b: number): FaceAdjacency | undefined {
    return this.#pairs.get(a < b ? `${a}:${b}` : `${b}:${a}`);
  }

  parallel(a: Vec3, b: Vec3): boolean {
    return Math.abs(dot(a, b)) > this.tolerance.parallelCos;
  }

  sameDirection(a: Vec3, b: Vec3): boolean {
    return dot(a, b) > this.tolerance.parallelCos;
  }

  perpendicular(a: Vec3, b: Vec3): boolean {
    return Math.abs(dot(a, b)) < this.tolerance.perpendicularCos;
  }

  /**
   * The face's wires as loops of edges ordered end to end, the outer loop first, each running
   * with the face on its left seen from outside the material (planar faces). Edges that do not chain (seams, degenerate) are left where they fall.
   */
  loops(faceId: number): LoopEdge[][] {
    const known = this.#loops.get(faceId);
    if (known !== undefined) return known;
    const face = this.face(faceId);
    const wires = [...face.wires].sort((a, b) => Number(b.outer) - Number(a.outer));
    const loops = wires.map((wire) => this.#orderLoop(face, wire.edges, wire.outer));
    this.#loops.set(faceId, loops);
    return loops;
  }

  outerLoop(faceId: number): LoopEdge[] {
    return this.loops(faceId)[0] ?? [];
  }

  #orderLoop(face: FaceAnalysis, edgeIds: number[], outer: boolean): LoopEdge[] {
    const tol = Math.max(this.tolerance.distance * 10, 1e-6);
    const pending = edgeIds
      .map((id) => this.edges[id])
      .filter(
        (edge): edge is EdgeAnalysis =>
          edge !== undefined && edge.topology !== "degenerate" && edge.topology !== "seam",
      );
    const loop: LoopEdge[] = [];
    const make = (edge: EdgeAnalysis, forward: boolean): LoopEdge => {
      const other = edge.faces.find((f) => f !== face.id) ?? null;
      return {
        edge,
        from: forward ? edge.start : edge.end,
        to: forward ? edge.end : edge.start,
        other: edge.topology === "manifold" ? other : null,
        convexity: edge.convexity,
      };
    };
    let current = pending.shift();
    if (current === undefined) return loop;
    loop.push(make(current, true));
    while (pending.length > 0) {
      const end = (loop[loop.length - 1] as LoopEdge).to;
      let index = pending.findIndex((edge) => distance(edge.start, end) < tol);
      let forward = true;
      if (index < 0) {
        index = pending.findIndex((edge) => distance(edge.end, end) < tol);
        forward = false;
      }
      if (index < 0) {
        // not end to end (a wire OCCT stores otherwise): take the nearest
        let best = 0,
          bestDistance = Infinity;
        pending.forEach((edge, i) => {
          const d = Math.min(distance(edge.start, end), distance(edge.end, end));
          if (d < bestDistance) {
            bestDistance = d;
            best = i;
          }
        });
        index = best;
        const candidate = pending[best] as EdgeAnalysis;
        forward = distance(candidate.start, end) <= distance(candidate.end, end);
      }
      current = pending.splice(index, 1)[0] as EdgeAnalysis;
      loop.push(make(current, forward));
    }
    // the face on the left: outer loops counter-clockwise seen from the outward normal, inner
    // loops clockwise (planar faces)
    if (face.normal !== null && loop.length > 1) {
      let area: Vec3 = [0, 0, 0];
      for (const item of loop) {
        // arcs: through the middle, so a half circle counts
        const middle = item.edge.middle;
        const a = cross(sub(item.from, face.centroid), sub(middle, face.centroid));
        const b = cross(sub(middle, face.centroid), sub(item.to, face.centroid));
        area = [area[0] + a[0] + b[0], area[1] + a[1] + b[1], area[2] + a[2] + b[2]];
      }
      if (dot(area, face.normal) < 0 === outer) {
        loop.reverse();
        for (const item of loop) [item.from, item.to] = [item.to, item.from];
      }
    }
    return loop;
  }
}

/** Unit direction of a straight loop edge from its start to its end along the loop. */
export function loopDirection(item: LoopEdge): Vec3 {
  return normalise(sub(item.to, item.from));
}

export function isStraight(item: LoopEdge): boolean {
  return item.edge.curve === "line" && length(sub(item.to, item.from)) > 0;
}
