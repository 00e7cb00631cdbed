/**
 * A fixture part as the fine binary STL an independent verifier is given (simcheck.ts): OCCT's
 * mesh of the B-rep at 0.005 mm chordal deflection, half the planner's own (read-part.ts). A
 * coarser mesh's chords cut into holes and read as wall gouges (../shared/tools/README.md).
 */
import fs from "node:fs";
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import type { Box3, Vec3 } from "../../kernel/cam/types.ts";
import { readBrep } from "../../kernel/geometry/brep.ts";
import { withOcctScope } from "../../kernel/geometry/occt-scope.ts";
import { tessellate } from "../../kernel/geometry/tessellate.ts";

export const FINE_STL_DEFLECTION_MM = 0.005;

export interface FineStl {
  triangles: number;
  /** the mesh's bounding box (workpiece coordinates) */
  box: Box3;
}

/** Writes the B-rep's solid to `file` as a binary STL. */
export function writeFineStl(oc: OpenCascadeInstance, brep: Uint8Array, file: string): FineStl {
  const mesh = withOcctScope((scope) => {
    const { solid } = readBrep(oc, brep, scope);
    return tessellate(oc, solid, 0, { linearDeflectionMm: FINE_STL_DEFLECTION_MM }).mesh;
  });
  const count = mesh.indices.length / 3;
  const bytes = Buffer.alloc(84 + 50 * count);
  bytes.write("swarf fine STL for simcheck", 0, "latin1");
  bytes.writeUInt32LE(count, 80);
  for (let t = 0; t < count; t += 1) {
    for (let v = 0; v < 3; v += 1) {
      const index = mesh.indices[3 * t + v] as number;
      for (let axis = 0; axis < 3; axis += 1)
        bytes.writeFloatLE(mesh.positions[3 * index + axis] as number, 84 + 50 * t + 12 + 12 * v + 4 * axis);
    }
  }
  fs.writeFileSync(file, bytes);
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < mesh.positions.length; k += 1) {
    const axis = k % 3;
    min[axis] = Math.min(min[axis] as number, mesh.positions[k] as number);
    max[axis] = Math.max(max[axis] as number, mesh.positions[k] as number);
  }
  return { triangles: count, box: { min, max } };
}
