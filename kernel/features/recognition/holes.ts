/**
 * Holes and ring grooves from coaxial stacks of faces:
 *
 * - a bore: concave cylinders on one axis with one radius going (nearly) all the way round (two
 *   half cylinders as many CAD systems write them, or one face with a seam);
 * - its stack: the coaxial faces it meets: larger bores, annular shoulders (planes across the
 *   axis bounded by coaxial circles), concave cones (countersinks, drill points) and a disc
 *   floor;
 * - through when both ends of the stack open onto faces outside it, blind when a floor or a
 *   drill point closes one end; a larger bore at the entrance ending on a shoulder is a
 *   counterbore, a cone there a countersink;
 * - an annular floor whose inner circle runs up an island (a convex coaxial cylinder) is an
 *   O-ring groove, as is a concave torus no pocket claims.
 */
import type { FaceAnalysis, Vec3 } from "../types.ts";
import type { PartIndex } from "./part-index.ts";
import type { HoleInfo } from "./types.ts";
import { distanceToLine, dot, normalise, rounded, scale } from "../../math/vec3.ts";
import { canonical } from "./interpret.ts";

export interface HoleFeature {
  class: "through_hole" | "blind_hole" | "o_ring";
  faces: number[];
  floor_faces: number[];
  wall_faces: number[];
  access_direction: Vec3;
  other_access_directions: Vec3[];
  depth_mm: number;
  min_width_mm: number;
  hole?: HoleInfo;
  reasons: string[];
}

const FULL_TURN = 2 * Math.PI;
/** the total sweep a bore needs: more than this share of a full turn (a hole another feature broke into still counts) */
const BORE_SHARE = 0.6;

interface Bore {
  faces: number[];
  radius: number;
  axis: Vec3;
  origin: Vec3;
  sweep: number;
}

function isConcaveCylinder(face: FaceAnalysis): boolean {
  return face.surface === "cylinder" && face.sense === "concave" && face.axis !== null && face.radius !== null;
}

function coaxial(index: PartIndex, a: { axis: Vec3; origin: Vec3 }, face: FaceAnalysis): boolean {
  if (face.axis === null) return false;
  if (!index.parallel(a.axis, face.axis.direction)) return false;
  return distanceToLine(face.axis.origin, a.origin, a.axis) <= index.tolerance.distance * 10;
}

/** Bores among `candidates`: coaxial concave cylinders of one radius, nearly all the way round. */
export function findBores(index: PartIndex, candidates: ReadonlySet<number>): Bore[] {
  const bores: Bore[] = [];
  for (const id of [...candidates].sort((a, b) => a - b)) {
    const face = index.face(id);
    if (!isConcaveCylinder(face)) continue;
    const r = face.radius as number;
    const found = bores.find(
      (bore) => Math.abs(bore.radius - r) <= index.tolerance.distance * 10 && coaxial(index, bore, face),
    );
    if (found) {
      found.faces.push(id);
      found.sweep += face.sweepAngle ?? 0;
    } else {
      bores.push({
        faces: [id],
        radius: r,
        axis: normalise((face.axis as { direction: Vec3 }).direction),
        origin: (face.axis as { origin: Vec3 }).origin,
        sweep: face.sweepAngle ?? 0,
      });
    }
  }
  return bores.filter((bore) => bore.sweep >= BORE_SHARE * FULL_TURN);
}

/** Every edge of the face is a circle on the axis (an annulus or a disc across it). */
function isCircularCap(index: PartIndex, face: FaceAnalysis, axis: { axis: Vec3; origin: Vec3 }): boolean {
  if (face.surface !== "plane" || face.normal === null || !index.parallel(face.normal, axis.axis)) return false;
  const edges = face.edges
    .map((id) => index.edges[id])
    .filter((edge) => edge !== undefined && edge.topology !== "seam" && edge.topology !== "degenerate");
  if (edges.length === 0) return false;
  return edges.every(
    (edge) =>
      edge!.circle !== null &&
      distanceToLine(edge!.circle.center, axis.origin, axis.axis) <= index.tolerance.distance * 10,
  );
}

function axialRange(index: PartIndex, faces: number[], axis: Vec3): [number, number] {
  let min = Infinity,
    max = -Infinity;
  for (const id of faces) {
    for (const edgeId of index.face(id).edges) {
      const edge = index.edges[edgeId];
      if (edge === undefined) continue;
      for (const p of [edge.start, edge.middle, edge.end]) {
        const t = dot(p, axis);
        if (t < min) min = t;
        if (t > max) max = t;
      }
    }
  }
  return [min, max];
}

/**
 * Holes and O-rings: each bore with the coaxial faces it reaches. Faces used are removed from
 * `candidates`.
 */
export function findHoles(index: PartIndex, candidates: Set<number>): HoleFeature[] {
  const bores = findBores(index, candidates);
  const used = new Set<number>();
  const holes: HoleFeature[] = [];
  // the narrowest bores first: a counterbore's larger bore joins its hole
  bores.sort((a, b) => a.radius - b.radius);
  for (const bore of bores) {
    if (bore.faces.some((id) => used.has(id))) continue;
    const stack = collectStack(index, bore, candidates, used, bores);
    const feature = describeStack(index, bore, stack);
    for (const id of feature.faces) used.add(id);
    holes.push(feature);
  }
  for (const id of used) candidates.delete(id);
  return holes;
}

interface Stack {
  cylinders: { faces: number[]; radius: number }[];
  cones: number[];
  caps: number[];
  islands: number[];
}

function collectStack(
  index: PartIndex,
  seed: Bore,
  candidates: ReadonlySet<number>,
  used: ReadonlySet<number>,
  bores: Bore[],
): Stack {
  const axis = { axis: seed.axis, origin: seed.origin };
  const inStack = new Set<number>(seed.faces);
  const stack: Stack = {
    cylinders: [{ faces: [...seed.faces], radius: seed.radius }],
    cones: [],
    caps: [],
    islands: [],
  };
  const queue = [...seed.faces];
  while (queue.length > 0) {
    const id = queue.shift() as number;
    for (const n of index.neighbours[id] ?? []) {
      const other = n.face;
      if (inStack.has(other) || used.has(other) || !candidates.has(other)) continue;
      const face = index.face(other);
      if (face.surface === "cylinder" && coaxial(index, axis, face)) {
        if (face.sense === "concave") {
          const bore = bores.find((b) => b.faces.includes(other));
          if (bore === undefined) continue; // a partial cylinder: not part of a round hole
          for (const f of bore.faces) inStack.add(f);
          stack.cylinders.push({ faces: [...bore.faces], radius: bore.radius });
          queue.push(...bore.faces);
        } else if (face.sense === "convex" && stack.caps.length > 0) {
          inStack.add(other);
          stack.islands.push(other);
        }
      } else if (face.surface === "cone" && face.sense === "concave" && coaxial(index, axis, face)) {
        inStack.add(other);
        stack.cones.push(other);
        queue.push(other);
      } else if (isCircularCap(index, face, axis)) {
        inStack.add(other);
        stack.caps.push(other);
        queue.push(other);
      }
    }
  }
  return stack;
}

function describeStack(index: PartIndex, bore: Bore, stack: Stack): HoleFeature {
  const all = [...stack.cylinders.flatMap((c) => c.faces), ...stack.cones, ...stack.caps, ...stack.islands];
  const members = new Set(all);
  let a = bore.axis;
  const reasons: string[] = [
    `R-bore: concave cylinders of radius ${round(bore.radius)} mm on one axis turning ${round((bore.sweep * 180) / Math.PI)} degrees`,
  ];

  // an island: an O-ring groove around it
  if (stack.islands.length > 0) {
    const floor = stack.caps;
    const floorNormal = index.face(floor[0] as number).normal as Vec3;
    const [lo, hi] = axialRange(index, all, floorNormal);
    const outer = Math.max(...stack.cylinders.map((c) => c.radius));
    const inner = Math.min(...stack.islands.map((id) => index.face(id).radius ?? Infinity));
    return {
      class: "o_ring",
      faces: sorted(all),
      floor_faces: sorted(floor),
      wall_faces: sorted([...stack.cylinders.flatMap((c) => c.faces), ...stack.islands]),
      access_direction: floorNormal,
      other_access_directions: [],
      depth_mm: hi - lo,
      min_width_mm: outer - inner,
      reasons: [
        ...reasons,
        `R-o-ring: an annular floor between the bore and a convex island of radius ${round(inner)} mm`,
      ],
    };
  }

  // which ends are open: an end is closed by a cap whose every edge stays in the stack (a disc)
  // or by a cone narrowing to a point
  const t = (id: number) => axialRange(index, [id], a);
  const [lo, hi] = axialRange(index, all, a);
  const tol = Math.max(index.tolerance.distance * 10, 1e-6);
  const closesAt = (level: number): number | null => {
    for (const id of stack.caps) {
      const [c0, c1] = t(id);
      if (Math.abs(c0 - level) <= tol && Math.abs(c1 - level) <= tol && opensNowhere(index, id, members)) return id;
    }
    for (const id of stack.cones) {
      const [c0, c1] = t(id);
      if ((Math.abs(c0 - level) <= tol || Math.abs(c1 - level) <= tol) && opensNowhere(index, id, members)) return id;
    }
    return null;
  };
  const closedLow = closesAt(lo);
  const closedHigh = closesAt(hi);
  const through = closedLow === null && closedHigh === null;
  // a points out of the material at the entrance
  if (closedHigh !== null && closedLow === null) a = scale(a, -1);
  else if (through) {
    // the entrance is the wider end (a counterbore or countersink); the radius there of every
    // cylinder and cone reaching it
    const radiusNear = (level: number): number => {
      let r = 0;
      for (const id of [...stack.cylinders.flatMap((c) => c.faces), ...stack.cones]) {
        for (const edgeId of index.face(id).edges) {
          const edge = index.edges[edgeId];
          if (edge === undefined) continue;
          for (const p of [edge.start, edge.middle, edge.end]) {
            if (Math.abs(dot(p, a) - level) <= tol) r = Math.max(r, distanceToLine(p, bore.origin, bore.axis));
          }
        }
      }
      return r;
    };
    const lowRadius = radiusNear(lo),
      highRadius = radiusNear(hi);
    if (lowRadius > highRadius + tol) a = scale(a, -1);
    else if (Math.abs(lowRadius - highRadius) <= tol) a = canonical(a);
  }
  const [bottom, top] = axialRange(index, all, a);
  const main = stack.cylinders.reduce((x, y) => (y.radius < x.radius ? y : x));
  const [mainLow] = axialRange(index, main.faces, a);
  const hole: HoleInfo = {
    diameter_mm: 2 * main.radius,
    depth_mm: through ? top - bottom : top - mainLow,
    through,
    axis: { origin: rounded(pointOnAxis(bore, top, a), 9), direction: a },
  };
  reasons.push(
    through
      ? "R-hole-through: both ends of the stack open onto other faces"
      : "R-hole-blind: the far end is closed by a floor or a drill point",
  );

  // counterbore: a larger bore above the main one, ending on a shoulder; through holes may have
  // one at the far end too. Only the bore's faces reaching the end count: a hole counterbored
  // the same from both ends has both counterbores in one bore
  const wider = stack.cylinders.filter((c) => c.radius > main.radius + tol);
  const entrance = largestAt(index, wider, a, top, tol);
  if (entrance !== null) {
    hole.counterbore = { diameter_mm: 2 * entrance.radius, depth_mm: entrance.length };
    reasons.push(
      `R-counterbore: a coaxial bore of ${round(2 * entrance.radius)} mm at the entrance, ${round(entrance.length)} mm deep`,
    );
  }
  const far = through ? largestAt(index, wider, a, bottom, tol) : null;
  if (far !== null) {
    hole.far_counterbore = { diameter_mm: 2 * far.radius, depth_mm: far.length };
    reasons.push(
      `R-far-counterbore: a coaxial bore of ${round(2 * far.radius)} mm at the far end, ${round(far.length)} mm deep`,
    );
  }
  for (const id of stack.cones) {
    const cone = index.face(id);
    const [c0, c1] = axialRange(index, [id], a);
    const angle = 2 * (((cone.semiAngle ?? 0) * 180) / Math.PI);
    if (c1 >= top - tol && closedLow !== id && closedHigh !== id) {
      const radiusAtTop = maxRadius(index, id, bore, a);
      hole.countersink = { diameter_mm: 2 * radiusAtTop, angle_deg: angle };
      reasons.push(`R-countersink: a cone of ${round(angle)} degrees at the entrance`);
    } else if (!through && c0 <= bottom + tol) {
      hole.drill_point_angle_deg = angle;
      reasons.push(`R-drill-point: a cone of ${round(angle)} degrees closes the bottom`);
    }
  }
  const floors = [closedLow, closedHigh].filter((id): id is number => id !== null);
  return {
    class: through ? "through_hole" : "blind_hole",
    faces: sorted(all),
    floor_faces: sorted(floors),
    wall_faces: sorted(all.filter((id) => !floors.includes(id))),
    access_direction: a,
    other_access_directions: through ? [scale(a, -1)] : [],
    depth_mm: hole.depth_mm,
    min_width_mm: hole.diameter_mm,
    hole,
    reasons,
  };
}

/**
 * Of the bores, the widest one reaching the stack's end at `level` (along `a`), and how far its
 * faces run from there without a gap: a bore's faces at the other end are another counterbore.
 */
function largestAt(
  index: PartIndex,
  bores: readonly { faces: number[]; radius: number }[],
  a: Vec3,
  level: number,
  tol: number,
): { radius: number; length: number } | null {
  let best: { radius: number; length: number } | null = null;
  for (const bore of bores) {
    const ranges = bore.faces.map((id) => axialRange(index, [id], a));
    const touching = ranges.filter(([r0, r1]) => r0 <= level + tol && r1 >= level - tol);
    if (touching.length === 0) continue;
    // grow the run away from the end over faces that meet it
    let [low, high] = [Math.min(...touching.map((r) => r[0])), Math.max(...touching.map((r) => r[1]))];
    for (let grown = true; grown; ) {
      grown = false;
      for (const [r0, r1] of ranges) {
        if (r0 <= high + tol && r1 >= low - tol && (r0 < low - tol || r1 > high + tol)) {
          [low, high] = [Math.min(low, r0), Math.max(high, r1)];
          grown = true;
        }
      }
    }
    if (best === null || bore.radius > best.radius) best = { radius: bore.radius, length: high - low };
  }
  return best;
}

/** No edge of the face leads to a face outside the stack. */
function opensNowhere(index: PartIndex, id: number, members: Set<number>): boolean {
  return (index.neighbours[id] ?? []).every((n) => members.has(n.face));
}

function maxRadius(index: PartIndex, id: number, bore: Bore, a: Vec3): number {
  let r = 0;
  for (const edgeId of index.face(id).edges) {
    const edge = index.edges[edgeId];
    if (edge?.circle) r = Math.max(r, edge.circle.radius);
    else if (edge) for (const p of [edge.start, edge.end]) r = Math.max(r, distanceToLine(p, bore.origin, a));
  }
  return r;
}

function pointOnAxis(bore: Bore, level: number, a: Vec3): Vec3 {
  const offset = level - dot(bore.origin, a);
  return [bore.origin[0] + a[0] * offset, bore.origin[1] + a[1] * offset, bore.origin[2] + a[2] * offset];
}

function sorted(ids: number[]): number[] {
  return [...new Set(ids)].sort((x, y) => x - y);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
