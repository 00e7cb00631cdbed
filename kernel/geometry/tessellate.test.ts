/**
 * Meshing B-rep solids with face ids. One OCCT instance for the whole file.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { TriangleMesh } from "../mesh/types.ts";
import { meshBounds } from "../mesh/bounds.ts";
import { solidVolume } from "./measure.ts";
import { signedVolume } from "./mesh-metrics.ts";
import { withOcctScope, type OcctScope } from "./occt-scope.ts";
import { loadOpenCascade } from "./opencascade.ts";
import { readStep } from "./step.ts";
import { defaultLinearDeflection, tessellate } from "./tessellate.ts";
import { box, fixture } from "./test-support.ts";
import { cross, dot, sub, type Vec3 } from "../math/vec3.ts";

const oc = await loadOpenCascade();

function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

const vertex = (array: Float32Array, v: number): Vec3 => [array[3 * v]!, array[3 * v + 1]!, array[3 * v + 2]!];

/** The winding normal (not normalised) of triangle `t`. */
function windingNormal(mesh: TriangleMesh, t: number): Vec3 {
  const [a, b, c] = [0, 1, 2].map((k) => vertex(mesh.positions, mesh.indices[3 * t + k]!)) as [Vec3, Vec3, Vec3];
  return cross(sub(b, a), sub(c, a));
}

/** Share of triangles whose winding agrees with the normals of their three vertices. */
function agreement(mesh: TriangleMesh): number {
  let agreeing = 0;
  const triangles = mesh.indices.length / 3;
  for (let t = 0; t < triangles; t++) {
    const n = windingNormal(mesh, t);
    if ([0, 1, 2].every((k) => dot(n, vertex(mesh.normals, mesh.indices[3 * t + k]!)) > 0)) agreeing++;
  }
  return agreeing / triangles;
}

/** A box rotated 30° about Z and moved to (100, -50, 20), through a TopLoc_Location. */
function movedBox(scope: OcctScope): { shape: TopoDS_Shape; corners: Vec3[] } {
  const c = Math.cos(Math.PI / 6),
    s = Math.sin(Math.PI / 6);
  const trsf = scope.own(new oc.gp_Trsf_1());
  trsf.SetValues(c, -s, 0, 100, s, c, 0, -50, 0, 0, 1, 20);
  const shape = scope.own(box(oc, scope, 10, 20, 30).Moved(scope.own(new oc.TopLoc_Location_2(trsf)), false));
  const corners: Vec3[] = [];
  for (const x of [0, 10])
    for (const y of [0, 20]) for (const z of [0, 30]) corners.push([c * x - s * y + 100, s * x + c * y - 50, z + 20]);
  return { shape, corners };
}

describe("defaultLinearDeflection", () => {
  it("is 0.05 % of the diagonal, kept within 0.01 and 0.5 mm", () => {
    assert.equal(defaultLinearDeflection(100), 0.05);
    assert.equal(defaultLinearDeflection(1), 0.01);
    assert.equal(defaultLinearDeflection(5000), 0.5);
  });
});

describe("tessellate", () => {
  it("meshes a 10 x 20 x 30 box into 6 faces of 2 triangles, 4 vertices each, enclosing 6000 mm³", () => {
    const result = withOcctScope((scope) => tessellate(oc, box(oc, scope, 10, 20, 30), 37.4));
    const { mesh } = result;
    assert.equal(result.faceCount, 6);
    assert.equal(result.triangleCount, 12);
    assert.deepEqual(result.unmeshedFaces, []);
    assert.equal(mesh.positions.length / 3, 24);
    for (let face = 0; face < 6; face++)
      assert.equal(mesh.faceIds.filter((id) => id === face).length, 4, `face ${face}`);
    near(signedVolume(mesh.positions, mesh.indices), 6000, 1e-3, "volume of the mesh");
    assert.deepEqual(result.bbox, { min: [0, 0, 0], max: [10, 20, 30] });
    assert.equal(agreement(mesh), 1);
  });

  it("gives each box face one outward axis normal and keeps a triangle's corners on one face", () => {
    const { mesh } = withOcctScope((scope) => tessellate(oc, box(oc, scope, 10, 20, 30), 37.4));
    const centre: Vec3 = [5, 10, 15];
    for (let v = 0; v < mesh.positions.length / 3; v++) {
      const n = vertex(mesh.normals, v);
      const p = vertex(mesh.positions, v);
      near(Math.max(...n.map(Math.abs)), 1, 1e-6, `vertex ${v}: axis normal`);
      assert.ok(
        dot(n, [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]]) > 0,
        `vertex ${v}: normal points inwards`,
      );
    }
    for (let t = 0; t < mesh.indices.length / 3; t++) {
      const ids = [0, 1, 2].map((k) => mesh.faceIds[mesh.indices[3 * t + k]!]);
      assert.ok(ids[0] === ids[1] && ids[1] === ids[2], `triangle ${t} spans faces ${ids}`);
    }
  });

  it("applies a face's location: a rotated, moved box keeps its volume, outward winding and true corners", () => {
    const { mesh, bbox, corners } = withOcctScope((scope) => {
      const moved = movedBox(scope);
      return { ...tessellate(oc, moved.shape, 40), corners: moved.corners };
    });
    near(signedVolume(mesh.positions, mesh.indices), 6000, 1e-2, "volume of the mesh");
    assert.equal(agreement(mesh), 1);
    for (let axis = 0; axis < 3; axis++) {
      near(bbox!.min[axis]!, Math.min(...corners.map((c) => c[axis]!)), 1e-9, `min ${axis}`);
      near(bbox!.max[axis]!, Math.max(...corners.map((c) => c[axis]!)), 1e-9, `max ${axis}`);
    }
  });

  it("meshes partC with all 94 faces, its winding outward and its volume within 0.5 % of GProp's", () => {
    const { result, volume } = withOcctScope((scope) => {
      const read = readStep(oc, fixture("partC.step"), scope);
      return { result: tessellate(oc, read.solid, 100), volume: solidVolume(oc, read.solid) };
    });
    const { mesh } = result;
    assert.equal(result.faceCount, 94);
    assert.deepEqual(result.unmeshedFaces, []);
    assert.deepEqual(
      [...new Set(mesh.faceIds)].sort((a, b) => a - b),
      Array.from({ length: 94 }, (_, i) => i),
    );
    near(signedVolume(mesh.positions, mesh.indices), volume, volume * 0.005, "volume of the mesh");
    assert.ok(agreement(mesh) > 0.99, `only ${agreement(mesh)} of the triangles agree with their normals`);
    for (let v = 0; v < mesh.normals.length / 3; v++)
      near(Math.hypot(...vertex(mesh.normals, v)), 1, 1e-4, `normal ${v}`);
    const bounds = meshBounds(mesh);
    for (let axis = 0; axis < 3; axis++)
      near(bounds.max[axis]! - bounds.min[axis]!, [85.519, 44.621, 27.527][axis]!, 0.05, `size ${axis}`);
  });

  it("replaces the triangulation when asked for another deflection", () => {
    const counts = withOcctScope((scope) => {
      const read = readStep(oc, fixture("partC.step"), scope);
      return [0.5, 0.01, 0.5].map(
        (linearDeflectionMm) => tessellate(oc, read.solid, 100, { linearDeflectionMm }).triangleCount,
      );
    });
    assert.ok(counts[1]! > counts[0]!, `0.01 mm gave ${counts[1]} triangles, 0.5 mm ${counts[0]}`);
    assert.equal(counts[2], counts[0]);
  });
});
