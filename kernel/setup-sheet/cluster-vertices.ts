/**
 * Fewer triangles for the picture: vertices merged on a grid (vertex clustering). A vertex moves
 * at most one cell, so with cells under a pixel of the picture nothing shows; triangles that lose
 * a corner to a merge are dropped. The same merge at no distance welds the mesh: the GLB keeps each
 * B-rep face's vertices apart, and the picture needs the triangles that share an edge to share
 * its vertices to find the part's edges.
 */
import type { TriangleSoup } from "../cam/types.ts";

/** The soup with identical positions made one vertex. */
export function weld(soup: TriangleSoup): TriangleSoup {
  return merged(soup, (x, y, z) => `${x},${y},${z}`);
}

/**
 * At most `maxTriangles` triangles: merged on a grid of cells from a 600th of the box's diagonal,
 * each pass a coarser grid, until few enough are left. A soup within the budget is returned as is.
 */
export function decimated(soup: TriangleSoup, maxTriangles: number): TriangleSoup {
  if (soup.indices.length / 3 <= maxTriangles) return soup;
  let cell = diagonal(soup.positions) / 600;
  let result = soup;
  for (let pass = 0; pass < 20 && result.indices.length / 3 > maxTriangles; pass += 1) {
    const size = cell;
    result = merged(soup, (x, y, z) => `${Math.floor(x / size)},${Math.floor(y / size)},${Math.floor(z / size)}`);
    cell *= 1.4;
  }
  return result;
}

/** Vertices of one key become one, at their mean; degenerate and repeated triangles go. */
function merged(soup: TriangleSoup, key: (x: number, y: number, z: number) => string): TriangleSoup {
  const { positions, indices } = soup;
  const vertexCount = positions.length / 3;
  const cluster = new Map<string, number>();
  const remap = new Uint32Array(vertexCount);
  const sums: number[] = [];
  const counts: number[] = [];
  for (let v = 0; v < vertexCount; v += 1) {
    const x = positions[v * 3]!;
    const y = positions[v * 3 + 1]!;
    const z = positions[v * 3 + 2]!;
    const k = key(x, y, z);
    let id = cluster.get(k);
    if (id === undefined) {
      id = counts.length;
      cluster.set(k, id);
      sums.push(0, 0, 0);
      counts.push(0);
    }
    remap[v] = id;
    sums[id * 3] = sums[id * 3]! + x;
    sums[id * 3 + 1] = sums[id * 3 + 1]! + y;
    sums[id * 3 + 2] = sums[id * 3 + 2]! + z;
    counts[id] = counts[id]! + 1;
  }
  const out = new Float32Array(counts.length * 3);
  for (let id = 0; id < counts.length; id += 1)
    for (let axis = 0; axis < 3; axis += 1) out[id * 3 + axis] = sums[id * 3 + axis]! / counts[id]!;
  const kept: number[] = [];
  const seen = new Set<string>();
  for (let t = 0; t < indices.length; t += 3) {
    const a = remap[indices[t]!]!;
    const b = remap[indices[t + 1]!]!;
    const c = remap[indices[t + 2]!]!;
    if (a === b || b === c || a === c) continue;
    // the same corners in the same turn are the same triangle; the other turn is the other side of a thin wall
    const first = Math.min(a, b, c);
    const rotated = first === a ? [a, b, c] : first === b ? [b, c, a] : [c, a, b];
    const name = rotated.join(",");
    if (seen.has(name)) continue;
    seen.add(name);
    kept.push(a, b, c);
  }
  return { positions: out, indices: Uint32Array.from(kept) };
}

function diagonal(positions: Float32Array): number {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 1) {
    const axis = i % 3;
    const value = positions[i]!;
    if (value < min[axis]!) min[axis] = value;
    if (value > max[axis]!) max[axis] = value;
  }
  return Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!) || 1;
}
