/**
 * What a cutter's shape allows: how deep it reaches into a cut, how far below its tip a cone is
 * how wide (spots, countersinks, chamfers). Tool selection (tooling/), the hole operations
 * (holes/) and the milling read these, so all agree on the geometry; it sits below them all.
 */
import type { Cutter } from "./types.ts";

/**
 * A neck or shank may follow the flutes into a cut only if it is at least this much narrower
 * (on the diameter) than the cut: 0.01 mm a side, so it does not rub the wall the flutes made.
 */
export const NECK_RELIEF_MM = 0.02;
/** The holder's nose stays this far above the highest material near the tool. */
export const HOLDER_CLEARANCE_MM = 2;

const deg = (value: number) => (value * Math.PI) / 180;

/**
 * How deep the tip may go below the top of the walls of a cut `bore_diameter` wide (for an end
 * mill cutting its own groove, its diameter): the flutes, then the neck and the shank as long as
 * each is narrower than the cut by NECK_RELIEF_MM, never more than the stick-out. A shank as wide
 * as the cut stays above the walls. The cut is an object, not a number, so that
 * `cutters.map(wallReach)` (the index taken for a diameter) does not compile.
 */
export function wallReach(cutter: Cutter, cut: { bore_diameter: number } = { bore_diameter: cutter.diameter }): number {
  const boreDiameter = cut.bore_diameter;
  const passes = (diameter: number) => diameter <= boreDiameter - NECK_RELIEF_MM;
  let reach = Math.min(cutter.flute_length, cutter.stick_out);
  // neck_length is measured from the tip (NeckLength); a neck ending in the flutes is none
  if (cutter.neck_length > cutter.flute_length && cutter.neck_diameter > 0) {
    if (!passes(cutter.neck_diameter)) return reach;
    reach = Math.min(cutter.neck_length, cutter.stick_out);
  }
  return passes(cutter.shank_diameter) ? cutter.stick_out : reach;
}

/** How far below the highest material near the tool its tip may go with the holder clear of it. */
export function holderReach(cutter: Cutter): number {
  return cutter.holder.length === 0 ? cutter.stick_out : cutter.stick_out - HOLDER_CLEARANCE_MM;
}

/** A drill's point: from the tip to where the full diameter starts (a centre drill: the whole cutting length). */
export function pointLength(cutter: Cutter): number {
  if (cutter.kind !== "drill" || cutter.tip_angle_deg === null) return 0;
  if (cutter.tip_diameter > 0) return cutter.flute_length;
  return cutter.diameter / 2 / Math.tan(deg(cutter.tip_angle_deg / 2));
}

/** A centre drill's pilot length (the cutting length less the countersink cone). */
export function centreDrillPilotLength(cutter: Cutter): number {
  if (cutter.tip_angle_deg === null || cutter.tip_diameter <= 0) return 0;
  return Math.max(
    0,
    cutter.flute_length - (cutter.diameter - cutter.tip_diameter) / 2 / Math.tan(deg(cutter.tip_angle_deg / 2)),
  );
}

/**
 * How deep a spot drill or centre drill goes for a spot (its cone at the surface) `spotDiameter`
 * wide. A centre drill's cone starts above its pilot; a spot narrower than the pilot is the pilot.
 */
export function spotDepth(cutter: Cutter, spotDiameter: number): number {
  if (cutter.tip_angle_deg === null) throw new RangeError(`${cutter.name} has no point to spot with`);
  const d = Math.min(spotDiameter, cutter.diameter);
  const tan = Math.tan(deg(cutter.tip_angle_deg / 2));
  if (cutter.tip_diameter > 0) return centreDrillPilotLength(cutter) + Math.max(0, d - cutter.tip_diameter) / 2 / tan;
  return d / 2 / tan;
}

/** A chamfer mill's cone radius `height` above its tip (capped at its diameter). */
export function coneRadiusAt(cutter: Cutter, height: number): number {
  if (cutter.chamfer_angle_deg === null) return cutter.diameter / 2;
  return Math.min(
    cutter.diameter / 2,
    cutter.tip_diameter / 2 + Math.max(0, height) * Math.tan(deg(cutter.chamfer_angle_deg)),
  );
}

/** The height above a chamfer mill's tip at which its cone is `radius` wide. */
export function coneHeightAt(cutter: Cutter, radius: number): number {
  if (cutter.chamfer_angle_deg === null) throw new RangeError(`${cutter.name} has no cone`);
  return Math.max(0, radius - cutter.tip_diameter / 2) / Math.tan(deg(cutter.chamfer_angle_deg));
}

/** The radial span of a chamfer mill's cone, tip to diameter. */
export function coneSpan(cutter: Cutter): number {
  return (cutter.diameter - cutter.tip_diameter) / 2;
}

/** Cutting data's carbide or HSS table; unknown grades read as HSS (the slower one). */
export function isCarbide(cutter: Cutter): boolean {
  return ["carbide", "cermet", "ceramic", "pcd", "cbn"].includes(cutter.tool_material);
}
