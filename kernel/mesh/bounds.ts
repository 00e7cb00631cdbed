import type { BoundingBox, TriangleMesh } from "./types.ts";

/**
 * The axis-aligned bounding box of every vertex of the mesh (referenced by a triangle or not:
 * glTF's POSITION min/max cover the whole accessor), in the mesh's units (mm). The values are
 * the float32 coordinates themselves, so they equal what a glTF reader computes. Throws a
 * RangeError for a mesh without vertices, which has no box.
 */
export function meshBounds(mesh: Pick<TriangleMesh, "positions">): BoundingBox {
  const { positions } = mesh;
  if (positions.length < 3) throw new RangeError("a mesh without vertices has no bounding box");
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let maxZ = -Infinity;
  const end = positions.length - (positions.length % 3);
  for (let i = 0; i < end; i += 3) {
    const x = positions[i] as number;
    const y = positions[i + 1] as number;
    const z = positions[i + 2] as number;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  return { min: [minX, minY, minZ], max: [maxX, maxY, maxZ] };
}
