/**
 * TriangleMesh to binary glTF 2.0 (.glb), the file the workpiece upload hands a viewer.
 * docs/mesh-formats.md describes the layout for clients; in short:
 *
 * - one buffer (the GLB BIN chunk) with four buffer views, each starting on a 4-byte boundary:
 *   POSITION, NORMAL, _FACE_ID (vertex data, target ARRAY_BUFFER), then the indices
 *   (ELEMENT_ARRAY_BUFFER); one accessor per view, so no byteStride;
 * - POSITION: FLOAT VEC3 in millimetres, exactly the kernel's float32 values, with min and max;
 * - NORMAL: FLOAT VEC3, renormalized to unit length (see unitNormals);
 * - _FACE_ID: FLOAT SCALAR, the B-rep face index per vertex. glTF 2.0 (3.7.2.1) forbids
 *   UNSIGNED_INT for application-specific attributes, and an UNSIGNED_SHORT scalar would need a
 *   4-byte stride (vertex attribute elements must be 4-byte aligned), so it would save nothing;
 *   a float holds every integer up to 2^24 exactly, far more faces than a part has;
 * - indices: UNSIGNED_SHORT when every index fits below 65535 (65535 itself is the primitive
 *   restart value, which glTF forbids), UNSIGNED_INT otherwise;
 * - units: glTF's unit is the metre, so the one node carries scale 0.001; the accessors stay in
 *   millimetres (a viewer shows an 85 mm part as 0.085 m, a client reading the accessors gets
 *   the kernel's numbers), and asset.extras.unit says "mm".
 */
import os from "node:os";
import { meshBounds } from "./bounds.ts";
import { checkMesh, unitNormals } from "./check.ts";
import type { TriangleMesh } from "./types.ts";

export interface GlbOptions {
  /** names the scene, node and mesh; default "workpiece" */
  name?: string;
  /**
   * the number of B-rep faces, written as meshes[0].extras.faceCount. Default: the largest face
   * id + 1. Every face id must be below it, except that 0 is accepted for a mesh whose ids are
   * all 0 (STL: no B-rep faces).
   */
  faceCount?: number;
}

/** The largest face id a FLOAT _FACE_ID attribute stores exactly. */
export const MAX_FACE_ID = 2 ** 24;

/** Node scale from the accessors' millimetres to glTF's metres. */
export const GLB_NODE_SCALE = 0.001;

/** The container's and glTF's numbers, which glb-read.ts reads back. */
export const GLB = {
  magic: 0x46546c67, // "glTF"
  chunkJson: 0x4e4f534a, // "JSON"
  chunkBin: 0x004e4942, // "BIN\0"
  float: 5126,
  unsignedShort: 5123,
  unsignedInt: 5125,
  triangles: 4,
} as const;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;
const LITTLE_ENDIAN = os.endianness() === "LE";

/** The first vertex count that needs 32-bit indices (index 65535 is the restart value). */
export const MAX_SHORT_INDEXED_VERTICES = 65535;

/** Writes the mesh as a glTF 2.0 binary. Throws GeometryError("empty_mesh") for a mesh without triangles. */
export function meshToGlb(mesh: TriangleMesh, options: GlbOptions = {}): Uint8Array {
  const { vertexCount, triangleCount } = checkMesh(mesh);
  const name = options.name ?? "workpiece";

  const faceIds = new Float32Array(vertexCount);
  let minFaceId = Infinity;
  let maxFaceId = -Infinity;
  for (let v = 0; v < vertexCount; v++) {
    const id = mesh.faceIds[v] as number;
    if (id > MAX_FACE_ID)
      throw new RangeError(`face id ${id} at vertex ${v} is above ${MAX_FACE_ID}, the largest a float stores exactly`);
    faceIds[v] = id;
    if (id < minFaceId) minFaceId = id;
    if (id > maxFaceId) maxFaceId = id;
  }
  const faceCount = options.faceCount ?? maxFaceId + 1;
  if (!Number.isInteger(faceCount) || faceCount < 0)
    throw new RangeError(`faceCount must be a whole number ≥ 0, got ${faceCount}`);
  if (maxFaceId >= Math.max(faceCount, 1))
    throw new RangeError(`face id ${maxFaceId} is not below faceCount ${faceCount}`);

  const normals = unitNormals(mesh);
  const shortIndices = vertexCount <= MAX_SHORT_INDEXED_VERTICES;
  const indices = shortIndices ? Uint16Array.from(mesh.indices) : mesh.indices;
  const bounds = meshBounds(mesh);

  // Buffer views, in order, each padded to 4 bytes.
  const parts: { data: Float32Array | Uint16Array | Uint32Array; target: number }[] = [
    { data: mesh.positions, target: ARRAY_BUFFER },
    { data: normals, target: ARRAY_BUFFER },
    { data: faceIds, target: ARRAY_BUFFER },
    { data: indices, target: ELEMENT_ARRAY_BUFFER },
  ];
  const bufferViews: Record<string, number>[] = [];
  let binLength = 0;
  for (const part of parts) {
    bufferViews.push({ buffer: 0, byteOffset: binLength, byteLength: part.data.byteLength, target: part.target });
    binLength += pad4(part.data.byteLength);
  }

  const gltf = {
    asset: {
      version: "2.0",
      generator: "Swarf",
      extras: { unit: "mm", nodeScale: GLB_NODE_SCALE, faceIdAttribute: "_FACE_ID" },
    },
    scene: 0,
    scenes: [{ name, nodes: [0] }],
    nodes: [{ name, mesh: 0, scale: [GLB_NODE_SCALE, GLB_NODE_SCALE, GLB_NODE_SCALE] }],
    meshes: [
      {
        name,
        primitives: [
          {
            attributes: { POSITION: 0, NORMAL: 1, _FACE_ID: 2 },
            indices: 3,
            material: 0,
            mode: GLB.triangles,
          },
        ],
        extras: { faceCount, vertexCount, triangleCount },
      },
    ],
    materials: [
      {
        name: "swarf-metal",
        pbrMetallicRoughness: { baseColorFactor: [0.62, 0.64, 0.67, 1], metallicFactor: 0.3, roughnessFactor: 0.55 },
      },
    ],
    accessors: [
      { bufferView: 0, componentType: GLB.float, count: vertexCount, type: "VEC3", min: bounds.min, max: bounds.max },
      { bufferView: 1, componentType: GLB.float, count: vertexCount, type: "VEC3" },
      {
        bufferView: 2,
        componentType: GLB.float,
        count: vertexCount,
        type: "SCALAR",
        min: [minFaceId],
        max: [maxFaceId],
      },
      {
        bufferView: 3,
        componentType: shortIndices ? GLB.unsignedShort : GLB.unsignedInt,
        count: indices.length,
        type: "SCALAR",
      },
    ],
    bufferViews,
    buffers: [{ byteLength: binLength }],
  };

  const json = new TextEncoder().encode(JSON.stringify(gltf));
  const jsonLength = pad4(json.byteLength);
  const total = 12 + 8 + jsonLength + 8 + binLength;
  if (total > 0xffffffff) throw new RangeError(`the GLB would be ${total} bytes, over the format's 4 GiB limit`);

  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, GLB.magic, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, GLB.chunkJson, true);
  out.set(json, 20);
  out.fill(0x20, 20 + json.byteLength, 20 + jsonLength); // JSON chunk padding: spaces
  const binStart = 20 + jsonLength;
  view.setUint32(binStart, binLength, true);
  view.setUint32(binStart + 4, GLB.chunkBin, true);
  for (const [i, part] of parts.entries()) {
    writeLittleEndian(out, view, binStart + 8 + (bufferViews[i]?.byteOffset ?? 0), part.data); // padding stays 0
  }
  return out;
}

function pad4(n: number): number {
  return Math.ceil(n / 4) * 4;
}

function writeLittleEndian(
  out: Uint8Array,
  view: DataView,
  offset: number,
  data: Float32Array | Uint16Array | Uint32Array,
): void {
  if (LITTLE_ENDIAN) {
    out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), offset);
    return;
  }
  const size = data.BYTES_PER_ELEMENT;
  for (let i = 0; i < data.length; i++) {
    const value = data[i] as number;
    if (data instanceof Float32Array) view.setFloat32(offset + i * size, value, true);
    else if (data instanceof Uint16Array) view.setUint16(offset + i * size, value, true);
    else view.setUint32(offset + i * size, value, true);
  }
}
