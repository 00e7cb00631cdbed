/**
 * Chamfer mills for chamfers along edges and for countersinks.
 */
import { CHAMFER_EDGE_CLEARANCE_MM } from "../holes/depths.ts";
import type { Cutter } from "../types.ts";
import { FIT_EPSILON_MM, largest, mm, pick, smallest, type FeatureRef, type Filter, type Selection } from "./pick.ts";
import { coneSpan } from "../cutter-shape.ts";

/** A chamfer mill's angle matches a chamfer's within this (degrees). */
export const CHAMFER_ANGLE_TOLERANCE_DEG = 1;

export interface ChamferNeed {
  feature: FeatureRef;
  /** the chamfer face's angle to the tool axis (45 for a 45° bevel, a countersink's half angle) */
  angle_to_axis_deg: number;
  /** across the chamfer face (slant width) */
  width_mm: number;
  /** countersinks: the bore the tip must fit in, and the countersink's diameter at the top */
  hole_diameter_mm?: number;
  countersink_diameter_mm?: number;
}

const sin = (degrees: number) => Math.sin((degrees * Math.PI) / 180);

/**
 * A chamfer mill for a chamfer: its angle to the axis within CHAMFER_ANGLE_TOLERANCE_DEG, its
 * cone spanning the chamfer's radial extent with CHAMFER_EDGE_CLEARANCE_MM to spare at both
 * ends (the fragile tip and the cone's top corner do not cut). Countersinks: the tip inside the
 * bore; one wide enough to plunge the whole countersink first. Then the smallest (it reaches into
 * corners and runs faster).
 */
export function selectChamferMill(cutters: readonly Cutter[], need: ChamferNeed): Selection {
  const radialExtent = need.width_mm * sin(need.angle_to_axis_deg);
  const span = radialExtent + 2 * CHAMFER_EDGE_CLEARANCE_MM;
  const filters: Filter[] = [
    {
      limit: "chamfer_angle",
      keep: (c) =>
        c.chamfer_angle_deg !== null &&
        Math.abs(c.chamfer_angle_deg - need.angle_to_axis_deg) <= CHAMFER_ANGLE_TOLERANCE_DEG,
      why: (before) =>
        `its face is at ${mm(need.angle_to_axis_deg)}° to the tool axis and the chamfer mills are at ${[...new Set(before.map((c) => c.chamfer_angle_deg))].sort().join("°, ")}°`,
    },
    {
      limit: "chamfer_width",
      keep: (c) => coneSpan(c) + FIT_EPSILON_MM >= span,
      why: (before) =>
        `it is ${mm(need.width_mm)} mm wide (${mm(radialExtent)} mm radially) and the widest cone spans ${mm(largest(before, coneSpan))} mm, ${mm(2 * CHAMFER_EDGE_CLEARANCE_MM)} mm of which stay clear of the edges`,
    },
  ];
  const hole = need.hole_diameter_mm;
  if (hole !== undefined) {
    filters.push({
      limit: "diameter",
      keep: (c) => c.tip_diameter / 2 <= hole / 2 - CHAMFER_EDGE_CLEARANCE_MM + FIT_EPSILON_MM,
      why: (before) =>
        `its bore is ${mm(hole)} mm and the smallest chamfer mill tip is ${mm(smallest(before, (c) => c.tip_diameter))} mm`,
    });
  }
  const outer = need.countersink_diameter_mm;
  const plunges = (c: Cutter) =>
    outer !== undefined && c.diameter / 2 >= outer / 2 + CHAMFER_EDGE_CLEARANCE_MM - FIT_EPSILON_MM;
  return pick(
    cutters,
    (c) => c.kind === "chamfer",
    filters,
    (a, b) => Number(plunges(b)) - Number(plunges(a)) || a.diameter - b.diameter,
    need.feature,
    "chamfer mill",
  );
}
