/**
 * A recognised hole in a setup's frame (../frames.ts): its axis along the tool axis (+Z), the
 * entrance at top_z, the bore going down from there. Recognition reports holes in workpiece
 * coordinates with the axis pointing out of the entrance; a through hole may also be made from
 * its far end when that faces the tool.
 */
import type { Feature } from "../../features/recognition/types.ts";
import { directionToFrame, toFrame } from "../frames.ts";
import type { Frame, Vec2, Vec3 } from "../types.ts";

/** An axis is the tool axis within this angle (degrees): recognition's own angle tolerance. */
export const AXIS_TOLERANCE_DEG = 0.5;

export interface SetupHole {
  feature_id: number;
  /** the axis, setup frame */
  at: Vec2;
  /** the entrance: the top of a counterbore or countersink, else of the bore */
  top_z: number;
  diameter_mm: number;
  /** entrance to the bottom of the bore, the drill point not included */
  depth_mm: number;
  through: boolean;
  drill_point_angle_deg: number | null;
  counterbore: { diameter_mm: number; depth_mm: number } | null;
  countersink: { diameter_mm: number; angle_deg: number } | null;
  thread: { pitch_mm: number | null } | null;
}

export type HoleInSetup =
  | { ok: true; hole: SetupHole }
  | { ok: false; code: "not_a_hole" | "axis_not_along_tool" | "entrance_faces_away"; message: string };

/**
 * The hole of `feature` in the setup `frame`, or why it is not made in this setup: no hole data,
 * an axis off the tool axis, or a counterbored, countersunk or blind hole whose entrance faces
 * away from the tool (a plain through hole is then made from its far end).
 */
export function holeInSetup(feature: Feature, frame: Frame): HoleInSetup {
  const info = feature.hole;
  if (!info) return { ok: false, code: "not_a_hole", message: `feature ${feature.id} has no hole data` };
  const direction = directionToFrame(frame, info.axis.direction as Vec3);
  const cos = Math.cos((AXIS_TOLERANCE_DEG * Math.PI) / 180);
  const length = Math.hypot(...direction);
  const along = length > 0 ? direction[2] / length : 0;
  const origin = toFrame(frame, info.axis.origin as Vec3);
  const base = {
    feature_id: feature.id,
    at: [origin[0], origin[1]] as Vec2,
    diameter_mm: info.diameter_mm,
    depth_mm: info.depth_mm,
    through: info.through,
    thread: info.thread ? { pitch_mm: info.thread.pitch_mm } : null,
  };
  if (along >= cos) {
    return {
      ok: true,
      hole: {
        ...base,
        top_z: origin[2],
        drill_point_angle_deg: info.drill_point_angle_deg ?? null,
        counterbore: info.counterbore ?? null,
        countersink: info.countersink ?? null,
      },
    };
  }
  if (along <= -cos) {
    if (!info.through || info.counterbore || info.countersink) {
      return {
        ok: false,
        code: "entrance_faces_away",
        message: `feature ${feature.id}: the hole's entrance faces away from this setup's tool`,
      };
    }
    // the far end: the material lies along +Z from the entrance, which faces -Z here
    return {
      ok: true,
      hole: {
        ...base,
        top_z: origin[2] + info.depth_mm,
        drill_point_angle_deg: null,
        counterbore: null,
        countersink: null,
      },
    };
  }
  return {
    ok: false,
    code: "axis_not_along_tool",
    message: `feature ${feature.id}: the hole's axis is not along this setup's tool axis`,
  };
}

/** how far past the middle each end's drill goes, so the two bores overlap into one */
export const MEETING_OVERLAP_MM = 0.5;

/**
 * A through hole counterbored at both ends (recognition's far_counterbore) is made from both:
 * no single setup reaches both shoulders. From each end: its counterbore, and the bore to
 * MEETING_OVERLAP_MM past the middle, drilled as a through hole that deep (the drill's full
 * diameter goes on past it by holes/depths.ts's BREAKTHROUGH_MM, into the other end's bore).
 * This setup's half, or null when the hole's axis is not along its tool axis.
 */
export function halfFromItsEnd(feature: Feature, frame: Frame): SetupHole | null {
  const info = feature.hole;
  if (!info?.through || !info.far_counterbore) return null;
  // as a plain through hole: made from whichever end faces the tool
  const plain = holeInSetup({ ...feature, hole: { ...info, counterbore: undefined, countersink: undefined } }, frame);
  if (!plain.ok) return null;
  const atEntrance = directionToFrame(frame, info.axis.direction as Vec3)[2] > 0;
  return {
    ...plain.hole,
    depth_mm: info.depth_mm / 2 + MEETING_OVERLAP_MM,
    through: true,
    drill_point_angle_deg: null,
    counterbore: (atEntrance ? info.counterbore : info.far_counterbore) ?? null,
    countersink: atEntrance ? (info.countersink ?? null) : null,
  };
}
