/**
 * Face analysis of triangle meshes: partC.stl against the exact faces of partC.step (the same
 * part), a cube, a drilled box meshed by OCCT, and meshes that are open or inside out.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TriangleMesh } from "../mesh/types.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStl } from "../geometry/stl.ts";
import { tessellate } from "../geometry/tessellate.ts";
import { cubeCorners, fixture } from "../geometry/test-support.ts";
import { analyseSolid } from "./analyse-brep.ts";
import { analyseMesh } from "./analyse-mesh.ts";
import { readStepWithEntities } from "./step-entities.ts";
import { cut, makeBox, makeCylinder, near, nearVector } from "./test-support.ts";
import type { FaceAnalysis, PartAnalysis } from "./types.ts";

const oc = await loadOpenCascade();
const DEGREE = Math.PI / 180;

/** A mesh of triangle corners (9 numbers each), every corner its own vertex. */
function meshOf(corners: number[]): TriangleMesh {
  const positions = Float32Array.from(corners);
  const count = positions.length / 3;
  return {
    positions,
    normals: new Float32Array(positions.length),
    indices: Uint32Array.from({ length: count }, (_, i) => i),
    faceIds: new Uint32Array(count),
  };
}

function angle(a: readonly number[], b: readonly number[]): number {
  const dot = a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
  const cross = [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
  return Math.atan2(Math.hypot(...cross), dot);
}

function distance(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

function count<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** Each exact face paired with the mesh region of the same kind, normal (or radius) and nearest centroid. */
function matchFaces(exact: PartAnalysis, mesh: PartAnalysis): Map<number, FaceAnalysis> {
  const taken = new Set<number>();
  const matches = new Map<number, FaceAnalysis>();
  for (const face of exact.faces) {
    const candidates = mesh.faces.filter((region) => {
      if (taken.has(region.id) || region.surface !== face.surface) return false;
      if (face.surface === "plane") return angle(region.normal ?? [0, 0, 0], face.normal ?? [0, 0, 0]) < 0.5 * DEGREE;
      return Math.abs((region.radius ?? 0) - (face.radius ?? 0)) < 0.01;
    });
    const best = candidates.sort(
      (x, y) => distance(x.centroid, face.centroid) - distance(y.centroid, face.centroid),
    )[0];
    if (best === undefined) continue;
    taken.add(best.id);
    matches.set(face.id, best);
  }
  return matches;
}

describe("analyseMesh", () => {
  it("segments partC.stl into the 92 planes and 2 cylinders of partC.step, with the same areas, normals and adjacency graph", () => {
    const stl = readStl(fixture("partC.stl"), "ascii");
    const mesh = analyseMesh(stl.mesh);
    const exact = withOcctScope((scope) => {
      const read = readStepWithEntities(oc, fixture("partC.step"), scope);
      return analyseSolid(oc, read.solid, { stepEntities: read.faceEntities });
    });
    assert.deepEqual(
      count(mesh.faces, (face) => face.surface),
      { plane: 92, cylinder: 2 },
    );
    assert.ok(mesh.faces.every((face) => face.stepEntity === null));
    const matches = matchFaces(exact, mesh);
    assert.equal(matches.size, 94, "every exact face has its region");

    // planes bounded by straight edges only are exact in an STL; a plane with an arc in its
    // boundary gains or loses the circular segments between the arc and its chords
    const straight = (face: FaceAnalysis) => face.edges.every((id) => exact.edges[id]?.curve === "line");
    let worstNormal = 0,
      worstArea = 0,
      worstRelativeArea = 0,
      worstCentroid = 0,
      straightPlanes = 0;
    let worstArcArea = 0;
    const cylinderAreas: string[] = [];
    for (const face of exact.faces) {
      const region = matches.get(face.id) as FaceAnalysis;
      if (face.surface === "plane" && !straight(face))
        worstArcArea = Math.max(worstArcArea, Math.abs(region.area - face.area));
      if (face.surface === "plane" && straight(face)) {
        straightPlanes++;
        worstNormal = Math.max(worstNormal, angle(region.normal as number[], face.normal as number[]));
        worstArea = Math.max(worstArea, Math.abs(region.area - face.area));
        worstRelativeArea = Math.max(worstRelativeArea, Math.abs(region.area - face.area) / face.area);
        worstCentroid = Math.max(worstCentroid, distance(region.centroid, face.centroid));
      }
      if (face.surface === "cylinder") {
        cylinderAreas.push(`r ${face.radius?.toFixed(3)}: ${region.area.toFixed(3)} for ${face.area.toFixed(3)} mm²`);
        near(region.radius ?? NaN, face.radius ?? NaN, 1e-4, `radius of the region of face ${face.id}`);
        assert.equal(region.sense, face.sense);
        near(Math.abs(region.axis?.direction[2] ?? 0), Math.abs(face.axis?.direction[2] ?? 0), 1e-6, "axis direction");
        near(region.sweepAngle ?? NaN, face.sweepAngle ?? NaN, 1e-4, `sweep of the region of face ${face.id}`);
        const depth = (range: [number, number] | null) => (range === null ? NaN : range[1] - range[0]);
        near(depth(region.axialRange), depth(face.axialRange), 1e-4, `depth of the region of face ${face.id}`);
      }
    }
    console.log(
      `partC.stl against partC.step: 94 of 94 faces matched; the ${straightPlanes} planes with straight edges only: normals within ` +
        `${(worstNormal / DEGREE).toExponential(2)} degrees, areas within ${worstArea.toExponential(2)} mm² (${(worstRelativeArea * 100).toExponential(2)} %), ` +
        `centroids within ${worstCentroid.toExponential(2)} mm; the ${92 - straightPlanes} planes with arcs: areas within ${worstArcArea.toFixed(3)} mm²; ` +
        `cylinders ${cylinderAreas.join(", ")}; mesh analysis ${mesh.timings.total?.toFixed(0)} ms`,
    );
    // only the corners, printed to 7 digits, limit straight-edged planes
    assert.ok(worstNormal < 0.01 * DEGREE, `normals off by ${worstNormal / DEGREE} degrees`);
    assert.ok(
      worstArea < 1e-3 && worstRelativeArea < 1e-4,
      `areas off by ${worstArea} mm² (${worstRelativeArea * 100} %)`,
    );
    assert.ok(worstCentroid < 0.01, `centroids off by ${worstCentroid} mm`);
    // arcs: the segments between arc and chord; the cylinders' facets cut inside the surface
    for (const face of exact.faces) {
      const region = matches.get(face.id) as FaceAnalysis;
      if (face.surface === "cylinder" || !straight(face))
        near(region.area, face.area, 0.02 * face.area, `area of face ${face.id} (${face.surface})`);
      if (face.surface === "plane")
        assert.ok(
          angle(region.normal as number[], face.normal as number[]) < 0.01 * DEGREE,
          `normal of face ${face.id}`,
        );
    }

    // the graph: every exact adjacency has its region pair, with the same convexity
    const meshPairs = new Map(mesh.adjacency.map((pair) => [pair.faces.join(":"), pair]));
    for (const pair of exact.adjacency) {
      const a = matches.get(pair.faces[0])?.id as number,
        b = matches.get(pair.faces[1])?.id as number;
      const twin = meshPairs.get([Math.min(a, b), Math.max(a, b)].join(":"));
      assert.ok(twin, `faces ${pair.faces.join(", ")} are adjacent in the mesh too`);
      assert.equal(twin.convexity, pair.convexity, `convexity between faces ${pair.faces.join(", ")}`);
      // chords are shorter than their arcs
      const arcs = pair.edges.some((id) => exact.edges[id]?.curve !== "line");
      near(
        twin.length,
        pair.length,
        arcs ? 0.01 * pair.length : 1e-5 * pair.length + 1e-4,
        `shared length of faces ${pair.faces.join(", ")}`,
      );
      near(twin.angle, pair.angle, 1 * DEGREE, `angle between faces ${pair.faces.join(", ")}`);
    }
    assert.equal(mesh.adjacency.length, exact.adjacency.length);
    assert.deepEqual(
      count(mesh.edges, (edge) => `${edge.topology}:${edge.convexity}`),
      { "manifold:convex": 187, "manifold:concave": 86, "manifold:smooth": 2 },
    );
    near(mesh.volume ?? NaN, exact.volume ?? NaN, 2, "volume");
    assert.equal(mesh.closed, true);
    assert.deepEqual(mesh.warnings, []);
    assert.equal(mesh.triangleRegion.length, stl.triangleCount);
  });

  it("finds a cube's six faces of 100 mm² with outward normals and twelve convex edges", () => {
    const analysis = analyseMesh(meshOf(cubeCorners(10)));
    assert.equal(analysis.faces.length, 6);
    for (const face of analysis.faces) {
      assert.equal(face.surface, "plane");
      near(face.area, 100, 1e-9, "area");
      const outward = face.centroid.map((c) => Math.round((c - 5) / 5)) as [number, number, number];
      nearVector(face.normal, outward, 1e-12, `normal of the face at ${face.centroid.join(", ")}`);
      assert.equal(face.outerWires, 1);
      assert.equal(face.innerWires, 0);
    }
    assert.equal(analysis.edges.length, 12);
    assert.ok(
      analysis.edges.every(
        (edge) =>
          edge.convexity === "convex" && edge.curve === "line" && Math.abs((edge.angle ?? 0) - Math.PI / 2) < 1e-9,
      ),
    );
    assert.equal(analysis.adjacency.length, 12);
    near(analysis.volume ?? NaN, 1000, 1e-9, "volume");
  });

  it("finds the concave cylinder of a hole in a box meshed by OCCT, its radius and depth, and circular convex rims", () => {
    const mesh = withOcctScope((scope) => {
      const drilled = cut(
        oc,
        scope,
        makeBox(oc, scope, [40, 30, 20]),
        makeCylinder(oc, scope, [20, 15, -1], [0, 0, 1], 5, 22),
      );
      return tessellate(oc, drilled, 54).mesh;
    });
    const analysis = analyseMesh(mesh);
    assert.deepEqual(
      count(analysis.faces, (face) => face.surface),
      { plane: 6, cylinder: 1 },
    );
    const hole = analysis.faces.find((face) => face.surface === "cylinder") as FaceAnalysis;
    assert.equal(hole.sense, "concave");
    near(hole.radius ?? NaN, 5, 1e-4, "radius");
    nearVector(hole.axis?.origin ?? null, [20, 15, 10], 1e-3, "axis origin");
    near((hole.axialRange?.[1] ?? NaN) - (hole.axialRange?.[0] ?? NaN), 20, 1e-4, "depth");
    near(hole.sweepAngle ?? NaN, 2 * Math.PI, 1e-9, "sweep");
    const rims = analysis.edges.filter((edge) => edge.faces.includes(hole.id));
    assert.equal(rims.length, 2);
    for (const rim of rims) {
      assert.equal(rim.curve, "circle");
      assert.equal(rim.convexity, "convex");
      near(rim.circle?.radius ?? NaN, 5, 1e-4, "rim radius");
    }
    const top = analysis.faces.find(
      (face) => face.surface === "plane" && Math.abs(face.centroid[2] - 20) < 1e-6,
    ) as FaceAnalysis;
    assert.equal(top.innerWires, 1);
  });

  it("takes an inside-out mesh the other way round, with a warning", () => {
    const corners = cubeCorners(10);
    const flipped: number[] = [];
    for (let t = 0; t < corners.length; t += 9)
      flipped.push(...corners.slice(t, t + 3), ...corners.slice(t + 6, t + 9), ...corners.slice(t + 3, t + 6));
    const analysis = analyseMesh(meshOf(flipped));
    assert.ok(analysis.warnings.some((w) => w.code === "inverted_mesh"));
    assert.ok(analysis.edges.every((edge) => edge.convexity === "convex"));
    near(analysis.volume ?? NaN, 1000, 1e-9, "volume");
  });

  it("reports the free edges of an open mesh (a cube without a face) and stays usable", () => {
    const analysis = analyseMesh(meshOf(cubeCorners(10).slice(0, 90)));
    assert.equal(analysis.faces.length, 5);
    const free = analysis.edges.filter((edge) => edge.topology === "free");
    assert.equal(free.length, 4);
    assert.equal(analysis.closed, false);
    assert.equal(analysis.volume, null);
    assert.ok(analysis.warnings.some((w) => w.code === "open_shell"));
    assert.equal(analysis.adjacency.length, 8);
  });
});
