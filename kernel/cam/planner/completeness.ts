/**
 * How complete a plan is (plan-types.ts Completeness), from what the planner found on the way:
 * the holes whose operations were not all made and kept, the faces no setup reaches, the
 * operations the verification dropped, the tools and setups left out, the sharp corners, and the
 * material left thicker than the finishing tolerance (simulation/thick-material.ts).
 *
 * `incomplete` when any hole is not made, any face is unreachable, a setup is left out because
 * the workholding holds it nowhere (a machinist would need another fixture, whatever the
 * material figures say), or the material left covers more than the limit's share of the part's
 * surface (sharp corners aside). Tools missing, operations dropped and setups left out for other
 * reasons are reported; what they leave undone shows up as holes, faces or material.
 */
import { roundNumber } from "../../math/vec3.ts";
import type { Completeness, SetupLeftOut, SharpCorner, ToolMissing } from "../plan-types.ts";

/**
 * Material thinner than this is not left: under the roughing allowance (0.2 mm on floors, 0.3 on
 * walls), so a surface roughed but not finished counts, and over what the voxel measure cannot
 * resolve against a wall (half a simulation cell's diagonal, 0.071 mm at 0.1 mm cells, plus the
 * mesh's 0.01 mm chords). README.md of simulation/ has the figures.
 */
export const FINISHING_TOLERANCE_MM = 0.1;
/** the default share of the part's surface material may be left on before the plan is incomplete */
export const DEFAULT_SURFACE_LIMIT_PCT = 0.5;

/** The finishing tolerance for simulation cells of `cellMm`: never finer than they resolve beside a wall. */
export function finishingTolerance(cellMm: number, meshChordMm: number): number {
  return Math.max(FINISHING_TOLERANCE_MM, roundNumber(cellMm * Math.SQRT1_2 + meshChordMm, 3));
}

/** Per hole (feature id): the operations each setup making it would use, null where a setup has no tool for it. */
export type HoleMakers = Map<number, (string[] | null)[]>;

/** Holes among `holes` not made: no setup makes them, a setup lacks a tool for them, or one of their operations was not kept. */
export function holesNotMade(holes: readonly number[], makers: HoleMakers, kept: ReadonlySet<string>): number[] {
  return holes.filter((hole) => {
    const lists = makers.get(hole) ?? [];
    return (
      lists.length === 0 || lists.some((ids) => ids === null || ids.length === 0 || ids.some((id) => !kept.has(id)))
    );
  });
}

export interface CompletenessFindings {
  material: { left_mm3: number; removable_mm3: number; left_pct: number; surface_pct: number };
  tolerance_mm: number;
  surface_limit_pct: number;
  holes_not_made: number[];
  faces_unreachable: number[];
  operations_dropped: number;
  tools_missing: ToolMissing[];
  setups_left_out: SetupLeftOut[];
  sharp_corners: SharpCorner[];
}

export function completenessOf(findings: CompletenessFindings): Completeness {
  const { material, tolerance_mm, surface_limit_pct } = findings;
  const reasons: Completeness["reasons"] = [];
  const holes = [...new Set(findings.holes_not_made)].sort((a, b) => a - b);
  const faces = [...new Set(findings.faces_unreachable)].sort((a, b) => a - b);
  if (holes.length > 0) {
    reasons.push({
      code: "hole_not_made",
      message: `${holes.length} ${holes.length === 1 ? "hole is" : "holes are"} not made (feature ${holes.join(", ")})`,
    });
  }
  if (faces.length > 0) {
    reasons.push({
      code: "face_unreachable",
      message: `${faces.length} ${faces.length === 1 ? "face is" : "faces are"} reached from no setup (face ${faces.join(", ")})`,
    });
  }
  const unheld = findings.setups_left_out.filter((s) => s.reason === "workholding_unavailable");
  if (unheld.length > 0) {
    reasons.push({
      code: "workholding_unavailable",
      message: `${unheld.length} ${unheld.length === 1 ? "setup is" : "setups are"} left out, the workholding holding ${unheld.length === 1 ? "it" : "them"} nowhere (setup ${unheld.map((s) => s.name).join(", ")})`,
    });
  }
  const surface = roundNumber(material.surface_pct, 2);
  if (surface > surface_limit_pct) {
    reasons.push({
      code: "material_left",
      message: `material thicker than ${tolerance_mm} mm is left on ${surface} % of the part's surface (sharp corners aside), over the limit of ${surface_limit_pct} %: ${roundNumber(material.left_mm3, 1)} mm³, ${roundNumber(material.left_pct, 2)} % of the ${roundNumber(material.removable_mm3, 1)} mm³ to remove`,
    });
  }
  return {
    status: reasons.length === 0 ? "complete" : "incomplete",
    reasons,
    material_left: {
      volume_mm3: roundNumber(material.left_mm3, 1),
      pct_of_removable: roundNumber(material.left_pct, 2),
      surface_pct: surface,
      surface_limit_pct,
      tolerance_mm,
    },
    holes_not_made: holes,
    faces_unreachable: faces,
    operations_dropped: findings.operations_dropped,
    tools_missing: findings.tools_missing,
    setups_left_out: findings.setups_left_out,
    sharp_corners: findings.sharp_corners,
  };
}
