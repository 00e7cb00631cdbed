/**
 * Helical boring with an end mill: holes no drill in the library matches, and counterbores.
 * Per bore, in rings from the inside out when one orbit cannot clear it: down to just above the
 * entrance, helical arcs down at helixPitch, a full circle at the bottom to clean the floor and
 * the helix's last ramp, back to the centre off the wall, out. Arcs run counter-clockwise
 * (climb milling inside a bore with a right-hand tool) and are split into half turns, so no arc
 * starts where it ends. The feed is corrected for the tool centre's shorter path inside a bore
 * (internalArcFeed).
 */
import type { Cutter, CuttingParameters, Move, Operation, Vec2, Vec3 } from "../types.ts";
import { boreTipDepth, R_PLANE_CLEARANCE_MM } from "./depths.ts";
import { holeOperationName, uniqueFeatures } from "./drilling.ts";
import { nearestNeighbourOrder } from "./order.ts";
import type { SetupHole } from "./setup-hole.ts";

/** The helix's ramp angle at the bore's wall: 3° is what solid end mill makers allow for circular ramping in steel. */
export const HELIX_RAMP_DEG = 3;
/** The helix starts this far above the entrance, so its first turn enters the material at the ramp angle. */
export const HELIX_START_ABOVE_MM = 0.5;
/** Rings overlap the pilot hole (or the centre) by this fraction of the tool's diameter: no thin ring or core is left. */
export const RING_OVERLAP_FRACTION = 0.05;

export interface Bore {
  feature_id: number;
  at: Vec2;
  top_z: number;
  bottom_z: number;
  diameter_mm: number;
  /** the hole already there (a counterbore's drilled bore); 0 in solid material */
  pilot_diameter_mm: number;
}

/** A hole's bore to boreTipDepth (through: BREAKTHROUGH_MM past the exit). */
export function boreForHole(hole: SetupHole): Bore {
  return {
    feature_id: hole.feature_id,
    at: hole.at,
    top_z: hole.top_z,
    bottom_z: hole.top_z - boreTipDepth(hole),
    diameter_mm: hole.diameter_mm,
    pilot_diameter_mm: 0,
  };
}

/** A hole's counterbore, bored around the hole (drilled or bored first); null without one. */
export function counterboreFor(hole: SetupHole): Bore | null {
  if (!hole.counterbore) return null;
  return {
    feature_id: hole.feature_id,
    at: hole.at,
    top_z: hole.top_z,
    bottom_z: hole.top_z - hole.counterbore.depth_mm,
    diameter_mm: hole.counterbore.diameter_mm,
    pilot_diameter_mm: hole.diameter_mm,
  };
}

/** Axial advance per turn: the ramp at the wall, at most the stepdown (feeds.ts) and the tool's max_stepdown. */
export function helixPitch(cutter: Cutter, parameters: CuttingParameters, boreDiameter: number): number {
  return Math.min(
    parameters.stepdown_mm,
    cutter.max_stepdown,
    Math.PI * boreDiameter * Math.tan((HELIX_RAMP_DEG * Math.PI) / 180),
  );
}

/**
 * Orbit radii of the tool's centre, inside out: the last cuts the bore; the first reaches the
 * pilot hole (or past the centre) by RING_OVERLAP_FRACTION; between them at most the stepover
 * (and half the diameter) apart.
 */
export function ringRadii(
  boreDiameter: number,
  toolDiameter: number,
  pilotDiameter: number,
  stepover: number,
): number[] {
  const outer = (boreDiameter - toolDiameter) / 2;
  if (!(outer > 0)) throw new RangeError(`a ${toolDiameter} mm tool cannot bore ${boreDiameter} mm helically`);
  const inner = Math.max(0, pilotDiameter / 2) + toolDiameter / 2 - RING_OVERLAP_FRACTION * toolDiameter;
  if (outer <= inner) return [outer];
  const step = Math.min(stepover, toolDiameter / 2);
  const count = Math.ceil((outer - inner) / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => inner + ((outer - inner) * i) / count);
}

/**
 * The tool centre's feed on an orbit of radius `orbit` that cuts a wall of radius orbit + D/2:
 * the edge moves faster than the centre by their radii's ratio, and the edge's feed is the one
 * cutting data gives.
 */
export function internalArcFeed(feed: number, orbit: number, toolDiameter: number): number {
  return Math.max(1, Math.round(((feed * orbit) / (orbit + toolDiameter / 2)) * 10) / 10);
}

export interface HelicalInput {
  id: string;
  cutter: Cutter;
  parameters: CuttingParameters;
  bores: Bore[];
  clearance_z: number;
  /** the highest material the tool passes over between bores; default each bore's top */
  material_top_z?: number;
  start?: Vec2;
  name?: string;
}

/** Two counter-clockwise half turns around `centre` at radius r from angle 0, descending `drop`. */
function turn(centre: Vec2, r: number, zFrom: number, drop: number, feed: number): Move[] {
  const [cx, cy] = centre;
  const half: Vec3 = [cx - r, cy, zFrom - drop / 2];
  const full: Vec3 = [cx + r, cy, zFrom - drop];
  return [
    { kind: "arc", to: half, centre: [cx, cy], clockwise: false, feed },
    { kind: "arc", to: full, centre: [cx, cy], clockwise: false, feed },
  ];
}

/** The moves of one bore from clearance to clearance. */
export function boreMoves(
  bore: Bore,
  cutter: Cutter,
  parameters: CuttingParameters,
  clearanceZ: number,
  materialTopZ?: number,
): Move[] {
  const r = Math.max(bore.top_z, materialTopZ ?? bore.top_z) + R_PLANE_CLEARANCE_MM;
  if (r > clearanceZ + 1e-9)
    throw new RangeError(`clearance_z ${clearanceZ} is below the R plane ${r} of feature ${bore.feature_id}`);
  const [cx, cy] = bore.at;
  const pitch = helixPitch(cutter, parameters, bore.diameter_mm);
  const zStart = bore.top_z + HELIX_START_ABOVE_MM;
  const turns = Math.max(1, Math.ceil((zStart - bore.bottom_z) / pitch - 1e-9));
  const drop = (zStart - bore.bottom_z) / turns;
  const moves: Move[] = [];
  const rings = ringRadii(bore.diameter_mm, cutter.diameter, bore.pilot_diameter_mm, parameters.stepover_mm);
  rings.forEach((orbit, i) => {
    const feed = internalArcFeed(parameters.feed_mm_min, orbit, cutter.diameter);
    if (i === 0) moves.push({ kind: "rapid", to: [cx + orbit, cy, clearanceZ] });
    moves.push({ kind: "rapid", to: [cx + orbit, cy, r] });
    moves.push({ kind: "linear", to: [cx + orbit, cy, zStart], feed: parameters.plunge_feed_mm_min });
    for (let t = 0; t < turns; t++) moves.push(...turn([cx, cy], orbit, zStart - t * drop, drop, feed));
    moves.push(...turn([cx, cy], orbit, bore.bottom_z, 0, feed));
    moves.push({ kind: "linear", to: [cx, cy, bore.bottom_z], feed });
    // inside the bore just cut: nothing above the tool up to R
    moves.push({ kind: "rapid", to: [cx, cy, r] });
  });
  moves.push({ kind: "rapid", to: [cx, cy, clearanceZ] });
  return moves;
}

/** Helical boring (or counterboring) of every bore, nearest neighbour first. */
export function helicalBoringOperation(input: HelicalInput): Operation {
  if (input.cutter.kind !== "flat" || !input.cutter.centre_cutting)
    throw new RangeError(`${input.cutter.name} is not a centre-cutting flat end mill`);
  const ordered = nearestNeighbourOrder(input.bores, (b) => b.at, input.start ?? [0, 0]);
  const moves = ordered.flatMap((bore) =>
    boreMoves(bore, input.cutter, input.parameters, input.clearance_z, input.material_top_z),
  );
  const features = uniqueFeatures(input.bores);
  const counterbores = input.bores.every((b) => b.pilot_diameter_mm > 0);
  return {
    id: input.id,
    kind: "helical_boring",
    name:
      input.name ??
      holeOperationName(
        "helical_boring",
        input.bores.length,
        features,
        input.cutter,
        counterbores ? (input.bores.length === 1 ? "counterbore" : "counterbores") : undefined,
      ),
    features,
    tool: input.cutter,
    parameters: input.parameters,
    clearance_z: input.clearance_z,
    moves,
  };
}
