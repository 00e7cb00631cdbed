/**
 * Shape checks shared by the glTF writer and the thumbnail renderer, and the unit normals both
 * use. A mesh that breaks the TriangleMesh contract (array lengths that disagree, an index past
 * the last vertex, a coordinate that is NaN or infinite) is a bug in whoever built it: TypeError
 * or RangeError. A mesh that is well formed but has no triangle is a GeometryError
 * (`empty_mesh`): neither a glTF primitive nor a picture can be made of it, and an upload whose
 * file tessellates to nothing is something the user can act on.
 */
import { GeometryError } from "../geometry-error.ts";
import type { TriangleMesh } from "./types.ts";

export interface MeshCounts {
  vertexCount: number;
  triangleCount: number;
}

/** Checks the TriangleMesh contract; returns the counts. Throws as described above. */
export function checkMesh(mesh: TriangleMesh): MeshCounts {
  const { positions, normals, indices, faceIds } = mesh;
  if (positions.length % 3 !== 0) {
    throw new TypeError(`mesh.positions has ${positions.length} numbers, not a multiple of 3`);
  }
  const vertexCount = positions.length / 3;
  if (normals.length !== positions.length) {
    throw new TypeError(
      `mesh.normals has ${normals.length} numbers for ${vertexCount} vertices (expected ${positions.length})`,
    );
  }
  if (faceIds.length !== vertexCount) {
    throw new TypeError(`mesh.faceIds has ${faceIds.length} entries for ${vertexCount} vertices`);
  }
  if (indices.length % 3 !== 0) {
    throw new TypeError(`mesh.indices has ${indices.length} entries, not a multiple of 3`);
  }
  const triangleCount = indices.length / 3;
  if (triangleCount === 0) {
    throw new GeometryError("empty_mesh", "The part has no triangles: nothing to show or export.", { vertexCount });
  }
  for (let i = 0; i < indices.length; i++) {
    const index = indices[i] as number;
    if (index >= vertexCount) {
      throw new RangeError(`mesh.indices[${i}] = ${index} but the mesh has ${vertexCount} vertices`);
    }
  }
  for (let i = 0; i < positions.length; i++) {
    if (!Number.isFinite(positions[i])) {
      throw new RangeError(`mesh.positions[${i}] is ${positions[i]}`);
    }
  }
  return { vertexCount, triangleCount };
}

/**
 * The mesh's normals scaled to unit length (float32, as glTF stores them). A normal that is zero,
 * NaN or infinite is replaced by the normal of the first non-degenerate triangle that uses the
 * vertex, or +Z when there is none (a vertex only degenerate triangles use). The input is not
 * changed. Expects a mesh that passed checkMesh.
 */
export function unitNormals(mesh: TriangleMesh): Float32Array {
  const { normals, positions, indices } = mesh;
  const out = new Float32Array(normals.length);
  const broken: number[] = [];
  for (let v = 0; v < normals.length; v += 3) {
    const x = normals[v] as number;
    const y = normals[v + 1] as number;
    const z = normals[v + 2] as number;
    const length = Math.sqrt(x * x + y * y + z * z);
    if (length > 1e-12 && Number.isFinite(length)) {
      out[v] = x / length;
      out[v + 1] = y / length;
      out[v + 2] = z / length;
    } else {
      broken.push(v / 3);
    }
  }
  if (broken.length === 0) return out;

  const pending = new Set(broken);
  for (let t = 0; t < indices.length && pending.size > 0; t += 3) {
    const a = indices[t] as number;
    const b = indices[t + 1] as number;
    const c = indices[t + 2] as number;
    if (!pending.has(a) && !pending.has(b) && !pending.has(c)) continue;
    const normal = triangleNormal(positions, a, b, c);
    if (normal === null) continue;
    for (const v of [a, b, c]) {
      if (!pending.delete(v)) continue;
      out[3 * v] = normal[0];
      out[3 * v + 1] = normal[1];
      out[3 * v + 2] = normal[2];
    }
  }
  for (const v of pending) {
    out[3 * v] = 0;
    out[3 * v + 1] = 0;
    out[3 * v + 2] = 1;
  }
  return out;
}

function triangleNormal(positions: Float32Array, a: number, b: number, c: number): [number, number, number] | null {
  const ax = positions[3 * a] as number;
  const ay = positions[3 * a + 1] as number;
  const az = positions[3 * a + 2] as number;
  const ux = (positions[3 * b] as number) - ax;
  const uy = (positions[3 * b + 1] as number) - ay;
  const uz = (positions[3 * b + 2] as number) - az;
  const vx = (positions[3 * c] as number) - ax;
  const vy = (positions[3 * c + 1] as number) - ay;
  const vz = (positions[3 * c + 2] as number) - az;
  const nx = uy * vz - uz * vy;
  const ny = uz * vx - ux * vz;
  const nz = ux * vy - uy * vx;
  const length = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(length > 0)) return null;
  return [nx / length, ny / length, nz / length];
}
