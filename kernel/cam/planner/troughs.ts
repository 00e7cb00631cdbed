/**
 * Troughs of a setup: concave half cylinders whose axis lies across the setup's tool axis and
 * which open towards the tool (the round end of a slot seen from its open side, a round-bottomed
 * groove seen from above). A flat end mill leaves a staircase in them at every level and their
 * bottom line wherever it does not fit; a ball end mill of at most their radius, run along the
 * axis, makes them (milling/troughs.ts). partC's 2 mm slot, open to +Y, ends in a half cylinder
 * of 1 mm radius across that setup: 74.7 mm² no flat end mill finishes from +Y, and from -Z it
 * is 24 mm deep in a slot no wider than its diameter.
 */
import { distanceToLine, dot, normalise } from "../../math/vec3.ts";
import type { FaceAnalysis } from "../../features/types.ts";
import { directionToFrame, toFrame } from "../frames.ts";
import type { Trough } from "../milling/troughs.ts";
import type { Frame, TriangleSoup, Vec3 } from "../types.ts";

/** an axis within this of perpendicular to the tool axis lies across it (sin of about 0.06°) */
const ACROSS = 1e-3;
/** the face's middle lies at least this share of its radius below the axis: it opens upwards */
const OPENS_UP = 0.3;
/**
 * A trough is a half cylinder or more of one (a slot's round end, a round-bottomed groove): a
 * quarter one is a fillet between a floor and a wall, which runs into other fillets and walls at
 * its ends; on the NIST parts every ball pass along one was dropped by the verification.
 */
const HALF = Math.PI - 0.05;

export interface TroughSource {
  frame: Frame;
  /** the part's triangles in the setup's frame, and each one's face */
  soup: TriangleSoup;
  triangleFaces: Uint32Array;
}

/** The troughs among `faces` for a setup, in its frame; `taken` faces are left out (another setup makes them). */
export function setupTroughs(
  setup: TroughSource,
  faces: readonly FaceAnalysis[],
  taken: ReadonlySet<number> = new Set(),
): Trough[] {
  const wanted = new Map<number, { face: FaceAnalysis; axis: Vec3; origin: Vec3 }>();
  for (const face of faces) {
    if (
      taken.has(face.id) ||
      face.surface !== "cylinder" ||
      face.sense !== "concave" ||
      face.axis === null ||
      face.radius === null
    )
      continue;
    if (face.sweepAngle === null || face.sweepAngle < HALF) continue;
    const axis = directionToFrame(setup.frame, face.axis.direction);
    if (Math.abs(axis[2]) > ACROSS) continue;
    const origin = toFrame(setup.frame, face.axis.origin);
    const middle = toFrame(setup.frame, face.centroid);
    if (middle[2] > origin[2] - OPENS_UP * face.radius) continue;
    if (closedAbove(face, faces, setup.frame)) continue;
    wanted.set(face.id, { face, axis: normalise([axis[0], axis[1], 0]), origin });
  }
  if (wanted.size === 0) return [];
  // each face's extent along its axis and round it (from straight down), from its triangles
  const extent = new Map<number, { from: number; to: number; low: number; high: number }>();
  const { positions, indices } = setup.soup;
  for (let t = 0; t < indices.length / 3; t += 1) {
    const id = setup.triangleFaces[t] as number;
    const trough = wanted.get(id);
    if (trough === undefined) continue;
    const e = extent.get(id) ?? { from: Infinity, to: -Infinity, low: Infinity, high: -Infinity };
    for (let k = 0; k < 3; k += 1) {
      const v = 3 * (indices[3 * t + k] as number);
      const d: Vec3 = [
        (positions[v] as number) - trough.origin[0],
        (positions[v + 1] as number) - trough.origin[1],
        (positions[v + 2] as number) - trough.origin[2],
      ];
      const along = d[0] * trough.axis[0] + d[1] * trough.axis[1];
      // across the axis, in the plane perpendicular to it: sideways (axis turned a quarter) and up
      const side = -d[0] * trough.axis[1] + d[1] * trough.axis[0];
      const angle = Math.atan2(side, -d[2]);
      e.from = Math.min(e.from, along);
      e.to = Math.max(e.to, along);
      e.low = Math.min(e.low, angle);
      e.high = Math.max(e.high, angle);
    }
    extent.set(id, e);
  }
  const out: Trough[] = [];
  for (const [id, { face, axis, origin }] of wanted) {
    const e = extent.get(id);
    if (e === undefined || !(e.to > e.from)) continue;
    const start: Vec3 = [origin[0] + e.from * axis[0], origin[1] + e.from * axis[1], origin[2]];
    out.push({ face: id, start, axis, length: e.to - e.from, radius: face.radius as number, angles: [e.low, e.high] });
  }
  return out;
}

/**
 * Whether another concave face of the same cylinder lies above the axis: the lower half of a
 * hole across the tool axis (a B-rep splits a full cylinder in halves), not a trough open to the
 * tool. On NIST CTC-01 and FTC-10 the ball passes along such halves were all dropped.
 */
function closedAbove(face: FaceAnalysis, faces: readonly FaceAnalysis[], frame: Frame): boolean {
  const axis = face.axis as NonNullable<FaceAnalysis["axis"]>;
  return faces.some((other) => {
    if (other.id === face.id || other.surface !== "cylinder" || other.axis === null || other.radius === null)
      return false;
    if (Math.abs(other.radius - (face.radius as number)) > 1e-6) return false;
    if (Math.abs(Math.abs(dot(axis.direction, other.axis.direction)) - 1) > 1e-9) return false;
    // the other axis's origin on this axis's line
    if (distanceToLine(other.axis.origin, axis.origin, axis.direction) > 1e-6) return false;
    return toFrame(frame, other.centroid)[2] > toFrame(frame, axis.origin)[2];
  });
}
