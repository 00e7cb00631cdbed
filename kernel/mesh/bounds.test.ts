import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { meshBounds } from "./bounds.ts";
import { boxMesh, gridMesh } from "./test-meshes.ts";

describe("meshBounds", () => {
  it("gives the smallest and largest coordinate on each axis", () => {
    assert.deepEqual(meshBounds(boxMesh([-12.5, 3, 0.25], [72.5, 43, 20.25])), {
      min: [-12.5, 3, 0.25],
      max: [72.5, 43, 20.25],
    });
    assert.deepEqual(meshBounds(gridMesh(10, 37.5)), { min: [0, 0, 0], max: [37.5, 37.5, 0] });
  });

  it("counts vertices no triangle uses, as glTF's POSITION min and max do", () => {
    const mesh = boxMesh();
    const positions = new Float32Array(mesh.positions.length + 3);
    positions.set(mesh.positions);
    positions.set([-4, 0.5, 9], mesh.positions.length);
    assert.deepEqual(meshBounds({ positions }), { min: [-4, 0, 0], max: [1, 1, 9] });
  });

  it("returns the float32 values themselves, so 0.1 stays Math.fround(0.1)", () => {
    const box = meshBounds({ positions: new Float32Array([0.1, 0.2, 0.3]) });
    assert.deepEqual(box, {
      min: [Math.fround(0.1), Math.fround(0.2), Math.fround(0.3)],
      max: [Math.fround(0.1), Math.fround(0.2), Math.fround(0.3)],
    });
  });

  it("refuses a mesh without vertices", () => {
    assert.throws(() => meshBounds({ positions: new Float32Array() }), RangeError);
  });
});
