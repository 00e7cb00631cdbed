/**
 * Prismatic features from a group of concave-connected faces: the best 2.5D reading of the group
 * (interpret.ts), then its profile (profile.ts), then the class by rules that say why:
 *
 * - a floor whose boundary is walls all round: a pocket, named by its wall count (3, 4, 6);
 * - a floor with one run of walls: how the open boundary leaves the run's ends gives a slot
 *   (open on one side), a corner step (open on two sides meeting at a corner) or a through step
 *   (open on three sides); the walls give rectangular, triangular, slanted, 2-sided, circular;
 * - a floor with two single facing walls: a rectangular through slot;
 * - walls only (no floor), closing a ring: a passage by wall count; an open run: a through slot.
 */
import type { FaceAnalysis, Vec3 } from "../types.ts";
import { readings, type Reading } from "./interpret.ts";
import type { PartIndex } from "./part-index.ts";
import { floorProfile, type Chain, type FloorProfile } from "./profile.ts";
import type { FeatureClass } from "./types.ts";
import { cross, distanceToLine, dot, length, normalise, perpendicularTo, sub } from "../../math/vec3.ts";

export interface PrismaticResult {
  class: FeatureClass;
  reading: Reading;
  profile: FloorProfile | null;
  reasons: string[];
  /** planar walls with distinct directions (the profile's sides) */
  sides: number;
}

const HALF_TURN = Math.PI;
const QUARTER_TURN = Math.PI / 2;
const SWEEP_TOLERANCE = 0.2; // radians

/** Classifies a group of faces; null when no reading has a floor or walls, or its floor has no wall. */
export function classifyPrismatic(index: PartIndex, group: number[]): PrismaticResult | null {
  const all = readings(index, group);
  const best = all[0];
  if (best === undefined) return null;
  const reasons = [
    `reading: ${best.kind === "floor" ? "floor" : "through"} along ${fmt(best.direction)} explains ${pct(best.fit)} of the area` +
      (best.misfits.length > 0 ? ` (faces ${best.misfits.join(", ")} fit no wall or floor)` : ""),
  ];
  if (best.kind === "floor") return classifyFloor(index, group, best, reasons);
  return classifyThrough(index, best, reasons);
}

function classifyFloor(index: PartIndex, group: number[], reading: Reading, reasons: string[]): PrismaticResult | null {
  const members = new Set(group);
  const d = reading.direction;
  const byArea = [...reading.floors].sort((a, b) => index.face(b).area - index.face(a).area);
  const main = index.face(byArea[0] as number);
  // the main floor and the pieces of its plane
  const level = dot(main.centroid, d);
  const floorPieces = byArea.filter(
    (id) =>
      index.face(id).surface === "plane" &&
      Math.abs(dot(index.face(id).centroid, d) - level) <= index.tolerance.distance * 10,
  );
  const profile = floorProfile(index, floorPieces.length > 0 ? floorPieces : [main.id], members, d);
  const walls = reading.walls.map((id) => index.face(id));
  const planar = walls.filter((face) => face.surface === "plane");
  const sides = distinctDirections(
    index,
    planar.map((face) => face.normal as Vec3),
  );
  const curved = curvedWalls(index, reading.walls, members);
  const result = (cls: FeatureClass, why: string): PrismaticResult => {
    reasons.push(why);
    return { class: cls, reading, profile, reasons, sides };
  };

  // a floor without a wall anywhere on its boundary is a plateau (the top of a boss below the
  // stock's top): no feature of the taxonomy, and no pocket however its outline looks
  if (!profile.closed && profile.chains.length === 0) return null;
  if (profile.closed) {
    const ends = curved.filter((c) => !c.cornerBlend && isHalfTurn(c.sweep));
    if (ends.length >= 1) {
      return result(
        "circular_end_pocket",
        `R-pocket-circular: walls all round the floor, ${ends.length} of them half cylinders`,
      );
    }
    if (planar.length === 0 && curved.length > 0)
      return result("circular_end_pocket", "R-pocket-round: a floor walled all round by cylinders");
    return result(pocketBySides(sides), `R-pocket: walls all round the floor, ${sides} wall directions`);
  }

  // two single walls facing each other across the floor: a through slot seen from its floor
  const chains = profile.chains;
  if (chains.length === 2 && chains.every((chain) => chain.faces.length === 1)) {
    const [a, b] = chains.map((chain) => index.face(chain.faces[0] as number)) as [FaceAnalysis, FaceAnalysis];
    if (a.surface === "plane" && b.surface === "plane" && facing(index, a, b)) {
      return result(
        "rectangular_through_slot",
        "R-through-slot-floor: two parallel walls facing each other across the floor, open at both ends",
      );
    }
  }
  const chain = mainChain(index, chains);
  const inChain = new Set(chain.faces);
  const chainPlanar = chain.faces
    .map((id) => index.face(id))
    .filter((face) => face.surface === "plane" && reading.walls.includes(face.id));
  const chainCurved = curved.filter((c) => !c.cornerBlend && c.faces.some((id) => inChain.has(id)));
  const chainSides = distinctDirections(
    index,
    chainPlanar.map((face) => face.normal as Vec3),
  );
  const extra = chains.length > 1 ? ` (the floor has ${chains.length} runs of walls; the longest decides)` : "";

  if (chain.ends === "slot") {
    if (chainCurved.some((c) => isHalfTurn(c.sweep))) {
      return result(
        "vertical_circular_end_blind_slot",
        `R-slot-v-circular: open on one side, closed by a half cylinder along the tool axis${extra}`,
      );
    }
    if (chainCurved.some((c) => isQuarterTurn(c.sweep))) {
      return result(
        "horizontal_circular_end_blind_slot",
        `R-slot-h-circular: open on one side, its wall turning into the open side by quarter cylinders${extra}`,
      );
    }
    return result("rectangular_blind_slot", `R-blind-slot: open on one side, ${chainSides} wall directions${extra}`);
  }
  if (chain.ends === "corner") {
    if (chainPlanar.length === 0 && chainCurved.length > 0) {
      return result(
        "circular_blind_step",
        `R-blind-step-circular: open on two sides meeting at a corner, walled by a cylinder${extra}`,
      );
    }
    if (chainSides <= 1)
      return result(
        "triangular_blind_step",
        `R-blind-step-triangular: open on two sides meeting at a corner, one wall across the corner${extra}`,
      );
    return result(
      "rectangular_blind_step",
      `R-blind-step-rectangular: open on two sides meeting at a corner, ${chainSides} walls${extra}`,
    );
  }
  if (chain.ends === "through") {
    if (chainSides >= 2)
      return result(
        "2sides_through_step",
        `R-through-step-2sides: open on three sides, ${chainSides} walls meeting at an angle${extra}`,
      );
    const wall = chainPlanar[0];
    const across = chain.after !== null ? directionOf(chain.after) : null;
    if (wall === undefined && chainCurved.length > 0) {
      return result("circular_blind_step", `R-blind-step-circular: a cylinder wall with open sides${extra}`);
    }
    if (wall !== undefined && across !== null && index.parallel(wall.normal as Vec3, across)) {
      return result(
        "rectangular_through_step",
        `R-through-step-rectangular: open on three sides, one wall square to the open sides${extra}`,
      );
    }
    return result(
      "slanted_through_step",
      `R-through-step-slanted: open on three sides, one wall at an angle to the open sides${extra}`,
    );
  }
  // ends unknown (curved open edges): by the walls alone
  if (chainSides >= 3) return result("rectangular_blind_slot", `R-fallback-slot: ${chainSides} walls in a run${extra}`);
  if (chainSides === 2) return result("rectangular_blind_step", `R-fallback-step: 2 walls in a run${extra}`);
  return result("rectangular_through_step", `R-fallback-step: one wall${extra}`);
}

function classifyThrough(index: PartIndex, reading: Reading, reasons: string[]): PrismaticResult {
  const walls = reading.walls;
  const wallSet = new Set(walls);
  const degree = new Map<number, number>();
  for (const id of walls) {
    degree.set(id, (index.neighbours[id] ?? []).filter((n) => wallSet.has(n.face) && n.convexity !== "convex").length);
  }
  const faces = walls.map((id) => index.face(id));
  const planar = faces.filter((face) => face.surface === "plane");
  const curved = faces.filter((face) => face.surface === "cylinder");
  const sides = distinctDirections(
    index,
    planar.map((face) => face.normal as Vec3),
  );
  // a ring: every wall between two others, or wall normals all round (no half turn without one:
  // a wall split in two by a crossing feature breaks the first test, not the second)
  const gap = largestNormalGap(
    reading.direction,
    planar.map((face) => face.normal as Vec3),
  );
  const ring =
    walls.length >= 2 &&
    ((walls.every((id) => (degree.get(id) ?? 0) >= 2) && connected(index, walls)) ||
      (planar.length >= 3 && curved.length === 0 && gap < HALF_TURN - SWEEP_TOLERANCE));
  const result = (cls: FeatureClass, why: string): PrismaticResult => {
    reasons.push(why);
    return { class: cls, reading, profile: null, reasons, sides };
  };
  if (ring) {
    reasons.push(
      `walls face all round: the largest turn between wall normals is ${Math.round((gap * 180) / Math.PI)} degrees`,
    );
    if (planar.length === 0)
      return result("through_hole", "R-passage-round: curved walls closing a ring, open at both ends");
    return result(passageBySides(sides), `R-passage: ${sides} wall directions closing a ring, open at both ends`);
  }
  if (planar.length === 0 && curved.length > 0) {
    return result(
      "circular_through_slot",
      "R-through-slot-circular: a concave cylinder running through, open at both ends and on one side",
    );
  }
  if (sides <= 2 && planar.length >= 2 && !hasFacingPair(index, planar)) {
    return result(
      "triangular_through_slot",
      "R-through-slot-triangular: two walls meeting in a V, open at both ends and on one side",
    );
  }
  return result(
    "rectangular_through_slot",
    `R-through-slot: ${sides} wall directions in a run, open at both ends and on one side`,
  );
}

// ---------------------------------------------------------------------------------------------

function pocketBySides(sides: number): FeatureClass {
  if (sides <= 3) return "triangular_pocket";
  if (sides === 4) return "rectangular_pocket";
  return "6sides_pocket";
}

function passageBySides(sides: number): FeatureClass {
  if (sides <= 3) return "triangular_passage";
  if (sides === 4) return "rectangular_passage";
  return "6sides_passage";
}

/** The largest angle between neighbouring directions of the normals around d (2 pi for fewer than two). */
function largestNormalGap(d: Vec3, normals: Vec3[]): number {
  const u = perpendicularTo(d);
  const v = cross(d, u);
  const angles = normals.map((n) => Math.atan2(dot(n, v), dot(n, u))).sort((a, b) => a - b);
  if (angles.length < 2) return 2 * Math.PI;
  let gap = (angles[0] as number) + 2 * Math.PI - (angles[angles.length - 1] as number);
  for (let i = 1; i < angles.length; i++) gap = Math.max(gap, (angles[i] as number) - (angles[i - 1] as number));
  return gap;
}

/** The number of distinct directions among unit vectors (opposite ones are distinct). */
export function distinctDirections(index: PartIndex, directions: Vec3[]): number {
  const seen: Vec3[] = [];
  for (const d of directions) if (!seen.some((s) => index.sameDirection(s, d))) seen.push(d);
  return seen.length;
}

function facing(index: PartIndex, a: FaceAnalysis, b: FaceAnalysis): boolean {
  const na = a.normal as Vec3,
    nb = b.normal as Vec3;
  return dot(na, nb) < -index.tolerance.parallelCos && dot(sub(b.centroid, a.centroid), na) > 0;
}

function hasFacingPair(index: PartIndex, planar: FaceAnalysis[]): boolean {
  for (let i = 0; i < planar.length; i++) {
    for (let j = i + 1; j < planar.length; j++)
      if (facing(index, planar[i] as FaceAnalysis, planar[j] as FaceAnalysis)) return true;
  }
  return false;
}

function isHalfTurn(sweep: number): boolean {
  return Math.abs(sweep - HALF_TURN) < SWEEP_TOLERANCE;
}

function isQuarterTurn(sweep: number): boolean {
  return Math.abs(sweep - QUARTER_TURN) < SWEEP_TOLERANCE;
}

/** Concave cylinder walls of one axis and radius (a modeller may split one into pieces). */
export interface CurvedWall {
  faces: number[];
  radius: number;
  /** radians, summed over the pieces */
  sweep: number;
  /** tangent to two planar walls and less than a half turn: an internal corner's radius, not a side */
  cornerBlend: boolean;
}

export function curvedWalls(index: PartIndex, walls: number[], members: Set<number>): CurvedWall[] {
  const clusters: (CurvedWall & { axis: Vec3; origin: Vec3 })[] = [];
  for (const id of walls) {
    const face = index.face(id);
    if (face.surface !== "cylinder" || face.sense !== "concave" || face.axis === null || face.radius === null) continue;
    const found = clusters.find(
      (c) =>
        Math.abs(c.radius - (face.radius as number)) <= index.tolerance.distance * 10 &&
        index.parallel(c.axis, face.axis!.direction) &&
        distanceToLine(face.axis!.origin, c.origin, c.axis) <= index.tolerance.distance * 10,
    );
    if (found) {
      found.faces.push(id);
      found.sweep += face.sweepAngle ?? 0;
    } else
      clusters.push({
        faces: [id],
        radius: face.radius,
        sweep: face.sweepAngle ?? 0,
        cornerBlend: false,
        axis: face.axis.direction,
        origin: face.axis.origin,
      });
  }
  for (const c of clusters) {
    const inCluster = new Set(c.faces);
    const tangentPlanes = new Set<number>();
    for (const id of c.faces) {
      for (const n of index.neighbours[id] ?? []) {
        if (
          !inCluster.has(n.face) &&
          members.has(n.face) &&
          n.convexity === "smooth" &&
          index.face(n.face).surface === "plane" &&
          index.perpendicular(index.face(n.face).normal as Vec3, c.axis)
        )
          tangentPlanes.add(n.face);
      }
    }
    c.cornerBlend = tangentPlanes.size >= 2 && c.sweep < HALF_TURN - SWEEP_TOLERANCE;
  }
  return clusters.map(({ faces, radius, sweep, cornerBlend }) => ({ faces, radius, sweep, cornerBlend }));
}

/** Whether `face` belongs to an internal corner's blend among `walls`. */
export function isCornerBlend(
  index: PartIndex,
  face: FaceAnalysis,
  members: Set<number>,
  walls: number[] = [...members],
): boolean {
  return curvedWalls(index, walls, members).some((c) => c.cornerBlend && c.faces.includes(face.id));
}

/** The chain with the most walls (then the longest boundary). */
function mainChain(index: PartIndex, chains: Chain[]): Chain {
  return [...chains].sort((a, b) => b.faces.length - a.faces.length || area(index, b) - area(index, a))[0] as Chain;
}

function area(index: PartIndex, chain: Chain): number {
  return chain.faces.reduce((sum, id) => sum + index.face(id).area, 0);
}

function directionOf(item: { from: Vec3; to: Vec3 }): Vec3 | null {
  const d = sub(item.to, item.from);
  return length(d) > 0 ? normalise(d) : null;
}

function connected(index: PartIndex, faces: number[]): boolean {
  const set = new Set(faces);
  const seen = new Set<number>([faces[0] as number]);
  const stack = [faces[0] as number];
  while (stack.length > 0) {
    const id = stack.pop() as number;
    for (const n of index.neighbours[id] ?? []) {
      if (set.has(n.face) && !seen.has(n.face)) {
        seen.add(n.face);
        stack.push(n.face);
      }
    }
  }
  return seen.size === set.size;
}

export function fmt(d: Vec3): string {
  return `[${d.map((x) => Math.round(x * 1000) / 1000 + 0).join(", ")}]`;
}

function pct(x: number): string {
  return `${Math.round(x * 1000) / 10} %`;
}
