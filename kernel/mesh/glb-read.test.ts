import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { meshToGlb } from "./glb.ts";
import { readGlbTriangles } from "./glb-read.ts";
import { boxMesh, stripMesh } from "./test-meshes.ts";

describe("reading a GLB's triangles back", () => {
  it("gives the positions and indices the writer was given, with 16-bit indices", () => {
    const mesh = boxMesh([0, 0, 0], [85, 40, 20]);
    const soup = readGlbTriangles(meshToGlb(mesh));
    assert.deepEqual(soup.positions, mesh.positions);
    assert.deepEqual(soup.indices, mesh.indices);
  });

  it("reads 32-bit indices of a mesh past 65,535 vertices", () => {
    const mesh = stripMesh(70_000);
    const soup = readGlbTriangles(meshToGlb(mesh));
    assert.equal(soup.positions.length, mesh.positions.length);
    assert.deepEqual(soup.indices, mesh.indices);
  });

  it("refuses bytes that are not a GLB, and a GLB cut short", () => {
    assert.throws(() => readGlbTriangles(new TextEncoder().encode("solid part\nendsolid part\n")), /GLB/);
    const glb = meshToGlb(boxMesh());
    assert.throws(() => readGlbTriangles(glb.subarray(0, glb.length - 40)), /GLB/);
  });
});
