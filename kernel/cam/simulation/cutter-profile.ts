/**
 * A cutter as the height field sees it: solids of revolution about the tool axis, each described
 * by its lower envelope, the height above the tip of its lowest point at radial distance d. Only
 * lowest points matter: material is a column from the stock's bottom up, so a body meets it
 * exactly when the body's lowest point over the column is below the column's top.
 *
 * The flutes cut; the neck, shank and holder above them do not, and touching material with them
 * is a collision.
 */
import type { Cutter } from "../types.ts";

export interface Envelope {
  /** the largest radial distance the body has */
  reach: number;
  /** height above the tip of the body's lowest point at radial distance d, 0 <= d <= reach */
  height: (d: number) => number;
  /** the derivative of height in d (Infinity where a torus turns vertical) */
  slope: (d: number) => number;
  /**
   * flat: height(d) = base everywhere; ball: base + r - sqrt(r² - d²), r = reach; torus, cone:
   * the others. All are non-decreasing and convex in d (which lets a sweep minimise along a
   * move numerically); all but the cone are also convex in d², which arcs can use.
   */
  shape: "flat" | "ball" | "torus" | "cone";
  base: number;
}

export type BodyName = "neck" | "shank" | "holder";

export interface CutterProfile {
  cutting: Envelope;
  /** material higher than this above the tip is out of the flutes' reach */
  fluteLength: number;
  /** the non-cutting bodies, lowest first */
  bodies: { name: BodyName; envelope: Envelope }[];
}

const DEFAULT_DRILL_POINT_DEG = 118;
const DEFAULT_CHAMFER_ANGLE_DEG = 45;
/** the minor diameter of an ISO metric thread is the major minus 1.0825 pitches */
const MINOR_DIAMETER_PITCHES = 1.0825;

const radians = (degrees: number): number => (degrees * Math.PI) / 180;

export function flatEnvelope(reach: number, base = 0): Envelope {
  return { reach, height: () => base, slope: () => 0, shape: "flat", base };
}

export function ballEnvelope(radius: number): Envelope {
  const r2 = radius * radius;
  return {
    reach: radius,
    height: (d) => radius - Math.sqrt(Math.max(0, r2 - d * d)),
    slope: (d) => d / Math.sqrt(Math.max(0, r2 - d * d)),
    shape: "ball",
    base: 0,
  };
}

/** A flat disc out to `flatRadius`, then a quarter torus of `cornerRadius`. */
export function bullEnvelope(radius: number, cornerRadius: number): Envelope {
  if (cornerRadius <= 0) return flatEnvelope(radius);
  if (cornerRadius >= radius) return ballEnvelope(radius);
  const flatRadius = radius - cornerRadius;
  const c2 = cornerRadius * cornerRadius;
  return {
    reach: radius,
    height: (d) => (d <= flatRadius ? 0 : cornerRadius - Math.sqrt(Math.max(0, c2 - (d - flatRadius) ** 2))),
    slope: (d) => (d <= flatRadius ? 0 : (d - flatRadius) / Math.sqrt(Math.max(0, c2 - (d - flatRadius) ** 2))),
    shape: "torus",
    base: 0,
  };
}

/** A flat disc out to `flatRadius`, then a cone rising `rise` per mm of radius, out to `radius`. */
export function coneEnvelope(radius: number, flatRadius: number, rise: number, base = 0): Envelope {
  if (!(rise > 0) || flatRadius >= radius) return flatEnvelope(radius, base);
  return {
    reach: radius,
    height: (d) => base + Math.max(0, d - flatRadius) * rise,
    slope: (d) => (d > flatRadius ? rise : 0),
    shape: "cone",
    base,
  };
}

export function cuttingEnvelope(cutter: Cutter): Envelope {
  const radius = cutter.diameter / 2;
  if (!(radius > 0))
    throw new RangeError(`${cutter.name}: the cutting diameter must be positive, not ${cutter.diameter}`);
  switch (cutter.kind) {
    case "flat":
      return flatEnvelope(radius);
    case "ball":
      return ballEnvelope(radius);
    case "bull":
      return bullEnvelope(radius, Math.max(0, cutter.corner_radius));
    case "drill": {
      const half = radians((cutter.tip_angle_deg ?? DEFAULT_DRILL_POINT_DEG) / 2);
      if (!(half > 0 && half <= Math.PI / 2))
        throw new RangeError(`${cutter.name}: a point angle of ${cutter.tip_angle_deg}° is not a drill's`);
      return coneEnvelope(radius, 0, 1 / Math.tan(half));
    }
    case "chamfer": {
      const angle = radians(cutter.chamfer_angle_deg ?? DEFAULT_CHAMFER_ANGLE_DEG);
      if (!(angle > 0 && angle <= Math.PI / 2))
        throw new RangeError(
          `${cutter.name}: a chamfer angle of ${cutter.chamfer_angle_deg}° to the axis is not a chamfer mill's`,
        );
      return coneEnvelope(radius, Math.min(radius, Math.max(0, cutter.tip_diameter / 2)), 1 / Math.tan(angle));
    }
    case "tap": {
      // the thread cut into the wall is intended: only the core is checked against the part
      const pitch = cutter.pitch_mm ?? 0;
      const core = pitch > 0 ? cutter.diameter - MINOR_DIAMETER_PITCHES * pitch : cutter.diameter;
      if (!(core > 0)) throw new RangeError(`${cutter.name}: a pitch of ${pitch} mm leaves no core`);
      return flatEnvelope(core / 2);
    }
  }
}

/**
 * A frustum from `bottom` to `top` above the tip: its lowest point at d is its bottom within
 * the bottom radius, and up the widening side beyond.
 */
export function frustumEnvelope(bottom: number, top: number, bottomRadius: number, topRadius: number): Envelope {
  if (topRadius <= bottomRadius || !(top > bottom)) return flatEnvelope(bottomRadius, bottom);
  return coneEnvelope(topRadius, bottomRadius, (top - bottom) / (topRadius - bottomRadius), bottom);
}

export function cutterProfile(cutter: Cutter): CutterProfile {
  const cutting = cuttingEnvelope(cutter);
  // a drill's point or a chamfer mill's cone always counts as cutting
  const fluteLength = Math.max(cutter.flute_length, cutting.height(cutting.reach));
  const bodies: CutterProfile["bodies"] = [];
  const neckTop = cutter.neck_length > fluteLength && cutter.neck_diameter > 0 ? cutter.neck_length : fluteLength;
  if (neckTop > fluteLength)
    bodies.push({ name: "neck", envelope: flatEnvelope(cutter.neck_diameter / 2, fluteLength) });
  if (cutter.shank_diameter > 0)
    bodies.push({ name: "shank", envelope: flatEnvelope(cutter.shank_diameter / 2, neckTop) });
  let z = Math.max(cutter.stick_out, neckTop);
  for (const segment of cutter.holder) {
    const bottomRadius = segment.lower_diameter / 2,
      topRadius = segment.upper_diameter / 2;
    if (Math.max(bottomRadius, topRadius) > 0 && segment.length > 0) {
      bodies.push({ name: "holder", envelope: frustumEnvelope(z, z + segment.length, bottomRadius, topRadius) });
    }
    z += Math.max(0, segment.length);
  }
  return { cutting, fluteLength, bodies };
}
