/**
 * What B-rep and mesh analysis share: the attributed adjacency graph built from analysed edges,
 * the topology warnings, box arithmetic and the convexity vote along an edge.
 */
import type { AnalysisWarning, BoundingBox, Convexity, EdgeAnalysis, FaceAdjacency, Vec3 } from "./types.ts";

/** One entry per pair of faces sharing manifold edges with a convexity (see FaceAdjacency). */
export function buildAdjacency(edges: EdgeAnalysis[]): FaceAdjacency[] {
  const pairs = new Map<string, { faces: [number, number]; edges: EdgeAnalysis[] }>();
  for (const edge of edges) {
    if (edge.topology !== "manifold" || edge.convexity === null) continue;
    const [a, b] = edge.faces as [number, number];
    const key = `${a}:${b}`;
    let pair = pairs.get(key);
    if (pair === undefined) {
      pair = { faces: [a, b], edges: [] };
      pairs.set(key, pair);
    }
    pair.edges.push(edge);
  }
  const result: FaceAdjacency[] = [];
  for (const pair of pairs.values()) {
    const byKind: Record<Convexity, number> = { convex: 0, concave: 0, smooth: 0 };
    let length = 0,
      angleSum = 0;
    for (const edge of pair.edges) {
      // a zero-length edge still votes
      const weight = edge.length > 0 ? edge.length : 1e-9;
      byKind[edge.convexity as Convexity] += weight;
      length += edge.length;
      angleSum += weight * (edge.angle as number);
    }
    const weights = byKind.convex + byKind.concave + byKind.smooth;
    const convexity = (Object.keys(byKind) as Convexity[]).reduce(
      (best, kind) => (byKind[kind] > byKind[best] ? kind : best),
      "smooth" as Convexity,
    );
    result.push({
      faces: pair.faces,
      edges: pair.edges.map((edge) => edge.id).sort((x, y) => x - y),
      length,
      convexity,
      angle: angleSum / weights,
      mixed: new Set(pair.edges.map((edge) => edge.convexity)).size > 1,
    });
  }
  return result.sort((x, y) => x.faces[0] - y.faces[0] || x.faces[1] - y.faces[1]);
}

/** open_shell and non_manifold_edges warnings naming the edges and faces. */
export function topologyWarnings(edges: EdgeAnalysis[], warnings: AnalysisWarning[]): void {
  const free = edges.filter((edge) => edge.topology === "free");
  if (free.length > 0) {
    warnings.push({
      code: "open_shell",
      message: `The part is not closed: ${free.length} edges belong to one face only.`,
      edges: free.map((edge) => edge.id),
      faces: [...new Set(free.flatMap((edge) => edge.faces))].sort((a, b) => a - b),
    });
  }
  const nonManifold = edges.filter((edge) => edge.topology === "non_manifold");
  if (nonManifold.length > 0) {
    warnings.push({
      code: "non_manifold_edges",
      message: `${nonManifold.length} edges are shared by more than two faces; they are left out of the adjacency graph.`,
      edges: nonManifold.map((edge) => edge.id),
      faces: [...new Set(nonManifold.flatMap((edge) => edge.faces))].sort((a, b) => a - b),
    });
  }
}

export function unionOfBoxes(boxes: BoundingBox[]): BoundingBox | null {
  if (boxes.length === 0) return null;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const box of boxes) {
    for (let axis = 0; axis < 3; axis++) {
      min[axis] = Math.min(min[axis] as number, box.min[axis] as number);
      max[axis] = Math.max(max[axis] as number, box.max[axis] as number);
    }
  }
  return { min, max };
}

/** Tallies signed normal angles phi along an edge (see types.ts) into a convexity. */
export class ConvexityVote {
  convex = 0;
  concave = 0;
  smooth = 0;
  #phiSum = 0;
  #weightSum = 0;

  constructor(readonly smoothAngle: number) {}

  add(phi: number, weight = 1): void {
    this.#phiSum += phi * weight;
    this.#weightSum += weight;
    if (Math.abs(phi) < this.smoothAngle) this.smooth += weight;
    else if (phi > 0) this.convex += weight;
    else this.concave += weight;
  }

  /** null when nothing was added */
  result(): { convexity: Convexity; angle: number; uniform: boolean } | null {
    if (!(this.#weightSum > 0)) return null;
    const meanPhi = this.#phiSum / this.#weightSum;
    const { convex, concave, smooth } = this;
    let convexity: Convexity;
    if (smooth > convex && smooth > concave) convexity = "smooth";
    else if (convex > concave && convex >= smooth) convexity = "convex";
    else if (concave > convex && concave >= smooth) convexity = "concave";
    // a tie: the mean angle decides
    else convexity = Math.abs(meanPhi) < this.smoothAngle ? "smooth" : meanPhi > 0 ? "convex" : "concave";
    const kinds = (convex > 0 ? 1 : 0) + (concave > 0 ? 1 : 0) + (smooth > 0 ? 1 : 0);
    return { convexity, angle: Math.PI - meanPhi, uniform: kinds === 1 };
  }
}
