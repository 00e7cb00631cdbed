/**
 * A triangle soup as the cutters read it: one record of doubles per triangle, its three corners
 * and its unit normal turned to face up. The drop is the same whichever way a triangle winds,
 * so soups of either orientation, or none, drop alike.
 */
import type { TriangleSoup } from "../types.ts";

/** doubles per triangle: corners a, b, c, then the normal */
export const FACET_STRIDE = 12;
/** where the normal starts in a record */
export const FACET_NORMAL = 9;

export interface TriangleRecords {
  /** FACET_STRIDE doubles per triangle; degenerate triangles (no area) are left out */
  facets: Float64Array;
  count: number;
}

export function triangleRecords(soup: TriangleSoup): TriangleRecords {
  const { positions, indices } = soup;
  const total = Math.floor(indices.length / 3);
  const facets = new Float64Array(total * FACET_STRIDE);
  let count = 0;
  for (let t = 0; t < total; t += 1) {
    const at = count * FACET_STRIDE;
    for (let corner = 0; corner < 3; corner += 1) {
      const v = (indices[3 * t + corner] as number) * 3;
      facets[at + 3 * corner] = positions[v] as number;
      facets[at + 3 * corner + 1] = positions[v + 1] as number;
      facets[at + 3 * corner + 2] = positions[v + 2] as number;
    }
    const ux = (facets[at + 3] as number) - (facets[at] as number);
    const uy = (facets[at + 4] as number) - (facets[at + 1] as number);
    const uz = (facets[at + 5] as number) - (facets[at + 2] as number);
    const vx = (facets[at + 6] as number) - (facets[at] as number);
    const vy = (facets[at + 7] as number) - (facets[at + 1] as number);
    const vz = (facets[at + 8] as number) - (facets[at + 2] as number);
    let nx = uy * vz - uz * vy;
    let ny = uz * vx - ux * vz;
    let nz = ux * vy - uy * vx;
    const length = Math.hypot(nx, ny, nz);
    if (!(length > 0)) continue;
    const sign = nz < 0 ? -1 : 1;
    nx = (sign * nx) / length;
    ny = (sign * ny) / length;
    nz = (sign * nz) / length;
    facets[at + FACET_NORMAL] = nx;
    facets[at + FACET_NORMAL + 1] = ny;
    facets[at + FACET_NORMAL + 2] = nz;
    count += 1;
  }
  return { facets: facets.subarray(0, count * FACET_STRIDE), count };
}
