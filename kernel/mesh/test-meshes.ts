/** Meshes built in code for the mesh tests (and the render-time measurement); not used in production. */
import type { Vec3 } from "../math/vec3.ts";
import type { TriangleMesh } from "./types.ts";

/** The six faces of an axis-aligned box, in face-id order: -X, +X, -Y, +Y, -Z, +Z. */
export const BOX_FACES: { normal: Vec3; name: string }[] = [
  { normal: [-1, 0, 0], name: "-X" },
  { normal: [1, 0, 0], name: "+X" },
  { normal: [0, -1, 0], name: "-Y" },
  { normal: [0, 1, 0], name: "+Y" },
  { normal: [0, 0, -1], name: "-Z" },
  { normal: [0, 0, 1], name: "+Z" },
];

/**
 * An axis-aligned box from `min` to `max` as a B-rep tessellation would give it: 6 faces, 4
 * vertices per face (24, not shared), 2 triangles per face, counter-clockwise seen from outside,
 * face ids 0..5 in BOX_FACES order (or all `singleFaceId` when given, like an STL).
 */
export function boxMesh(min: Vec3 = [0, 0, 0], max: Vec3 = [1, 1, 1], singleFaceId?: number): TriangleMesh {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const faceIds: number[] = [];
  BOX_FACES.forEach(({ normal }, face) => {
    const axis = normal.findIndex((c) => c !== 0);
    const sign = normal[axis] as number;
    // two in-face axes (u, v) with u × v = normal, so the quad u0v0, u1v0, u1v1, u0v1 is CCW
    const u = (axis + 1) % 3;
    const v = (axis + 2) % 3;
    const corner = (a: number, b: number): Vec3 => {
      const p: Vec3 = [0, 0, 0];
      const at = (i: number, high: boolean | number): number => (high ? max[i] : min[i]) as number;
      p[axis] = at(axis, sign > 0);
      const [lu, lv] = sign > 0 ? [a, b] : [b, a]; // swap in-face axes on the negative side to keep CCW
      p[u] = at(u, lu);
      p[v] = at(v, lv);
      return p;
    };
    const base = positions.length / 3;
    for (const [a, b] of [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ] as const) {
      positions.push(...corner(a, b));
      normals.push(...normal);
      faceIds.push(singleFaceId ?? face);
    }
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  });
  return {
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    indices: new Uint32Array(indices),
    faceIds: new Uint32Array(faceIds),
  };
}

/**
 * A flat square grid in the XY plane (normal +Z) with `cells` × `cells` quads, so
 * (cells + 1)² vertices and 2·cells² triangles; face id = the row of cells divided by
 * `rowsPerFace`.
 */
export function gridMesh(cells: number, size = 100, rowsPerFace = 1): TriangleMesh {
  const side = cells + 1;
  const positions = new Float32Array(side * side * 3);
  const normals = new Float32Array(side * side * 3);
  const faceIds = new Uint32Array(side * side);
  for (let j = 0; j < side; j++) {
    for (let i = 0; i < side; i++) {
      const v = j * side + i;
      positions[3 * v] = (i / cells) * size;
      positions[3 * v + 1] = (j / cells) * size;
      normals[3 * v + 2] = 1;
      faceIds[v] = Math.floor(Math.min(j, cells - 1) / rowsPerFace);
    }
  }
  const indices = new Uint32Array(cells * cells * 6);
  let k = 0;
  for (let j = 0; j < cells; j++) {
    for (let i = 0; i < cells; i++) {
      const a = j * side + i;
      indices.set([a, a + 1, a + side + 1, a, a + side + 1, a + side], k);
      k += 6;
    }
  }
  return { positions, normals, indices, faceIds };
}

/**
 * A UV sphere of `radius` around `center` with `segments` meridians and `rings` parallels:
 * 2·segments·(rings − 1) triangles (the pole caps are fans), smooth normals, face id = the
 * octant of the vertex (0..7), as if the sphere were cut into eight B-rep faces. Vertices are
 * shared within a face only in spirit: every vertex belongs to one octant by its position.
 */
export function sphereMesh(segments: number, rings: number, radius = 50, center: Vec3 = [0, 0, 0]): TriangleMesh {
  const vertexCount = (rings + 1) * (segments + 1);
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const faceIds = new Uint32Array(vertexCount);
  for (let r = 0; r <= rings; r++) {
    const theta = (r / rings) * Math.PI; // from +Z down to -Z
    for (let s = 0; s <= segments; s++) {
      const phi = (s / segments) * 2 * Math.PI;
      const v = r * (segments + 1) + s;
      const nx = Math.sin(theta) * Math.cos(phi);
      const ny = Math.sin(theta) * Math.sin(phi);
      const nz = Math.cos(theta);
      normals.set([nx, ny, nz], 3 * v);
      positions.set([center[0] + radius * nx, center[1] + radius * ny, center[2] + radius * nz], 3 * v);
      faceIds[v] = (nx >= 0 ? 1 : 0) + (ny >= 0 ? 2 : 0) + (nz >= 0 ? 4 : 0);
    }
  }
  const indices: number[] = [];
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s;
      const b = a + segments + 1;
      // seen from outside: a (upper), b (lower), b+1, a+1 runs counter-clockwise
      if (r !== 0) indices.push(a, b, a + 1);
      if (r !== rings - 1) indices.push(a + 1, b, b + 1);
    }
  }
  return { positions, normals, indices: new Uint32Array(indices), faceIds };
}

/**
 * A flat triangle strip in the XY plane using exactly `vertexCount` vertices (≥ 3): vertex k at
 * (⌊k/2⌋, k mod 2, 0), triangles (k, k+1, k+2) with alternate ones flipped so all face +Z, and
 * the last triangle uses the last vertex. Face id = ⌊k / verticesPerFace⌋.
 */
export function stripMesh(vertexCount: number, verticesPerFace = vertexCount): TriangleMesh {
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const faceIds = new Uint32Array(vertexCount);
  for (let k = 0; k < vertexCount; k++) {
    positions[3 * k] = Math.floor(k / 2);
    positions[3 * k + 1] = k % 2;
    normals[3 * k + 2] = 1;
    faceIds[k] = Math.floor(k / verticesPerFace);
  }
  const indices = new Uint32Array((vertexCount - 2) * 3);
  for (let k = 0; k < vertexCount - 2; k++) {
    if (k % 2 === 0) indices.set([k, k + 2, k + 1], 3 * k);
    else indices.set([k, k + 1, k + 2], 3 * k);
  }
  return { positions, normals, indices, faceIds };
}
