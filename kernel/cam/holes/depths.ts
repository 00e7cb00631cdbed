/**
 * How deep each hole-making tool goes, measured down from the hole's entrance (its top_z), and
 * the planes around it. Tool selection (../tooling/select.ts) checks reach with the same numbers
 * the operations (drilling.ts, helical.ts) cut with. README.md says why each number is what it is.
 */
import { pointLength, spotDepth } from "../cutter-shape.ts";
import type { Cutter } from "../types.ts";

/** The R plane above a hole's entrance: feeding starts here, the tool returns here between holes. */
export const R_PLANE_CLEARANCE_MM = 2;
/** Rigid tapping needs room to synchronise spindle and feed before the tap meets the part. */
export const TAP_R_PLANE_CLEARANCE_MM = 5;
/** A through hole's full diameter goes this far past the exit, so no burr ring is left. */
export const BREAKTHROUGH_MM = 1;
/** A spot is this much wider than the drill on each side: the drill's corners enter a cone, not a flat, and the edge is broken. */
export const SPOT_EDGE_BREAK_MM = 0.1;
/** Holes deeper than this many drill diameters are peck drilled (G83), clearing chips at every peck. */
export const PECK_DEPTH_RATIO = 3;
/** A blind tapped hole: the tap's tip stops this many pitches above the bore's bottom (chips collect there). */
export const TAP_BLIND_CLEARANCE_PITCHES = 1;
/** A through tapped hole: the tap goes this many pitches past the exit, so its lead chamfer leaves a full thread to the end. */
export const TAP_THROUGH_OVERRUN_PITCHES = 3;
/**
 * A chamfer mill's tip and the top corner of its cone stay this far (radially) off a chamfer's
 * edges: the tip is fragile and the corner would mark the face above.
 */
export const CHAMFER_EDGE_CLEARANCE_MM = 0.2;
/** A drill point matches a modelled one within this (degrees). */
const POINT_ANGLE_TOLERANCE_DEG = 1;

/** The hole facts these rules need (HoleInfo or a SetupHole has them). */
export interface HoleDepthFacts {
  diameter_mm: number;
  /** entrance to the bottom of the bore, the drill point not included */
  depth_mm: number;
  through: boolean;
  drill_point_angle_deg?: number | null;
}

export interface TipDepth {
  /** below the entrance */
  depth_mm: number;
  /** how far above the bore's bottom the tool's full diameter stops (material left as a cone or ring); 0 when it gets there */
  shortfall_mm: number;
}

const deg = (value: number) => (value * Math.PI) / 180;

/**
 * A drill's (or reamer's) tip depth. Through: the bore, the point and BREAKTHROUGH_MM. Blind: the
 * full diameter to the bore's bottom (the shoulder the feature gives; for a drill wider than the
 * hole, the hole's diameter) when the drill's point fits in the modelled one (its angle at least
 * the model's); a pointier drill stops with its tip at the model's cone tip, and a flat-bottomed
 * hole's drill with its tip on the floor, both short of the shoulder (shortfall): nothing is cut
 * below the model. A reamer's front is blunt: in a blind hole it stops at the shoulder.
 */
export function drillTipDepth(hole: HoleDepthFacts, drill: Cutter): TipDepth {
  const point = pointLength(drill);
  if (hole.through) return { depth_mm: hole.depth_mm + point + BREAKTHROUGH_MM, shortfall_mm: 0 };
  if (drill.tool_type === "Reamer") return { depth_mm: hole.depth_mm, shortfall_mm: point };
  const modelled = hole.drill_point_angle_deg ?? null;
  const angle = drill.tip_angle_deg ?? 180;
  if (modelled !== null && angle >= modelled - POINT_ANGLE_TOLERANCE_DEG) {
    // a drill a little wider than the hole meets the rim of the hole's cone with its own cone at
    // the hole's radius: its shoulder at the bore's bottom would put that lower by the point
    // between the two radii (NIST STC-06: a 6.4 mm 135° drill 0.008 mm into a 6.35 mm hole's
    // 118° cone)
    const meets =
      drill.tip_diameter > 0 ? point : (point * Math.min(drill.diameter, hole.diameter_mm)) / drill.diameter;
    return { depth_mm: hole.depth_mm + meets, shortfall_mm: 0 };
  }
  const cone = modelled !== null ? hole.diameter_mm / 2 / Math.tan(deg(modelled / 2)) : 0;
  return { depth_mm: hole.depth_mm + Math.min(cone, point), shortfall_mm: Math.max(0, point - cone) };
}

/** The spot a drill of `drillDiameter` wants, within what the spotting tool can make. */
export function spotDiameterFor(drillDiameter: number, spotter: Cutter): number {
  return Math.min(drillDiameter + 2 * SPOT_EDGE_BREAK_MM, spotter.diameter);
}

/** The spotting tool's tip depth for a spot `spotDiameter` wide at the entrance. */
export function spotTipDepth(spotter: Cutter, spotDiameter: number): number {
  return spotDepth(spotter, spotDiameter);
}

/** A tap's tip depth (see TAP_BLIND_CLEARANCE_PITCHES, TAP_THROUGH_OVERRUN_PITCHES). */
export function tapTipDepth(hole: HoleDepthFacts, tap: Cutter): number {
  const pitch = tap.pitch_mm ?? 0;
  return hole.through
    ? hole.depth_mm + TAP_THROUGH_OVERRUN_PITCHES * pitch
    : Math.max(pitch, hole.depth_mm - TAP_BLIND_CLEARANCE_PITCHES * pitch);
}

/** A flat end mill's depth in a helically bored hole: through by BREAKTHROUGH_MM, blind to the bottom. */
export function boreTipDepth(hole: HoleDepthFacts): number {
  return hole.through ? hole.depth_mm + BREAKTHROUGH_MM : hole.depth_mm;
}

/** Whether a hole is peck drilled: deeper than PECK_DEPTH_RATIO diameters of the drill. */
export function needsPecking(hole: HoleDepthFacts, drill: Cutter): boolean {
  return hole.depth_mm > PECK_DEPTH_RATIO * drill.diameter;
}
