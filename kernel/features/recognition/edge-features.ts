/**
 * Features of a single edge: chamfers and rounds.
 *
 * - A chamfer is a planar (or conical) face that bevels a convex edge: it meets its two main
 *   neighbours at convex edges with obtuse material angles (a 45 degree chamfer on a square edge:
 *   135 degrees on both sides), its normal lies between theirs, and it is narrow across.
 * - A round is a convex curved face (cylinder, torus, sphere) that runs smoothly into its
 *   neighbours: a fillet on a convex edge.
 */
import type { FaceAnalysis, Vec3 } from "../types.ts";
import type { Neighbour, PartIndex } from "./part-index.ts";
import { add, cross, dot, normalise } from "../../math/vec3.ts";

export interface EdgeFeatureResult {
  class: "chamfer" | "round";
  access_direction: Vec3 | null;
  width_mm: number | null;
  reasons: string[];
}

const OBTUSE_MIN = (95 * Math.PI) / 180;
const OBTUSE_MAX = (175 * Math.PI) / 180;

export function chamferOf(index: PartIndex, face: FaceAnalysis): EdgeFeatureResult | null {
  if (face.surface === "cone" && face.sense === "convex") {
    return {
      class: "chamfer",
      access_direction: null,
      width_mm: null,
      reasons: ["R-chamfer-cone: a convex cone bevelling a round edge"],
    };
  }
  if (face.surface !== "plane" || face.normal === null) return null;
  const neighbours = index.neighbours[face.id] ?? [];
  if (neighbours.some((n) => n.convexity === "concave")) return null;
  const bevels = neighbours.filter(
    (n) =>
      n.convexity === "convex" && n.angle > OBTUSE_MIN && n.angle < OBTUSE_MAX && index.face(n.face).normal !== null,
  );
  // the two longest bevelled sides with a common edge direction: the edge the chamfer replaced
  const pairs: [Neighbour, Neighbour][] = [];
  for (let i = 0; i < bevels.length; i++) {
    for (let j = i + 1; j < bevels.length; j++) {
      const a = bevels[i] as Neighbour,
        b = bevels[j] as Neighbour;
      const na = index.face(a.face).normal as Vec3,
        nb = index.face(b.face).normal as Vec3;
      const edge = cross(na, nb);
      // the chamfer's normal lies in the plane of the two normals (it bevels their common edge)
      if (Math.hypot(...edge) < 1e-6 || Math.abs(dot(normalise(edge), face.normal)) > 0.05) continue;
      pairs.push([a, b]);
    }
  }
  if (pairs.length === 0) return null;
  const [a, b] = pairs.sort((x, y) => y[0].length + y[1].length - (x[0].length + x[1].length))[0] as [
    Neighbour,
    Neighbour,
  ];
  const na = index.face(a.face).normal as Vec3,
    nb = index.face(b.face).normal as Vec3;
  const bisector = normalise(add(na, nb));
  const alongEdge = normalise(cross(na, nb));
  const width = widthAcross(index, face, alongEdge);
  const span = Math.max(a.length, b.length);
  const narrow = width !== null && span > 0 && width <= span;
  if (!narrow) return null;
  const symmetric = Math.abs(a.angle - b.angle) < (2 * Math.PI) / 180;
  return {
    class: "chamfer",
    access_direction: dot(bisector, face.normal) > 0.5 ? face.normal : bisector,
    width_mm: width,
    reasons: [
      `R-chamfer: a plane bevelling the edge between faces ${a.face} and ${b.face} at ${deg(a.angle)} and ${deg(b.angle)} degrees` +
        `${symmetric ? " (symmetric)" : ""}, ${round(width ?? 0)} mm wide along ${round(span)} mm`,
    ],
  };
}

export function roundOf(index: PartIndex, face: FaceAnalysis): EdgeFeatureResult | null {
  if (
    face.sense !== "convex" ||
    !["cylinder", "torus", "sphere", "bspline", "revolution", "extrusion", "offset"].includes(face.surface)
  )
    return null;
  const neighbours = index.neighbours[face.id] ?? [];
  const smooth = neighbours.filter((n) => n.convexity === "smooth");
  if (smooth.length === 0) return null;
  const r = face.surface === "torus" ? face.minorRadius : face.radius;
  // a full convex cylinder is a boss or a shaft, not a round
  if (face.surface === "cylinder" && (face.sweepAngle ?? 0) > Math.PI + 0.1) return null;
  return {
    class: "round",
    access_direction: null,
    width_mm: r,
    reasons: [
      `R-round: a convex ${face.surface}${r !== null ? ` of radius ${round(r)} mm` : ""} running smoothly into ${smooth.length} neighbours`,
    ],
  };
}

/** The face's extent across `along` within its plane. */
function widthAcross(index: PartIndex, face: FaceAnalysis, along: Vec3): number | null {
  const normal = face.normal as Vec3;
  const across = normalise(cross(normal, along));
  let min = Infinity,
    max = -Infinity;
  for (const edgeId of face.edges) {
    const edge = index.edges[edgeId];
    if (edge === undefined) continue;
    for (const p of [edge.start, edge.middle, edge.end]) {
      const t = dot(p, across);
      if (t < min) min = t;
      if (t > max) max = t;
    }
  }
  return Number.isFinite(min) ? max - min : null;
}

function deg(rad: number): number {
  return Math.round(((rad * 180) / Math.PI) * 10) / 10;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/**
 * A looser bevel, for a lone plane a crossing feature cut into: not on a stock axis, meeting
 * every neighbour at a convex edge, at least one of them at an obtuse angle.
 */
export function looseBevelOf(index: PartIndex, face: FaceAnalysis): EdgeFeatureResult | null {
  if (face.surface !== "plane" || face.normal === null) return null;
  const n = face.normal;
  if (Math.max(Math.abs(n[0]), Math.abs(n[1]), Math.abs(n[2])) > index.tolerance.parallelCos) return null;
  const neighbours = index.neighbours[face.id] ?? [];
  if (neighbours.length === 0 || neighbours.some((x) => x.convexity !== "convex")) return null;
  const obtuse = neighbours.filter((x) => x.angle > OBTUSE_MIN && x.angle < OBTUSE_MAX);
  if (obtuse.length === 0) return null;
  return {
    class: "chamfer",
    access_direction: n,
    width_mm: null,
    reasons: [
      `R-chamfer-loose: a lone plane off the stock axes, convex all round, bevelling face${obtuse.length > 1 ? "s" : ""} ${obtuse.map((x) => x.face).join(", ")} at an obtuse angle`,
    ],
  };
}
