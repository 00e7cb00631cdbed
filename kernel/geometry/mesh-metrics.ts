/**
 * Measurements of a triangle soup or indexed mesh, in plain TypeScript: welding by exact
 * position, closedness (every edge shared by exactly two triangles running it in opposite
 * directions), the enclosed volume by the divergence theorem, and box arithmetic. (The box of a
 * mesh is kernel/mesh/bounds.ts.)
 */
import type { BoundingBox } from "../mesh/types.ts";

export function boxSize(box: BoundingBox): [number, number, number] {
  return [box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]];
}

export function boxDiagonal(box: BoundingBox): number {
  const [dx, dy, dz] = boxSize(box);
  return Math.hypot(dx, dy, dz);
}

export interface Welded {
  /** per input vertex: the index of its welded vertex */
  vertexOf: Uint32Array;
  /** how many distinct positions there are */
  count: number;
}

/**
 * Merges vertices with bit-identical coordinates (after treating -0 as 0). STL writers repeat
 * each shared corner exactly, so exact welding recovers the topology without a tolerance that
 * could merge distinct features.
 */
export function weldByPosition(positions: Float32Array): Welded {
  const vertexCount = Math.floor(positions.length / 3);
  const normalised = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i++) normalised[i] = (positions[i] as number) + 0; // -0 + 0 = +0
  const bits = new Uint32Array(normalised.buffer);
  let size = 1;
  while (size < vertexCount * 2) size <<= 1;
  const mask = size - 1;
  const slots = new Int32Array(size).fill(-1);
  const vertexOf = new Uint32Array(vertexCount);
  const firstOf: number[] = []; // welded index -> first input vertex with that position
  for (let v = 0; v < vertexCount; v++) {
    const x = bits[3 * v] as number;
    const y = bits[3 * v + 1] as number;
    const z = bits[3 * v + 2] as number;
    let slot = (Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)) & mask;
    for (;;) {
      const welded = slots[slot] as number;
      if (welded < 0) {
        slots[slot] = firstOf.length;
        vertexOf[v] = firstOf.length;
        firstOf.push(v);
        break;
      }
      const first = firstOf[welded] as number;
      if (bits[3 * first] === x && bits[3 * first + 1] === y && bits[3 * first + 2] === z) {
        vertexOf[v] = welded;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return { vertexOf, count: firstOf.length };
}

export interface EdgeReport {
  edges: number;
  /** edges used by one triangle only: holes */
  boundaryEdges: number;
  /** edges used by more than two triangles */
  nonManifoldEdges: number;
  /** edges used by two triangles running the same direction: a flipped neighbour */
  misorientedEdges: number;
  closed: boolean;
}

/**
 * Classifies the edges of an indexed mesh (three vertex ids per triangle). Triangles with a
 * repeated vertex id are degenerate and must be removed by the caller first.
 */
export function edgeReport(triangles: Uint32Array, vertexCount: number): EdgeReport {
  // per undirected edge: how often it runs low->high and high->low, packed as forward * 2^16 + backward
  const uses = new Map<number, number>();
  const add = (a: number, b: number): void => {
    const key = a < b ? a * vertexCount + b : b * vertexCount + a;
    const step = a < b ? 0x10000 : 1;
    uses.set(key, (uses.get(key) ?? 0) + step);
  };
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t] as number;
    const b = triangles[t + 1] as number;
    const c = triangles[t + 2] as number;
    add(a, b);
    add(b, c);
    add(c, a);
  }
  let boundaryEdges = 0;
  let nonManifoldEdges = 0;
  let misorientedEdges = 0;
  for (const packed of uses.values()) {
    const forward = Math.floor(packed / 0x10000);
    const backward = packed % 0x10000;
    const total = forward + backward;
    if (total === 1) boundaryEdges++;
    else if (total > 2) nonManifoldEdges++;
    else if (forward !== 1) misorientedEdges++;
  }
  return {
    edges: uses.size,
    boundaryEdges,
    nonManifoldEdges,
    misorientedEdges,
    closed: uses.size > 0 && boundaryEdges === 0 && nonManifoldEdges === 0 && misorientedEdges === 0,
  };
}

/** The triangles with each one's winding reversed (a copy): a mesh facing in turned to face out. */
export function turnedRound(indices: Uint32Array): Uint32Array {
  const turned = Uint32Array.from(indices);
  for (let t = 0; t + 2 < turned.length; t += 3)
    [turned[t + 1], turned[t + 2]] = [turned[t + 2] as number, turned[t + 1] as number];
  return turned;
}

/**
 * The volume enclosed by a closed, outward-oriented mesh: sum over triangles of v0 . (v1 x v2) / 6.
 * Negative when the triangles face inwards. Computed in doubles relative to the first vertex, so
 * a part far from the origin loses no precision.
 */
export function signedVolume(positions: Float32Array, indices: Uint32Array): number {
  if (indices.length === 0) return 0;
  const o = 3 * (indices[0] as number);
  const ox = positions[o] as number;
  const oy = positions[o + 1] as number;
  const oz = positions[o + 2] as number;
  let sum = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * (indices[t] as number);
    const b = 3 * (indices[t + 1] as number);
    const c = 3 * (indices[t + 2] as number);
    const ax = (positions[a] as number) - ox,
      ay = (positions[a + 1] as number) - oy,
      az = (positions[a + 2] as number) - oz;
    const bx = (positions[b] as number) - ox,
      by = (positions[b + 1] as number) - oy,
      bz = (positions[b + 2] as number) - oz;
    const cx = (positions[c] as number) - ox,
      cy = (positions[c + 1] as number) - oy,
      cz = (positions[c + 2] as number) - oz;
    sum += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  }
  return sum / 6;
}
