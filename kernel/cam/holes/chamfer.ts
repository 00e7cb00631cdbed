/**
 * Chamfering with a chamfer mill: along an edge (the chamfer's lower edge, chamfer-edges.ts) and
 * countersinks at a hole's rim.
 *
 * Edges. The cone is tangent to the chamfer's plane along a line when its angle to the axis is
 * the plane's; it then lies wholly on the air side of that plane and cuts the face exactly. The
 * tip is placed CHAMFER_EDGE_CLEARANCE_MM (radially) off the lower edge: the tool's axis runs
 * `tip_diameter / 2 + clearance` from the lower edge, `away` from the material, the tip that
 * clearance's cone height below the edge. Seen from +Z the material is on the path's left:
 * where the edge turns left (a convex corner) the tool arcs around the corner's vertex; where it
 * turns right (concave) the two offset lines meet. An open end running into a wall stops where
 * the cone's full radius is clear of the wall's plane. The tool enters and leaves LEAD_MM away
 * from the material, fed down from the R plane above the chamfer's top.
 *
 * Countersinks. A chamfer mill wide enough plunges (G82, COUNTERSINK_DWELL_S at the bottom) to
 * where its cone is the countersink's diameter at the entrance; a smaller one goes down in the
 * bore's centre to where its cone, less the clearance, reaches the entrance, moves out and
 * circles once (internal arc feed).
 */
import { CHAMFER_EDGE_CLEARANCE_MM, R_PLANE_CLEARANCE_MM } from "./depths.ts";
import { cycleOperation, holeOperationName, uniqueFeatures, type HoleCycle } from "./drilling.ts";
import type { CycleOperationInput } from "./drilling.ts";
import { internalArcFeed } from "./helical.ts";
import { nearestNeighbourOrder } from "./order.ts";
import { coneHeightAt } from "../cutter-shape.ts";
import type { Cutter, CuttingParameters, Move, Operation, Vec2, Vec3 } from "../types.ts";
import type { ChamferChain, ChamferEdges, Plane } from "./chamfer-edges.ts";

/** Entry and exit this far from the material, horizontally. */
export const LEAD_MM = 1;
/** Corners turning less than this (degrees) are joined straight: the chord misses the arc by under 0.1 % of the offset. */
export const MIN_ARC_TURN_DEG = 5;
/** The cone's full radius stays this far off a wall a chamfer runs into. */
export const WALL_CLEARANCE_MM = 0.1;
/** A countersink plunge dwells this long at the bottom: a few turns clean the cone. */
export const COUNTERSINK_DWELL_S = 0.2;
/** A chamfer mill's angle may differ from the chamfer's by this much (degrees). */
export const ANGLE_TOLERANCE_DEG = 1;

type P2 = Vec2;
const add2 = (a: P2, b: P2, s = 1): P2 => [a[0] + b[0] * s, a[1] + b[1] * s];
const len2 = (a: P2) => Math.hypot(a[0], a[1]);
const unit2 = (a: P2): P2 => {
  const l = len2(a) || 1;
  return [a[0] / l, a[1] / l];
};

function requireChamferMill(cutter: Cutter, angleToAxis: number): void {
  if (cutter.kind !== "chamfer" || cutter.chamfer_angle_deg === null)
    throw new RangeError(`${cutter.name} is not a chamfer mill`);
  if (Math.abs(cutter.chamfer_angle_deg - angleToAxis) > ANGLE_TOLERANCE_DEG) {
    throw new RangeError(
      `${cutter.name} cuts at ${cutter.chamfer_angle_deg}° to the axis, the chamfer is at ${Math.round(angleToAxis * 10) / 10}°`,
    );
  }
}

/** A node of a chamfer path: a straight feed to `to`, or an arc around `centre`. */
export type PathNode = { to: Vec3; centre: Vec2 | null; clockwise: boolean };

export interface ChamferPath {
  nodes: PathNode[];
  /** horizontal direction away from the material at the first and last node */
  away_start: Vec2;
  away_end: Vec2;
}

export interface ChamferPaths {
  paths: ChamferPath[];
  /** chains no path is made for, and why */
  skipped: { chain: number; message: string }[];
}

/** The signed horizontal distance of `p` from a wall's plane (positive on its air side). */
function wallDistance(p: Vec3, wall: Plane): number {
  const horizontal = Math.hypot(wall.normal[0], wall.normal[1]);
  const d =
    (p[0] - wall.point[0]) * wall.normal[0] +
    (p[1] - wall.point[1]) * wall.normal[1] +
    (p[2] - wall.point[2]) * wall.normal[2];
  return d / horizontal;
}

/** Cut `length` off the start of a polyline (points and per-segment values); null if nothing is left. */
function trimStart(points: Vec3[], away: Vec2[], length: number): { points: Vec3[]; away: Vec2[] } | null {
  let left = length;
  let i = 0;
  while (i < points.length - 1) {
    const a = points[i] as Vec3;
    const b = points[i + 1] as Vec3;
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (left < l - 1e-9) {
      const t = left / l;
      const cut: Vec3 = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
      return { points: [cut, ...points.slice(i + 1)], away: away.slice(i) };
    }
    left -= l;
    i += 1;
  }
  return null;
}

function reversed(points: Vec3[], away: Vec2[]): { points: Vec3[]; away: Vec2[] } {
  return { points: [...points].reverse(), away: [...away].reverse() };
}

/** An open chain's edge points, closed chains opened mid-way along their longest segment (the seam then needs no corner). */
function openChain(chain: ChamferChain): { points: Vec3[]; away: Vec2[] } {
  if (!chain.closed) return { points: chain.points, away: chain.away };
  const n = chain.points.length;
  let longest = 0;
  let longestLength = -1;
  for (let i = 0; i < n; i++) {
    const a = chain.points[i] as Vec3;
    const b = chain.points[(i + 1) % n] as Vec3;
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (l > longestLength) {
      longest = i;
      longestLength = l;
    }
  }
  const a = chain.points[longest] as Vec3;
  const b = chain.points[(longest + 1) % n] as Vec3;
  const mid: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
  const points: Vec3[] = [mid];
  const away: Vec2[] = [];
  for (let k = 1; k <= n; k++) {
    points.push(chain.points[(longest + k) % n] as Vec3);
    away.push(chain.away[(longest + k - 1) % n] as Vec2);
  }
  points.push(mid);
  away.push(chain.away[longest] as Vec2);
  return { points, away };
}

/** The tool paths (tip positions) for every chain of a chamfer. */
export function chamferPaths(edges: ChamferEdges, cutter: Cutter): ChamferPaths {
  requireChamferMill(cutter, edges.angle_to_axis_deg);
  const offset = cutter.tip_diameter / 2 + CHAMFER_EDGE_CLEARANCE_MM;
  const drop = coneHeightAt(cutter, offset);
  const out: ChamferPaths = { paths: [], skipped: [] };
  edges.chains.forEach((chain, index) => {
    let line: { points: Vec3[]; away: Vec2[] } | null = openChain(chain);
    // stop short of walls the chain runs into: the cone's full radius clear of the wall's plane
    const need = cutter.diameter / 2 + WALL_CLEARANCE_MM;
    for (const end of ["start", "end"] as const) {
      const wall = end === "start" ? chain.start_wall : chain.end_wall;
      if (!wall || !line) continue;
      const oriented: { points: Vec3[]; away: Vec2[] } = end === "start" ? line : reversed(line.points, line.away);
      const p = oriented.points[0] as Vec3;
      const q = oriented.points[1] as Vec3;
      const tip: Vec3 = [...add2([p[0], p[1]], oriented.away[0] as Vec2, offset), p[2] - drop] as Vec3;
      const along = unit2([q[0] - p[0], q[1] - p[1]]);
      const horizontal = Math.hypot(wall.normal[0], wall.normal[1]);
      const gain = (along[0] * wall.normal[0] + along[1] * wall.normal[1]) / horizontal;
      const short = need - wallDistance(tip, wall);
      let trimmed: { points: Vec3[]; away: Vec2[] } | null = oriented;
      if (short > 0) trimmed = gain > 1e-6 ? trimStart(oriented.points, oriented.away, short / gain) : null;
      line = trimmed && end === "end" ? reversed(trimmed.points, trimmed.away) : trimmed;
    }
    if (!line || line.points.length < 2) {
      out.skipped.push({
        chain: index,
        message: `chain ${index} of faces ${edges.faces.join(", ")} is too short for ${cutter.name} between the walls it runs into`,
      });
      return;
    }
    out.paths.push(offsetPath(line.points, line.away, offset, drop));
  });
  return out;
}

/** The tool's tip along the edge: each segment offset `away` by `offset`, `drop` below it, corners joined. */
function offsetPath(points: Vec3[], away: Vec2[], offset: number, drop: number): ChamferPath {
  const at = (p: Vec3, a: Vec2): Vec3 => [p[0] + a[0] * offset, p[1] + a[1] * offset, p[2] - drop];
  const nodes: PathNode[] = [];
  const segments = away.length;
  const direction = (i: number): Vec2 =>
    unit2([(points[i + 1] as Vec3)[0] - (points[i] as Vec3)[0], (points[i + 1] as Vec3)[1] - (points[i] as Vec3)[1]]);
  nodes.push({ to: at(points[0] as Vec3, away[0] as Vec2), centre: null, clockwise: false });
  for (let i = 0; i < segments; i++) {
    const end = points[i + 1] as Vec3;
    const endOffset = at(end, away[i] as Vec2);
    if (i === segments - 1) {
      nodes.push({ to: endOffset, centre: null, clockwise: false });
      break;
    }
    const d0 = direction(i);
    const d1 = direction(i + 1);
    const turn = (Math.atan2(d0[0] * d1[1] - d0[1] * d1[0], d0[0] * d1[0] + d0[1] * d1[1]) * 180) / Math.PI;
    const nextStart = at(end, away[i + 1] as Vec2);
    if (turn > MIN_ARC_TURN_DEG) {
      // convex: around the corner's vertex, counter-clockwise as the edge turns left
      nodes.push({ to: endOffset, centre: null, clockwise: false });
      nodes.push({ to: nextStart, centre: [end[0], end[1]], clockwise: false });
    } else if (turn < -1e-6) {
      // concave: where the two offset lines meet
      const s = intersect([endOffset[0], endOffset[1]], d0, [nextStart[0], nextStart[1]], d1);
      nodes.push({ to: s ? [s[0], s[1], end[2] - drop] : endOffset, centre: null, clockwise: false });
    } else nodes.push({ to: endOffset, centre: null, clockwise: false });
  }
  return { nodes, away_start: away[0] as Vec2, away_end: away[segments - 1] as Vec2 };
}

function intersect(p: P2, d: P2, q: P2, e: P2): P2 | null {
  const denominator = d[0] * e[1] - d[1] * e[0];
  if (Math.abs(denominator) < 1e-9) return null;
  const t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / denominator;
  return add2(p, d, t);
}

export interface ChamferInput {
  id: string;
  cutter: Cutter;
  parameters: CuttingParameters;
  edges: ChamferEdges;
  /** the recognised chamfer features the faces are */
  features: number[];
  clearance_z: number;
  /** the highest material the tool passes over between chains; default the chamfer's top */
  material_top_z?: number;
  name?: string;
}

/** Chamfering along every chain of `edges` (chains chamferPaths skips are left out: call it to report them). */
export function chamferOperation(input: ChamferInput): Operation {
  const { paths } = chamferPaths(input.edges, input.cutter);
  const z = input.clearance_z;
  const r = Math.max(input.edges.top_z, input.material_top_z ?? input.edges.top_z) + R_PLANE_CLEARANCE_MM;
  if (r > z + 1e-9) throw new RangeError(`${input.id}: clearance_z ${z} is below the R plane ${r}`);
  const feed = input.parameters.feed_mm_min;
  const moves: Move[] = [];
  for (const path of paths) {
    const first = (path.nodes[0] as PathNode).to;
    const last = (path.nodes[path.nodes.length - 1] as PathNode).to;
    const entry = add2([first[0], first[1]], path.away_start, LEAD_MM);
    const exit = add2([last[0], last[1]], path.away_end, LEAD_MM);
    moves.push({ kind: "rapid", to: [entry[0], entry[1], z] });
    moves.push({ kind: "rapid", to: [entry[0], entry[1], r] });
    moves.push({ kind: "linear", to: [entry[0], entry[1], first[2]], feed: input.parameters.plunge_feed_mm_min });
    for (const node of path.nodes) {
      moves.push(
        node.centre
          ? { kind: "arc", to: node.to, centre: node.centre, clockwise: node.clockwise, feed }
          : { kind: "linear", to: node.to, feed },
      );
    }
    moves.push({ kind: "linear", to: [exit[0], exit[1], last[2]], feed });
    // beside the part, clear of it: straight up
    moves.push({ kind: "rapid", to: [exit[0], exit[1], z] });
  }
  return {
    id: input.id,
    kind: "chamfering",
    name:
      input.name ??
      `Chamfering ${input.features.length === 1 ? `feature ${input.features[0]}` : `features ${input.features.join(", ")}`} with ${input.cutter.name}`,
    features: [...input.features],
    tool: input.cutter,
    parameters: input.parameters,
    clearance_z: z,
    moves,
  };
}

/** Whether the chamfer mill makes a countersink `diameter` wide in one plunge. */
export function plungesCountersink(cutter: Cutter, diameter: number): boolean {
  return cutter.diameter / 2 >= diameter / 2 + CHAMFER_EDGE_CLEARANCE_MM - 1e-9;
}

/** Countersinks (input.holes: each with one): plunged where the tool is wide enough, circled otherwise. */
export function countersinkOperation(input: CycleOperationInput): Operation {
  const { cutter, parameters } = input;
  const sinks = input.holes.map((hole) => {
    if (!hole.countersink) throw new RangeError(`feature ${hole.feature_id} has no countersink`);
    requireChamferMill(cutter, hole.countersink.angle_deg / 2);
    return { hole, sink: hole.countersink };
  });
  const plunged = sinks.filter((s) => plungesCountersink(cutter, s.sink.diameter_mm));
  const circled = sinks.filter((s) => !plungesCountersink(cutter, s.sink.diameter_mm));
  const cycles = plunged.map(
    ({ hole, sink }): HoleCycle => ({
      hole,
      cycle: "dwell",
      top_z: hole.top_z,
      bottom_z: hole.top_z - coneHeightAt(cutter, sink.diameter_mm / 2),
      r_clearance: R_PLANE_CLEARANCE_MM,
      peck_mm: null,
      dwell_s: COUNTERSINK_DWELL_S,
      feed: parameters.plunge_feed_mm_min,
    }),
  );
  const base = cycleOperation("chamfering", { ...input, holes: plunged.map((s) => s.hole) }, cycles);
  const moves = [...base.moves];
  const z = input.clearance_z;
  const lastCycle = cycles.length > 0 ? base.moves.at(-1) : undefined;
  const from: Vec2 =
    lastCycle && lastCycle.kind === "rapid" ? [lastCycle.to[0], lastCycle.to[1]] : (input.start ?? [0, 0]);
  for (const { hole, sink } of nearestNeighbourOrder(circled, (s) => s.hole.at, from)) {
    const rTop = cutter.diameter / 2 - CHAMFER_EDGE_CLEARANCE_MM;
    const orbit = sink.diameter_mm / 2 - rTop;
    if (orbit + cutter.tip_diameter / 2 > hole.diameter_mm / 2 - CHAMFER_EDGE_CLEARANCE_MM + 1e-9) {
      throw new RangeError(
        `${cutter.name} is too small for the ${sink.diameter_mm} mm countersink of feature ${hole.feature_id}: its tip would leave the bore`,
      );
    }
    const r = Math.max(hole.top_z, input.material_top_z ?? hole.top_z) + R_PLANE_CLEARANCE_MM;
    if (r > z + 1e-9)
      throw new RangeError(`${input.id}: clearance_z ${z} is below the R plane ${r} of feature ${hole.feature_id}`);
    const [cx, cy] = hole.at;
    const tipZ = hole.top_z - coneHeightAt(cutter, rTop);
    // the cone cuts around the countersink's middle, (Dc + d) / 4 from the axis
    const arcFeed = internalArcFeed(
      parameters.feed_mm_min,
      orbit,
      Math.max(0, 2 * ((sink.diameter_mm + hole.diameter_mm) / 4 - orbit)),
    );
    moves.push({ kind: "rapid", to: [cx, cy, z] });
    moves.push({ kind: "rapid", to: [cx, cy, r] });
    moves.push({ kind: "linear", to: [cx, cy, tipZ], feed: parameters.plunge_feed_mm_min });
    moves.push({ kind: "linear", to: [cx + orbit, cy, tipZ], feed: arcFeed });
    moves.push({ kind: "arc", to: [cx - orbit, cy, tipZ], centre: [cx, cy], clockwise: false, feed: arcFeed });
    moves.push({ kind: "arc", to: [cx + orbit, cy, tipZ], centre: [cx, cy], clockwise: false, feed: arcFeed });
    moves.push({ kind: "linear", to: [cx, cy, tipZ], feed: arcFeed });
    moves.push({ kind: "rapid", to: [cx, cy, z] });
  }
  const features = uniqueFeatures(input.holes);
  return {
    ...base,
    moves,
    features,
    name:
      input.name ??
      holeOperationName(
        "chamfering",
        input.holes.length,
        features,
        cutter,
        input.holes.length === 1 ? "countersink" : "countersinks",
      ),
  };
}
