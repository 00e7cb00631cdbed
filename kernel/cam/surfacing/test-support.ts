/**
 * Analytic shapes as triangle soups for the surfacing tests, each with the chordal error its
 * triangles make (how far inside the true surface they lie at most), and the exact drops of
 * round cutters on them.
 */
import type { TriangleSoup, Vec3 } from "../types.ts";

export interface AnalyticSoup {
  soup: TriangleSoup;
  /** the largest distance from the true surface to the triangles */
  chordal: number;
}

function soupOf(points: number[], triangles: number[]): TriangleSoup {
  return { positions: Float32Array.from(points), indices: Uint32Array.from(triangles) };
}

/** A UV sphere: `rings` bands of latitude, `segments` of longitude, vertices on the sphere. */
export function sphereSoup(sphere: { centre: Vec3; radius: number; rings: number; segments: number }): AnalyticSoup {
  const { centre, radius, rings, segments } = sphere;
  const points: number[] = [];
  for (let k = 0; k <= rings; k += 1) {
    const polar = (Math.PI * k) / rings;
    // the poles exactly on the axis: their triangles of no area are left out, not slivers
    const ring = k === 0 || k === rings ? 0 : radius * Math.sin(polar);
    for (let s = 0; s < segments; s += 1) {
      const azimuth = (2 * Math.PI * s) / segments;
      points.push(
        centre[0] + ring * Math.cos(azimuth),
        centre[1] + ring * Math.sin(azimuth),
        centre[2] + radius * Math.cos(polar),
      );
    }
  }
  const triangles: number[] = [];
  const at = (k: number, s: number) => k * segments + (s % segments);
  for (let k = 0; k < rings; k += 1) {
    for (let s = 0; s < segments; s += 1) {
      triangles.push(at(k, s), at(k + 1, s), at(k + 1, s + 1), at(k, s), at(k + 1, s + 1), at(k, s + 1));
    }
  }
  const soup = soupOf(points, triangles);
  return { soup, chordal: radius - nearestToCentre(soup, centre) };
}

/**
 * A cylinder lying along x from `x0` to `x1`, its axis at (y, z) = (0, `axisZ`), its side only:
 * `segments` flat strips round it, corners on the surface.
 */
export function cylinderSoup(cylinder: {
  radius: number;
  axisZ: number;
  x0: number;
  x1: number;
  segments: number;
}): AnalyticSoup {
  const { radius, axisZ, x0, x1, segments } = cylinder;
  const points: number[] = [];
  for (let s = 0; s < segments; s += 1) {
    const angle = (2 * Math.PI * s) / segments;
    const y = radius * Math.cos(angle);
    const z = axisZ + radius * Math.sin(angle);
    points.push(x0, y, z, x1, y, z);
  }
  const triangles: number[] = [];
  for (let s = 0; s < segments; s += 1) {
    const a = 2 * s;
    const b = 2 * ((s + 1) % segments);
    triangles.push(a, b, b + 1, a, b + 1, a + 1);
  }
  return { soup: soupOf(points, triangles), chordal: radius * (1 - Math.cos(Math.PI / segments)) };
}

/** The plane z = -tan(slope) x over [x0, x1] x [y0, y1]: two triangles, no chordal error. */
export function slopeSoup(slope: { degrees: number; x0: number; x1: number; y0: number; y1: number }): AnalyticSoup {
  const rise = -Math.tan((slope.degrees * Math.PI) / 180);
  const { x0, x1, y0, y1 } = slope;
  const points = [x0, y0, rise * x0, x1, y0, rise * x1, x1, y1, rise * x1, x0, y1, rise * x0];
  return { soup: soupOf(points, [0, 1, 2, 0, 2, 3]), chordal: 0 };
}

/** The nearest any triangle's plane comes to `centre` (for a soup whose corners lie on a sphere round it). */
function nearestToCentre(soup: TriangleSoup, centre: Vec3): number {
  const { positions: p, indices } = soup;
  let nearest = Infinity;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => 3 * (indices[t + k] as number));
    const corner = (v: number | undefined, k: number) => (p[(v as number) + k] as number) - centre[k as 0 | 1 | 2];
    const u = [0, 1, 2].map((k) => corner(b, k) - corner(a, k));
    const w = [0, 1, 2].map((k) => corner(c, k) - corner(a, k));
    const n = [
      (u[1] as number) * (w[2] as number) - (u[2] as number) * (w[1] as number),
      (u[2] as number) * (w[0] as number) - (u[0] as number) * (w[2] as number),
      (u[0] as number) * (w[1] as number) - (u[1] as number) * (w[0] as number),
    ];
    const length = Math.hypot(n[0] as number, n[1] as number, n[2] as number);
    if (!(length > 0)) continue;
    const distance = Math.abs([0, 1, 2].reduce((sum, k) => sum + (n[k] as number) * corner(a, k), 0)) / length;
    nearest = Math.min(nearest, distance);
  }
  return nearest;
}

/**
 * The exact drop of a round cutter (radius, corner: 0 flat, radius ball, between bull-nose)
 * onto a sphere or a cylinder lying along x, `rho` from the axis in XY (for the cylinder, |y|):
 * the torus's tube centre stays radius + corner from the centre or the axis.
 */
export function roundDrop(
  shape: { radius: number; top: number },
  cutter: { radius: number; corner: number },
  rho: number,
): number {
  const flat = cutter.radius - cutter.corner;
  const q = Math.max(0, rho - flat);
  const reach = shape.radius + cutter.corner;
  if (q > reach) return -Infinity;
  return shape.top - shape.radius + Math.sqrt(reach * reach - q * q) - cutter.corner;
}
