/**
 * How far apart 3D finishing's passes go for a target scallop, by the slope of what they
 * finish (scallop.ts). Parallel passes along X see a face's slope across them (its fall along
 * Y): they step over what the scallop allows at the steepest such slope of their faces, up to
 * the split angle (finish-regions.ts), not that angle's worst case. Waterline loops step down
 * by the contours' spacing at the least slope of their faces: the same surface distance apart
 * is a larger step in Z the steeper the face (OpenCAMLib's and FreeCAD's waterline step by the
 * scallop the same way).
 *
 * On a concave face of radius rho the cutter's tip (radius r: a ball's, a bull-nose's corner)
 * runs on a circle of rho - r while it touches the face on one of rho: passes a distance apart
 * at the tip stand rho / (rho - r) times that apart on the face, and the scallop grows with the
 * square. Their spacing is scaled by sqrt((rho - r) / rho) so the scallop stays the target's; a
 * fillet the cutter fits (rho within FITS_MM of r, or tighter) is finished where it sits in it,
 * and keeps the plane's.
 */
import type { SurfaceCutter } from "./cutters.ts";
import { stepoverForScallop } from "./scallop.ts";

/**
 * Slopes are taken in whole degrees, rounded towards the finer spacing, so faces share the
 * numerical stepovers (each a bisection on the cutter's section).
 */
const DEGREE = 1;
/**
 * The waterline's steps stop growing at this slope: beyond it tan grows without bound while the
 * stepover shrinks to nothing, and the stepdown is within half a percent of its upright limit.
 */
const STEEPEST_SPACED_DEG = 85;
/**
 * A concave radius within this of the tip's (mm) is the tip's: a face's radius as its surface
 * gives it differs from the tool's nominal one by rounding (5.0000001 against 5 made the
 * spacing vanish).
 */
const FITS_MM = 0.01;
/**
 * The concave factor's least: where rho is a few tenths over r the tip runs on a circle a few
 * tenths wide, crossed by a pass or two, while the passes cover the face's whole box.
 */
const LEAST_CONCAVE_FACTOR = 0.25;

/** What the passes finish: its slope (degrees) and its concave radius (mm; null when not concave). */
export interface SpacedFace {
  slopeDeg: number;
  concaveRadius: number | null;
}

export interface PassSpacing {
  /** the parallel passes' distance in Y over a face whose steepest slope across them is `slopeDeg` */
  stepover(face: SpacedFace): number;
  /** the waterline loops' distance in Z round a face whose least slope is `slopeDeg` */
  stepdown(face: SpacedFace): number;
}

/**
 * The spacings for `scallop` (mm), slopes clamped to `splitDeg` (shallow below it, steep above);
 * `tipRadius`: the cutter's round tip (a ball's radius, a bull-nose's corner).
 */
export function passSpacing(
  cutter: SurfaceCutter,
  spacing: { scallop: number; splitDeg: number; tipRadius: number },
): PassSpacing {
  const { scallop, splitDeg, tipRadius } = spacing;
  const concave = (radius: number | null) =>
    radius === null || radius <= tipRadius + FITS_MM
      ? 1
      : Math.max(LEAST_CONCAVE_FACTOR, Math.sqrt((radius - tipRadius) / radius));
  const known = new Map<number, number>();
  const stepoverAt = (slopeDeg: number) => {
    let stepover = known.get(slopeDeg);
    if (stepover === undefined) {
      stepover = stepoverForScallop(cutter, { scallop, slopeDeg });
      known.set(slopeDeg, stepover);
    }
    return stepover;
  };
  return {
    stepover: (face) =>
      stepoverAt(Math.min(splitDeg, Math.ceil(face.slopeDeg / DEGREE) * DEGREE)) * concave(face.concaveRadius),
    stepdown: (face) => {
      const slope = Math.min(STEEPEST_SPACED_DEG, Math.max(splitDeg, Math.floor(face.slopeDeg / DEGREE) * DEGREE));
      return stepoverAt(slope) * Math.tan((slope * Math.PI) / 180) * concave(face.concaveRadius);
    },
  };
}
