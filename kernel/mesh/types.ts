/**
 * A triangle mesh as the kernel hands it on: to the glTF writer, the thumbnail renderer and,
 * later, the planner. Vertices are not shared between B-rep faces, so every vertex belongs to
 * exactly one face and `faceIds` can name it (a viewer picks a face by the id under the cursor).
 * Coordinates are millimetres.
 */
export interface TriangleMesh {
  /** x, y, z per vertex */
  positions: Float32Array;
  /** unit normal per vertex (x, y, z) */
  normals: Float32Array;
  /** three vertex indices per triangle, counter-clockwise seen from outside */
  indices: Uint32Array;
  /** per vertex: the 0-based index of its B-rep face (STL: 0 for every vertex) */
  faceIds: Uint32Array;
}

export interface BoundingBox {
  min: [number, number, number];
  max: [number, number, number];
}
