import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { GeometryError } from "../geometry-error.ts";
import { checkMesh, unitNormals } from "./check.ts";
import { boxMesh } from "./test-meshes.ts";
import type { TriangleMesh } from "./types.ts";

describe("checkMesh", () => {
  it("returns the vertex and triangle counts of a well-formed mesh", () => {
    assert.deepEqual(checkMesh(boxMesh()), { vertexCount: 24, triangleCount: 12 });
  });

  it("calls a mesh without triangles empty_mesh, even when it has vertices", () => {
    const mesh = boxMesh();
    mesh.indices = new Uint32Array();
    assert.throws(
      () => checkMesh(mesh),
      (error: unknown) =>
        error instanceof GeometryError && error.code === "empty_mesh" && error.details.vertexCount === 24,
    );
  });
});

describe("unitNormals", () => {
  it("scales every normal to unit length and leaves the mesh alone", () => {
    const mesh = boxMesh();
    mesh.normals.set([0, 3, 4], 0);
    const normals = unitNormals(mesh);
    assert.deepEqual(Array.from(normals.subarray(0, 3)), [0, Math.fround(0.6), Math.fround(0.8)]);
    assert.deepEqual(Array.from(mesh.normals.subarray(0, 3)), [0, 3, 4]);
  });

  it("gives a zero or NaN normal its triangle's normal, and +Z when only a degenerate triangle uses the vertex", () => {
    const mesh: TriangleMesh = {
      // triangle 0 in the XZ plane, counter-clockwise seen from +Y; triangle 1 degenerate (a line)
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 0, 1, 5, 5, 5, 6, 6, 6, 7, 7, 7]),
      normals: new Float32Array([0, 0, 0, Number.NaN, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]),
      indices: new Uint32Array([0, 2, 1, 3, 4, 5]),
      faceIds: new Uint32Array(6),
    };
    const normals = Array.from(unitNormals(mesh));
    assert.deepEqual(normals.slice(0, 3), [0, 1, 0]);
    assert.deepEqual(normals.slice(3, 6), [0, 1, 0]);
    assert.deepEqual(normals.slice(6, 9), [0, 1, 0], "a good normal is kept");
    assert.deepEqual(normals.slice(9, 12), [0, 0, 1]);
    assert.deepEqual(normals.slice(12, 15), [0, 0, 1]);
    assert.deepEqual(normals.slice(15, 18), [1, 0, 0]);
  });
});
