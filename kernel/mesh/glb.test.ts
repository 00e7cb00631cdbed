import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateBytes, type ValidationReport } from "gltf-validator";
import { GeometryError } from "../geometry-error.ts";
import { GLB_NODE_SCALE, MAX_FACE_ID, meshToGlb } from "./glb.ts";
import { boxMesh, gridMesh, stripMesh } from "./test-meshes.ts";
import type { TriangleMesh } from "./types.ts";

interface Accessor {
  bufferView: number;
  byteOffset?: number;
  componentType: number;
  count: number;
  type: string;
  min?: number[];
  max?: number[];
}
interface BufferView {
  buffer: number;
  byteOffset: number;
  byteLength: number;
  byteStride?: number;
  target?: number;
}
interface Gltf {
  asset: { version: string; generator: string; extras: { unit: string } };
  scene: number;
  scenes: { nodes: number[]; name?: string }[];
  nodes: { mesh: number; name?: string; scale?: number[] }[];
  meshes: {
    name?: string;
    primitives: { attributes: Record<string, number>; indices: number; mode?: number }[];
    extras: { faceCount: number };
  }[];
  accessors: Accessor[];
  bufferViews: BufferView[];
  buffers: { byteLength: number; uri?: string }[];
}

const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const UNSIGNED_INT = 5125;

/** Splits a GLB into its JSON and BIN chunks, checking the container as it goes. */
function parseGlb(glb: Uint8Array): { gltf: Gltf; bin: Uint8Array; jsonChunkLength: number } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  assert.equal(view.getUint32(0, true), 0x46546c67, "magic glTF");
  assert.equal(view.getUint32(4, true), 2, "container version");
  assert.equal(view.getUint32(8, true), glb.byteLength, "header length = file length");
  const jsonChunkLength = view.getUint32(12, true);
  assert.equal(view.getUint32(16, true), 0x4e4f534a, "first chunk is JSON");
  const gltf = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonChunkLength))) as Gltf;
  const binStart = 20 + jsonChunkLength;
  const binLength = view.getUint32(binStart, true);
  assert.equal(view.getUint32(binStart + 4, true), 0x004e4942, "second chunk is BIN");
  assert.equal(binStart + 8 + binLength, glb.byteLength, "BIN is the last chunk");
  return { gltf, bin: glb.subarray(binStart + 8, binStart + 8 + binLength), jsonChunkLength };
}

/** Re-packs a GLB after changing its JSON (to show the validator catches what the writer avoids). */
function repackGlb(glb: Uint8Array, change: (gltf: Gltf) => void): Uint8Array {
  const { gltf, bin } = parseGlb(glb);
  change(gltf);
  const text = JSON.stringify(gltf);
  const json = new TextEncoder().encode(text + " ".repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(12 + 8 + json.length + 8 + bin.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, json.length, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.set(json, 20);
  view.setUint32(20 + json.length, bin.length, true);
  view.setUint32(24 + json.length, 0x004e4942, true);
  out.set(bin, 28 + json.length);
  return out;
}

/** The accessor's elements as numbers (tightly packed, little-endian). */
function readAccessor(gltf: Gltf, bin: Uint8Array, index: number): number[] {
  const accessor = gltf.accessors[index];
  assert.ok(accessor, `accessor ${index}`);
  const bufferView = gltf.bufferViews[accessor.bufferView];
  assert.ok(bufferView);
  const components = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 }[accessor.type] ?? 0;
  const view = new DataView(bin.buffer, bin.byteOffset + bufferView.byteOffset + (accessor.byteOffset ?? 0));
  const values: number[] = [];
  for (let i = 0; i < accessor.count * components; i++) {
    if (accessor.componentType === FLOAT) values.push(view.getFloat32(4 * i, true));
    else if (accessor.componentType === UNSIGNED_SHORT) values.push(view.getUint16(2 * i, true));
    else if (accessor.componentType === UNSIGNED_INT) values.push(view.getUint32(4 * i, true));
    else assert.fail(`unexpected componentType ${accessor.componentType}`);
  }
  return values;
}

async function validate(glb: Uint8Array): Promise<ValidationReport> {
  return validateBytes(glb, { format: "glb", writeTimestamp: false, maxIssues: 0 });
}

function issueSummary(report: ValidationReport): string {
  return JSON.stringify(report.issues.messages.map((m) => `${m.severity}:${m.code} ${m.pointer ?? ""} ${m.message}`));
}

/** Asserts the Khronos validator reports nothing at all: no error, warning, information or hint. */
async function assertClean(glb: Uint8Array): Promise<ValidationReport> {
  const report = await validate(glb);
  assert.equal(report.issues.numErrors, 0, issueSummary(report));
  assert.equal(report.issues.numWarnings, 0, issueSummary(report));
  assert.equal(report.issues.numInfos, 0, issueSummary(report));
  assert.equal(report.issues.numHints, 0, issueSummary(report));
  return report;
}

function attribute(gltf: Gltf, name: string): number {
  const index = gltf.meshes[0]?.primitives[0]?.attributes[name];
  assert.equal(typeof index, "number", `attribute ${name}`);
  return index as number;
}

describe("meshToGlb", () => {
  it("writes a box of 6 faces and 24 vertices that the Khronos validator passes without a single issue", async () => {
    const glb = meshToGlb(boxMesh([0, 0, 0], [85, 40, 20]));
    const report = await assertClean(glb);
    assert.equal(report.info?.totalVertexCount, 24);
    assert.equal(report.info?.totalTriangleCount, 12);
    assert.equal(report.info?.generator, "Swarf");
  });

  it("lays out one scene, one node, one mesh with one indexed TRIANGLES primitive, one buffer in the BIN chunk", () => {
    const { gltf, bin } = parseGlb(meshToGlb(boxMesh()));
    assert.equal(gltf.asset.version, "2.0");
    assert.equal(gltf.asset.generator, "Swarf");
    assert.equal(gltf.scene, 0);
    assert.deepEqual(
      gltf.scenes.map((s) => s.nodes),
      [[0]],
    );
    assert.equal(gltf.nodes.length, 1);
    assert.equal(gltf.nodes[0]?.mesh, 0);
    assert.equal(gltf.meshes.length, 1);
    assert.equal(gltf.meshes[0]?.primitives.length, 1);
    const primitive = gltf.meshes[0]?.primitives[0];
    assert.deepEqual(Object.keys(primitive?.attributes ?? {}).sort(), ["NORMAL", "POSITION", "_FACE_ID"]);
    assert.equal(primitive?.mode ?? 4, 4);
    assert.equal(gltf.buffers.length, 1);
    assert.equal(gltf.buffers[0]?.uri, undefined, "the buffer is the GLB BIN chunk");
    assert.equal(gltf.buffers[0]?.byteLength, bin.byteLength);
  });

  it("writes POSITION as FLOAT VEC3 in mm with min and max equal to the bounding box, and scales the node to metres", () => {
    const mesh = boxMesh([-12.5, 3, 0.25], [72.5, 43, 20.25]);
    const { gltf, bin } = parseGlb(meshToGlb(mesh));
    const position = gltf.accessors[attribute(gltf, "POSITION")];
    assert.equal(position?.componentType, FLOAT);
    assert.equal(position?.type, "VEC3");
    assert.deepEqual(position?.min, [-12.5, 3, 0.25]);
    assert.deepEqual(position?.max, [72.5, 43, 20.25]);
    assert.deepEqual(readAccessor(gltf, bin, attribute(gltf, "POSITION")), Array.from(mesh.positions));
    assert.deepEqual(gltf.nodes[0]?.scale, [GLB_NODE_SCALE, GLB_NODE_SCALE, GLB_NODE_SCALE]);
    assert.equal(GLB_NODE_SCALE, 0.001);
    assert.equal(gltf.asset.extras.unit, "mm");
    // an 85 mm part is 0.085 m wide once the node's scale is applied
    const width = ((position?.max?.[0] ?? 0) - (position?.min?.[0] ?? 0)) * (gltf.nodes[0]?.scale?.[0] ?? 1);
    assert.ok(Math.abs(width - 0.085) < 1e-12, `width ${width} m`);
  });

  it("keeps every vertex's B-rep face id in a FLOAT SCALAR _FACE_ID attribute and writes extras.faceCount", () => {
    const mesh = boxMesh();
    const { gltf, bin } = parseGlb(meshToGlb(mesh));
    const faceId = gltf.accessors[attribute(gltf, "_FACE_ID")];
    assert.equal(faceId?.componentType, FLOAT);
    assert.equal(faceId?.type, "SCALAR");
    assert.equal(faceId?.count, 24);
    assert.deepEqual(readAccessor(gltf, bin, attribute(gltf, "_FACE_ID")), Array.from(mesh.faceIds));
    assert.deepEqual(Array.from(new Set(mesh.faceIds)), [0, 1, 2, 3, 4, 5]);
    assert.equal(gltf.meshes[0]?.extras.faceCount, 6);
    // a viewer picking triangle t reads the id of its first vertex
    const indices = readAccessor(gltf, bin, gltf.meshes[0]?.primitives[0]?.indices ?? -1);
    const ids = readAccessor(gltf, bin, attribute(gltf, "_FACE_ID"));
    for (let t = 0; t < 12; t++) assert.equal(ids[indices[3 * t] ?? -1], Math.floor(t / 2), `triangle ${t}`);
  });

  it("writes NORMAL as FLOAT VEC3, renormalized so the validator accepts scaled and zero normals", async () => {
    const mesh = boxMesh();
    for (let i = 0; i < mesh.normals.length; i++) mesh.normals[i] = (mesh.normals[i] as number) * 2.5;
    mesh.normals.fill(0, 0, 3); // vertex 0 (face -X) has no normal
    const glb = meshToGlb(mesh);
    await assertClean(glb);
    const { gltf, bin } = parseGlb(glb);
    const normal = gltf.accessors[attribute(gltf, "NORMAL")];
    assert.equal(normal?.componentType, FLOAT);
    assert.equal(normal?.type, "VEC3");
    const normals = readAccessor(gltf, bin, attribute(gltf, "NORMAL"));
    assert.deepEqual(normals.slice(0, 3), [-1, 0, 0], "the zero normal takes its triangle's normal");
    assert.deepEqual(normals.slice(3, 6), [-1, 0, 0]);
    assert.equal(mesh.normals[0], 0, "the input is not changed");
  });

  it("uses UNSIGNED_SHORT indices up to 65,535 vertices and UNSIGNED_INT from 65,536, never the restart value", async () => {
    for (const [vertexCount, componentType] of [
      [65535, UNSIGNED_SHORT],
      [65536, UNSIGNED_INT],
    ] as const) {
      const mesh = stripMesh(vertexCount);
      const glb = meshToGlb(mesh);
      await assertClean(glb);
      const { gltf, bin } = parseGlb(glb);
      const indicesAccessor = gltf.meshes[0]?.primitives[0]?.indices ?? -1;
      assert.equal(gltf.accessors[indicesAccessor]?.componentType, componentType, `${vertexCount} vertices`);
      const indices = readAccessor(gltf, bin, indicesAccessor);
      assert.deepEqual(indices, Array.from(mesh.indices));
      assert.equal(
        indices.reduce((a, b) => Math.max(a, b), 0),
        vertexCount - 1,
      );
    }
  });

  it("writes a mesh of 66,049 vertices with 32-bit indices that the validator passes", async () => {
    const mesh = gridMesh(256, 100, 16);
    assert.equal(mesh.positions.length / 3, 66049);
    const glb = meshToGlb(mesh);
    const report = await assertClean(glb);
    assert.equal(report.info?.totalVertexCount, 66049);
    assert.equal(report.info?.totalTriangleCount, 131072);
    const { gltf, bin } = parseGlb(glb);
    const indicesAccessor = gltf.meshes[0]?.primitives[0]?.indices ?? -1;
    assert.equal(gltf.accessors[indicesAccessor]?.componentType, UNSIGNED_INT);
    assert.deepEqual(readAccessor(gltf, bin, indicesAccessor), Array.from(mesh.indices));
    assert.deepEqual(readAccessor(gltf, bin, attribute(gltf, "_FACE_ID")), Array.from(mesh.faceIds));
    assert.equal(gltf.meshes[0]?.extras.faceCount, 16);
  });

  it("starts every buffer view on a 4-byte boundary and pads both chunks to 4 bytes, with an odd count of 16-bit indices", async () => {
    const mesh = stripMesh(3); // one triangle: 6 bytes of indices
    const glb = meshToGlb(mesh, { name: "x" }); // short name: the JSON length is not a multiple of 4 unpadded
    await assertClean(glb);
    const { gltf, bin, jsonChunkLength } = parseGlb(glb);
    assert.equal(jsonChunkLength % 4, 0);
    assert.equal(bin.byteLength % 4, 0);
    for (const view of gltf.bufferViews) {
      assert.equal(view.byteOffset % 4, 0, JSON.stringify(view));
      assert.equal(view.byteStride, undefined, "one accessor per view, tightly packed");
    }
    const indicesView =
      gltf.bufferViews[gltf.accessors[gltf.meshes[0]?.primitives[0]?.indices ?? -1]?.bufferView ?? -1];
    assert.equal(indicesView?.byteLength, 6);
  });

  it("names the scene, node and mesh after options.name, 'workpiece' by default", () => {
    const named = parseGlb(meshToGlb(boxMesh(), { name: "bracket-rev-B" })).gltf;
    assert.equal(named.nodes[0]?.name, "bracket-rev-B");
    assert.equal(named.meshes[0]?.name, "bracket-rev-B");
    assert.equal(named.scenes[0]?.name, "bracket-rev-B");
    assert.equal(parseGlb(meshToGlb(boxMesh())).gltf.nodes[0]?.name, "workpiece");
  });

  it("writes the faceCount it is given (0 for an STL whose ids are all 0) and refuses one that a face id exceeds", async () => {
    const stl = boxMesh([0, 0, 0], [1, 1, 1], 0);
    const glb = meshToGlb(stl, { faceCount: 0 });
    await assertClean(glb);
    assert.equal(parseGlb(glb).gltf.meshes[0]?.extras.faceCount, 0);
    assert.equal(parseGlb(meshToGlb(stl)).gltf.meshes[0]?.extras.faceCount, 1);
    assert.equal(parseGlb(meshToGlb(boxMesh(), { faceCount: 9 })).gltf.meshes[0]?.extras.faceCount, 9);
    assert.throws(() => meshToGlb(boxMesh(), { faceCount: 5 }), RangeError);
    assert.throws(() => meshToGlb(boxMesh(), { faceCount: 0 }), RangeError);
    assert.throws(() => meshToGlb(boxMesh(), { faceCount: 6.5 }), RangeError);
  });

  it("stores face ids up to 2^24 exactly and refuses larger ones a float would round", () => {
    const mesh = boxMesh();
    mesh.faceIds.fill(MAX_FACE_ID - 1, 0, 4);
    mesh.faceIds.fill(MAX_FACE_ID, 4, 8);
    const { gltf, bin } = parseGlb(meshToGlb(mesh));
    const ids = readAccessor(gltf, bin, attribute(gltf, "_FACE_ID"));
    assert.deepEqual(ids.slice(0, 8), [...Array(4).fill(MAX_FACE_ID - 1), ...Array(4).fill(MAX_FACE_ID)]);
    mesh.faceIds[0] = MAX_FACE_ID + 1;
    assert.throws(() => meshToGlb(mesh), RangeError);
  });

  it("refuses a mesh without triangles with GeometryError empty_mesh", () => {
    const empty: TriangleMesh = {
      positions: new Float32Array(),
      normals: new Float32Array(),
      indices: new Uint32Array(),
      faceIds: new Uint32Array(),
    };
    assert.throws(
      () => meshToGlb(empty),
      (error: unknown) => error instanceof GeometryError && error.code === "empty_mesh",
    );
    const pointsOnly = boxMesh();
    pointsOnly.indices = new Uint32Array();
    assert.throws(
      () => meshToGlb(pointsOnly),
      (error: unknown) => error instanceof GeometryError && error.code === "empty_mesh",
    );
  });

  it("refuses a malformed mesh: lengths that disagree, an index past the last vertex, a NaN coordinate", () => {
    const cases: [string, (mesh: TriangleMesh) => void, new (...args: never[]) => Error][] = [
      ["positions not in threes", (m) => (m.positions = m.positions.subarray(1)), TypeError],
      ["one normal short", (m) => (m.normals = m.normals.subarray(3)), TypeError],
      ["one face id short", (m) => (m.faceIds = m.faceIds.subarray(1)), TypeError],
      ["indices not in threes", (m) => (m.indices = m.indices.subarray(1)), TypeError],
      ["index 24 of 24 vertices", (m) => (m.indices[5] = 24), RangeError],
      ["NaN coordinate", (m) => (m.positions[7] = Number.NaN), RangeError],
      ["infinite coordinate", (m) => (m.positions[8] = Number.POSITIVE_INFINITY), RangeError],
    ];
    for (const [label, breakIt, type] of cases) {
      const mesh = boxMesh();
      breakIt(mesh);
      assert.throws(() => meshToGlb(mesh), type, label);
    }
  });

  it("has a validator in the tests that does catch what the writer avoids: a wrong POSITION min, an UNSIGNED_INT _FACE_ID", async () => {
    const glb = meshToGlb(boxMesh());
    const wrongMin = await validate(repackGlb(glb, (gltf) => ((gltf.accessors[0] as Accessor).min = [-1, 0, 0])));
    assert.ok(
      wrongMin.issues.messages.some((m) => m.code === "ACCESSOR_MIN_MISMATCH" && m.severity === 0),
      issueSummary(wrongMin),
    );
    const unsignedInt = await validate(
      repackGlb(glb, (gltf) => ((gltf.accessors[2] as Accessor).componentType = UNSIGNED_INT)),
    );
    assert.ok(
      unsignedInt.issues.messages.some(
        (m) => m.code === "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT" && m.severity === 0,
      ),
      issueSummary(unsignedInt),
    );
  });
});
