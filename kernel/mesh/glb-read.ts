/**
 * The triangles of a binary glTF as glb.ts writes it (one mesh, one indexed TRIANGLES primitive,
 * POSITION float VEC3 in millimetres, indices unsigned short or int): what the setup sheet's
 * picture draws from the mesh a workpiece keeps. Normals and face ids are not read; the picture
 * shades flat from the triangles themselves.
 *
 * The file is our own, read back from storage: anything else it holds is a fault of the store,
 * not of a client, so a file this cannot read throws a plain Error naming what is wrong.
 */
import type { TriangleSoup } from "../cam/types.ts";
import { GLB } from "./glb.ts";

interface Accessor {
  bufferView?: number;
  byteOffset?: number;
  componentType: number;
  count: number;
  type: string;
}

interface BufferView {
  byteOffset?: number;
  byteLength: number;
  byteStride?: number;
}

interface Gltf {
  meshes?: { primitives?: { attributes?: Record<string, number>; indices?: number; mode?: number }[] }[];
  accessors?: Accessor[];
  bufferViews?: BufferView[];
}

/** The positions (mm, as stored) and triangle indices of the GLB's first primitive. */
export function readGlbTriangles(glb: Uint8Array): TriangleSoup {
  const { gltf, bin } = glbChunks(glb);
  const primitive = gltf.meshes?.[0]?.primitives?.[0];
  if (primitive === undefined) throw new Error("the GLB has no mesh primitive");
  if ((primitive.mode ?? GLB.triangles) !== GLB.triangles) throw new Error("the GLB's primitive is not triangles");
  const positionIndex = primitive.attributes?.POSITION;
  if (positionIndex === undefined || primitive.indices === undefined)
    throw new Error("the GLB's primitive has no POSITION or no indices");
  const positionAccessor = accessor(gltf, positionIndex, "VEC3", [GLB.float]);
  const indexAccessor = accessor(gltf, primitive.indices, "SCALAR", [GLB.unsignedShort, GLB.unsignedInt]);
  const positions = new Float32Array(positionAccessor.count * 3);
  const positionView = view(gltf, bin, positionAccessor, 12);
  for (let i = 0; i < positions.length; i += 1) positions[i] = positionView.getFloat32(i * 4, true);
  const short = indexAccessor.componentType === GLB.unsignedShort;
  const indexView = view(gltf, bin, indexAccessor, short ? 2 : 4);
  const indices = new Uint32Array(indexAccessor.count);
  for (let i = 0; i < indices.length; i += 1) {
    const index = short ? indexView.getUint16(i * 2, true) : indexView.getUint32(i * 4, true);
    if (index >= positionAccessor.count) throw new Error(`the GLB's index ${index} is past its vertices`);
    indices[i] = index;
  }
  if (indices.length % 3 !== 0) throw new Error("the GLB's indices are not whole triangles");
  return { positions, indices };
}

function glbChunks(glb: Uint8Array): { gltf: Gltf; bin: Uint8Array } {
  if (glb.byteLength < 28) throw new Error("the GLB is shorter than its header");
  const data = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  if (data.getUint32(0, true) !== GLB.magic) throw new Error("not a GLB: its magic is not glTF");
  const jsonLength = data.getUint32(12, true);
  if (data.getUint32(16, true) !== GLB.chunkJson || 20 + jsonLength + 8 > glb.byteLength)
    throw new Error("the GLB's first chunk is not its JSON");
  const gltf = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as Gltf;
  const binStart = 20 + jsonLength;
  const binLength = data.getUint32(binStart, true);
  if (data.getUint32(binStart + 4, true) !== GLB.chunkBin || binStart + 8 + binLength > glb.byteLength)
    throw new Error("the GLB's second chunk is not its BIN");
  return { gltf, bin: glb.subarray(binStart + 8, binStart + 8 + binLength) };
}

function accessor(gltf: Gltf, index: number, type: string, componentTypes: number[]): Accessor {
  const found = gltf.accessors?.[index];
  if (found === undefined || found.type !== type || !componentTypes.includes(found.componentType))
    throw new Error(`the GLB's accessor ${index} is not a ${type} of the expected component type`);
  return found;
}

/** The accessor's bytes, tightly packed (glb.ts writes no stride), checked to lie in the BIN chunk. */
function view(gltf: Gltf, bin: Uint8Array, found: Accessor, elementBytes: number): DataView {
  const bufferView = found.bufferView === undefined ? undefined : gltf.bufferViews?.[found.bufferView];
  if (bufferView === undefined) throw new Error("the GLB's accessor has no buffer view");
  if (bufferView.byteStride !== undefined && bufferView.byteStride !== elementBytes)
    throw new Error("the GLB's buffer view is interleaved");
  const start = (bufferView.byteOffset ?? 0) + (found.byteOffset ?? 0);
  const length = found.count * elementBytes;
  if (start + length > bin.byteLength || length > bufferView.byteLength)
    throw new Error("the GLB's accessor runs past its buffer");
  return new DataView(bin.buffer, bin.byteOffset + start, length);
}
