/**
 * Stepover from a target scallop height: the ridge two neighbouring passes leave standing between
 * them. Passes are seen in the section across them (a solid of revolution's silhouette along any
 * horizontal move is its axial section, `height(rho)` mirrored), on a plane sloping `slope`
 * degrees with the passes running along its contours (across the fall line). A pass running
 * down the fall line sees the plane level in its section: use the level case.
 *
 * Closed forms, h the scallop, R the radius, r the corner, s the stepover:
 * - ball on a level plane: s = 2 sqrt(h (2R - h)), the chord of the ball at depth h;
 * - ball on a slope of angle a: the same along the surface, so s cos a between the passes in
 *   XY (while a + asin(s / 2R) stays below 90 degrees: the ridge on the ball's sphere);
 * - bull-nose on a level plane: s = 2 (R - r) + 2 sqrt(h (2r - h)), the flat disc's width plus
 *   the corner's chord;
 * - bull-nose on a slope: no closed form (the ridge moves from the corner onto the flat disc of
 *   the pass above as the slope flattens), so `stepoverForScallop` finds it numerically for any
 *   cutter, from `scallopHeight`: the two passes' sections tilted by the slope, the ridge where
 *   they cross.
 */
import type { SurfaceCutter } from "./cutters.ts";

const radians = (degrees: number) => (degrees * Math.PI) / 180;

function chord(radius: number, scallop: number): number {
  if (!(scallop >= 0 && scallop <= radius))
    throw new RangeError(`a scallop of ${scallop} mm is not between 0 and the radius ${radius}`);
  return 2 * Math.sqrt(scallop * (2 * radius - scallop));
}

/** A ball end mill on a level plane: s = 2 sqrt(h (2R - h)). */
export function ballStepover(radius: number, scallop: number): number {
  return chord(radius, scallop);
}

/** A ball end mill on a plane sloping `slopeDeg`, passes along its contours: the stepover in XY. */
export function ballStepoverOnSlope(radius: number, scallop: number, slopeDeg: number): number {
  return chord(radius, scallop) * Math.cos(radians(slopeDeg));
}

/** A bull-nose end mill on a level plane: s = 2 (R - r) + 2 sqrt(h (2r - h)). */
export function bullStepover(radius: number, corner: number, scallop: number): number {
  return 2 * (radius - corner) + chord(corner, Math.min(scallop, corner));
}

/** points along the axial section's half width: the section's error is far below a micron */
const SECTION_POINTS = 4001;
/** bisections: 2^-50 of the cutter's diameter */
const BISECTIONS = 50;

/**
 * The scallop two passes `stepover` apart along a plane sloping `slopeDeg` leave (passes along
 * the plane's contours; the stepover measured on the plane).
 */
export function scallopHeight(cutter: SurfaceCutter, pass: { stepover: number; slopeDeg: number }): number {
  const section = tiltedSection(cutter, pass.slopeDeg);
  const step = pass.stepover;
  // the ridge: where the upper pass's section rising downhill meets the lower one's rising uphill
  let lo = 0;
  let hi = step;
  for (let k = 0; k < BISECTIONS; k += 1) {
    const mid = (lo + hi) / 2;
    if (section(mid) < section(mid - step)) lo = mid;
    else hi = mid;
  }
  return section((lo + hi) / 2);
}

/**
 * The largest stepover (in XY, between passes along the contours of a plane sloping `slopeDeg`)
 * that leaves at most `scallop`, for any cutter; a bull-nose on a slope needs it.
 */
export function stepoverForScallop(cutter: SurfaceCutter, target: { scallop: number; slopeDeg: number }): number {
  let lo = 0;
  let hi = 2 * cutter.radius;
  if (scallopHeight(cutter, { stepover: hi, slopeDeg: target.slopeDeg }) <= target.scallop) lo = hi;
  for (let k = 0; k < BISECTIONS && lo < hi; k += 1) {
    const mid = (lo + hi) / 2;
    if (scallopHeight(cutter, { stepover: mid, slopeDeg: target.slopeDeg }) <= target.scallop) lo = mid;
    else hi = mid;
  }
  return lo * Math.cos(radians(target.slopeDeg));
}

/**
 * The cutter's axial section resting on a plane sloping `slopeDeg` (downhill towards +u): its
 * height above the plane, measured along the plane's normal, at a distance along the plane from
 * where it touches. The section is the profile's polyline, with the shank's side standing up at
 * the radius; only its chain facing the plane counts.
 */
function tiltedSection(cutter: SurfaceCutter, slopeDeg: number): (along: number) => number {
  const a = radians(slopeDeg);
  const cos = Math.cos(a);
  const sin = Math.sin(a);
  const radius = cutter.radius;
  const wallTop = cutter.height(radius) + 4 * radius;
  const us: number[] = [-radius];
  const zs: number[] = [wallTop];
  for (let k = 0; k < SECTION_POINTS; k += 1) {
    const u = -radius + (2 * radius * k) / (SECTION_POINTS - 1);
    us.push(u);
    zs.push(cutter.height(Math.abs(u)));
  }
  us.push(radius);
  zs.push(wallTop);
  // along the plane (s) and off it (v); the chain facing the plane runs while s grows
  const s: number[] = [];
  const v: number[] = [];
  for (let k = 0; k < us.length; k += 1) {
    const sk = (us[k] as number) * cos - (zs[k] as number) * sin;
    if (s.length > 0 && sk <= (s[s.length - 1] as number)) {
      // a vertical piece (equal s) keeps its lower end; a piece turning back ends the chain
      if (sk < (s[s.length - 1] as number) - 1e-12) break;
      v[v.length - 1] = Math.min(v[v.length - 1] as number, (us[k] as number) * sin + (zs[k] as number) * cos);
      continue;
    }
    s.push(sk);
    v.push((us[k] as number) * sin + (zs[k] as number) * cos);
  }
  let touch = 0;
  for (let k = 1; k < v.length; k += 1) if ((v[k] as number) < (v[touch] as number)) touch = k;
  const s0 = s[touch] as number;
  const v0 = v[touch] as number;
  const last = s.length - 1;
  return (along) => {
    const at = s0 + along;
    if (at <= (s[0] as number)) return (v[0] as number) - v0;
    if (at >= (s[last] as number)) return Infinity;
    let lo = 0;
    let hi = last;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if ((s[mid] as number) <= at) lo = mid;
      else hi = mid;
    }
    const f = (at - (s[lo] as number)) / ((s[hi] as number) - (s[lo] as number));
    return (v[lo] as number) + f * ((v[hi] as number) - (v[lo] as number)) - v0;
  };
}
