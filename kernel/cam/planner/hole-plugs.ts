/**
 * Holes the hole operations make are closed for milling: a disc over each hole's entrance, added
 * to the triangles the milling slicer sees, keeps the end mills out (the slicer's shadow at and
 * below the entrance covers the disc). Without it roughing would clear any hole wider than its
 * tool, and drilling would then cut air. The stock simulation still checks against the real part.
 *
 * The disc circumscribes the hole's widest circle (counterbore or countersink), so no tool centre
 * offset from it comes within the hole.
 */
import type { SetupHole } from "../holes/setup-hole.ts";
import type { TriangleSoup } from "../types.ts";

const SEGMENTS = 48;

export function holePlugs(holes: readonly SetupHole[]): TriangleSoup {
  const positions: number[] = [];
  const indices: number[] = [];
  for (const hole of holes) {
    const widest = Math.max(hole.diameter_mm, hole.counterbore?.diameter_mm ?? 0, hole.countersink?.diameter_mm ?? 0);
    const radius = widest / 2 / Math.cos(Math.PI / SEGMENTS);
    const centre = positions.length / 3;
    positions.push(hole.at[0], hole.at[1], hole.top_z);
    for (let i = 0; i < SEGMENTS; i += 1) {
      const angle = (2 * Math.PI * i) / SEGMENTS;
      positions.push(hole.at[0] + radius * Math.cos(angle), hole.at[1] + radius * Math.sin(angle), hole.top_z);
    }
    // counter-clockwise seen from above: the disc faces up
    for (let i = 0; i < SEGMENTS; i += 1) indices.push(centre, centre + 1 + i, centre + 1 + ((i + 1) % SEGMENTS));
  }
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

/** One soup of several (indices renumbered). */
export function mergeSoups(...soups: TriangleSoup[]): TriangleSoup {
  const vertexCount = soups.reduce((sum, soup) => sum + soup.positions.length, 0);
  const indexCount = soups.reduce((sum, soup) => sum + soup.indices.length, 0);
  const positions = new Float32Array(vertexCount);
  const indices = new Uint32Array(indexCount);
  let p = 0;
  let k = 0;
  for (const soup of soups) {
    positions.set(soup.positions, p);
    const base = p / 3;
    for (let i = 0; i < soup.indices.length; i += 1) indices[k + i] = (soup.indices[i] as number) + base;
    p += soup.positions.length;
    k += soup.indices.length;
  }
  return { positions, indices };
}
