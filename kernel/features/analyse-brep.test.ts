/**
 * Face analysis of B-reps: parts built with OCCT primitives, whose every number is known, then
 * partC.step and the NIST parts, and input that is not a clean solid.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TopoDS_Shape } from "opencascade.js/dist/node.js";
import { measureSolid } from "../geometry/measure.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { fixture, wasmBytesInUse } from "../geometry/test-support.ts";
import { GeometryError } from "../geometry-error.ts";
import { readStep } from "../geometry/step.ts";
import { analyseSolid } from "./analyse-brep.ts";
import { readStepWithEntities } from "./step-entities.ts";
import {
  cut,
  edgesWhere,
  fillet,
  fuse,
  makeBox,
  makeCylinder,
  near,
  nearVector,
  nurbs,
  shellWithout,
} from "./test-support.ts";
import type { EdgeAnalysis, FaceAnalysis, PartAnalysis } from "./types.ts";

const oc = await loadOpenCascade();
const HALF_PI = Math.PI / 2;

function gpropVolume(shape: TopoDS_Shape): number {
  return withOcctScope((scope) => {
    const properties = scope.own(new oc.GProp_GProps_1());
    oc.BRepGProp.VolumeProperties_1(shape, properties, true, false, false);
    return properties.Mass();
  });
}

function faceAt(analysis: PartAnalysis, centroid: [number, number, number]): FaceAnalysis {
  const face = analysis.faces.find(
    (f) => Math.hypot(f.centroid[0] - centroid[0], f.centroid[1] - centroid[1], f.centroid[2] - centroid[2]) < 1e-6,
  );
  assert.ok(face, `no face has its centroid at ${centroid.join(", ")}`);
  return face;
}

function edgesBetween(analysis: PartAnalysis, a: FaceAnalysis, b: FaceAnalysis): EdgeAnalysis[] {
  return analysis.edges.filter((edge) => edge.faces.includes(a.id) && edge.faces.includes(b.id));
}

function count<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

describe("analyseSolid on parts built with OCCT", () => {
  it("finds a 40 x 30 x 20 box's six planes with exact areas, outward normals and twelve convex right-angled edges", () => {
    withOcctScope((scope) => {
      const analysis = analyseSolid(oc, makeBox(oc, scope, [40, 30, 20]));
      assert.equal(analysis.faces.length, 6);
      assert.ok(
        analysis.faces.every(
          (face) =>
            face.surface === "plane" && face.outerWires === 1 && face.innerWires === 0 && face.edges.length === 4,
        ),
      );
      const expected: [[number, number, number], [number, number, number], number][] = [
        [[0, 15, 10], [-1, 0, 0], 600],
        [[40, 15, 10], [1, 0, 0], 600],
        [[20, 0, 10], [0, -1, 0], 800],
        [[20, 30, 10], [0, 1, 0], 800],
        [[20, 15, 0], [0, 0, -1], 1200],
        [[20, 15, 20], [0, 0, 1], 1200],
      ];
      for (const [centroid, normal, area] of expected) {
        const face = faceAt(analysis, centroid);
        near(face.area, area, 1e-9, `area of the face at ${centroid.join(", ")}`);
        nearVector(face.normal, normal, 1e-12, `normal of the face at ${centroid.join(", ")}`);
        assert.equal(face.stepEntity, null);
      }
      assert.equal(analysis.edges.length, 12);
      for (const edge of analysis.edges) {
        assert.equal(edge.topology, "manifold");
        assert.equal(edge.curve, "line");
        assert.equal(edge.convexity, "convex", `edge ${edge.id}`);
        near(edge.angle ?? NaN, HALF_PI, 1e-12, `material angle at edge ${edge.id}`);
      }
      assert.equal(analysis.adjacency.length, 12);
      assert.ok(
        analysis.adjacency.every((pair) => pair.convexity === "convex" && !pair.mixed && pair.edges.length === 1),
      );
      near(analysis.volume ?? NaN, 24_000, 1e-6, "volume");
      assert.equal(analysis.closed, true);
      assert.equal(analysis.complete, true);
      nearVector(analysis.bbox?.min ?? null, [0, 0, 0], 1e-6, "box min");
      nearVector(analysis.bbox?.max ?? null, [40, 30, 20], 1e-6, "box max");
      assert.deepEqual(analysis.warnings, []);
    });
  });

  it("sees a hole drilled through the box as a concave cylinder of radius 5 with convex rims, and the faces it pierces with an inner wire", () => {
    withOcctScope((scope) => {
      const drilled = cut(
        oc,
        scope,
        makeBox(oc, scope, [40, 30, 20]),
        makeCylinder(oc, scope, [20, 15, -1], [0, 0, 1], 5, 22),
      );
      const analysis = analyseSolid(oc, drilled);
      assert.deepEqual(
        count(analysis.faces, (face) => face.surface),
        { plane: 6, cylinder: 1 },
      );
      const hole = analysis.faces.find((face) => face.surface === "cylinder") as FaceAnalysis;
      near(hole.area, 2 * Math.PI * 5 * 20, 1e-6, "hole area");
      assert.equal(hole.sense, "concave");
      near(hole.radius ?? NaN, 5, 1e-12, "hole radius");
      nearVector(hole.axis?.origin ?? null, [20, 15, 10], 1e-9, "hole axis origin");
      near(Math.abs(hole.axis?.direction[2] ?? NaN), 1, 1e-12, "hole axis along z");
      nearVector(hole.axialRange, [-10, 10], 1e-9, "hole depth range");
      near(hole.sweepAngle ?? NaN, 2 * Math.PI, 1e-9, "hole sweep");
      for (const z of [0, 20]) {
        const face = faceAt(analysis, [20, 15, z]);
        near(face.area, 1200 - 25 * Math.PI, 1e-6, `area of the pierced face at z = ${z}`);
        assert.equal(face.innerWires, 1);
        const [rim] = edgesBetween(analysis, face, hole);
        assert.equal(rim?.curve, "circle");
        assert.equal(rim?.convexity, "convex");
        near(rim?.angle ?? NaN, HALF_PI, 1e-9, "rim angle");
        near(rim?.circle?.radius ?? NaN, 5, 1e-12, "rim radius");
        near(rim?.length ?? NaN, 10 * Math.PI, 1e-6, "rim length");
      }
      const seams = analysis.edges.filter((edge) => edge.topology === "seam");
      assert.equal(seams.length, 1);
      assert.deepEqual(seams[0]?.faces, [hole.id]);
      near(analysis.volume ?? NaN, 24_000 - 500 * Math.PI, 1e-6, "volume");
      near(analysis.volume ?? NaN, gpropVolume(drilled), 1e-6, "volume against GProp");
    });
  });

  it("sees a blind hole's floor meet its wall at a concave edge of 270 degrees", () => {
    withOcctScope((scope) => {
      const drilled = cut(
        oc,
        scope,
        makeBox(oc, scope, [40, 30, 20]),
        makeCylinder(oc, scope, [20, 15, 12], [0, 0, 1], 4, 10),
      );
      const analysis = analyseSolid(oc, drilled);
      const wall = analysis.faces.find((face) => face.surface === "cylinder") as FaceAnalysis;
      const floor = faceAt(analysis, [20, 15, 12]);
      nearVector(floor.normal, [0, 0, 1], 1e-12, "floor normal");
      near(floor.area, 16 * Math.PI, 1e-6, "floor area");
      const [edge] = edgesBetween(analysis, floor, wall);
      assert.equal(edge?.convexity, "concave");
      near(edge?.angle ?? NaN, 3 * HALF_PI, 1e-9, "floor edge angle");
      nearVector(wall.axialRange, [-4, 4], 1e-9, "blind hole depth 8");
    });
  });

  it("rounds an outside edge into a convex quarter cylinder met smoothly by both faces", () => {
    withOcctScope((scope) => {
      const box = makeBox(oc, scope, [40, 30, 20]);
      // the edge along x at y = 0, z = 20
      const edges = edgesWhere(
        oc,
        scope,
        box,
        (edge) => Math.abs(edge.middle[1]) < 1e-9 && Math.abs(edge.middle[2] - 20) < 1e-9,
      );
      assert.equal(edges.length, 1);
      const analysis = analyseSolid(oc, fillet(oc, scope, box, edges, 3));
      const round = analysis.faces.find((face) => face.surface === "cylinder") as FaceAnalysis;
      assert.equal(round.sense, "convex");
      near(round.radius ?? NaN, 3, 1e-9, "fillet radius");
      near(round.sweepAngle ?? NaN, HALF_PI, 1e-9, "fillet sweep");
      near(round.area, HALF_PI * 3 * 40, 1e-6, "fillet area");
      const tangent = analysis.edges.filter(
        (edge) => edge.faces.includes(round.id) && edge.faces.length === 2 && edge.curve === "line",
      );
      assert.equal(tangent.length, 2);
      for (const edge of tangent) {
        assert.equal(edge.convexity, "smooth");
        near(edge.angle ?? NaN, Math.PI, 1e-6, "tangent edge angle");
      }
      // the box's other edges stay convex
      assert.equal(analysis.edges.filter((edge) => edge.convexity === "concave").length, 0);
      near(analysis.volume ?? NaN, 24_000 - (9 - (9 * Math.PI) / 4) * 40, 1e-6, "volume");
    });
  });

  it("sees a pocket's walls meet its floor and each other at concave edges, and its rounded corners as concave cylinders", () => {
    withOcctScope((scope) => {
      const pocketed = cut(oc, scope, makeBox(oc, scope, [40, 30, 20]), makeBox(oc, scope, [20, 10, 11], [10, 10, 10]));
      const sharp = analyseSolid(oc, pocketed);
      const floor = faceAt(sharp, [20, 15, 10]);
      nearVector(floor.normal, [0, 0, 1], 1e-12, "pocket floor normal");
      const floorEdges = sharp.edges.filter((edge) => edge.faces.includes(floor.id));
      assert.equal(floorEdges.length, 4);
      assert.ok(
        floorEdges.every((edge) => edge.convexity === "concave" && Math.abs((edge.angle ?? NaN) - 3 * HALF_PI) < 1e-9),
      );
      const corners = sharp.edges.filter(
        (edge) =>
          edge.curve === "line" &&
          Math.abs(edge.start[2] - edge.end[2]) > 1 &&
          edge.start[0] > 5 &&
          edge.start[0] < 35 &&
          edge.start[1] > 5 &&
          edge.start[1] < 25,
      );
      assert.equal(corners.length, 4);
      assert.ok(corners.every((edge) => edge.convexity === "concave"));
      const top = faceAt(sharp, [20, 15, 20]);
      assert.equal(top.innerWires, 1);
      assert.ok(
        sharp.edges
          .filter((edge) => edge.faces.includes(top.id) && edge.faces.length === 2)
          .every((edge) => edge.convexity === "convex"),
      );

      const rounded = analyseSolid(
        oc,
        fillet(
          oc,
          scope,
          pocketed,
          edgesWhere(oc, scope, pocketed, (edge) => corners.some((c) => c.id === edge.id)),
          2,
        ),
      );
      const cylinders = rounded.faces.filter((face) => face.surface === "cylinder");
      assert.equal(cylinders.length, 4);
      for (const corner of cylinders) {
        assert.equal(corner.sense, "concave");
        near(corner.radius ?? NaN, 2, 1e-9, "corner radius");
        near(corner.sweepAngle ?? NaN, HALF_PI, 1e-9, "corner sweep");
        const walls = rounded.edges.filter((edge) => edge.faces.includes(corner.id) && edge.curve === "line");
        assert.equal(walls.length, 2);
        assert.ok(
          walls.every((edge) => edge.convexity === "smooth"),
          "the fillet runs smoothly into the walls",
        );
        const bottom = rounded.edges.find(
          (edge) => edge.faces.includes(corner.id) && edge.curve === "circle" && Math.abs(edge.middle[2] - 10) < 1e-9,
        );
        assert.equal(bottom?.convexity, "concave");
      }
    });
  });

  it("analyses the same part made of B-splines only alike: areas, sense of the hole from curvature, and convexity of every edge", () => {
    withOcctScope((scope) => {
      const drilled = cut(
        oc,
        scope,
        makeBox(oc, scope, [40, 30, 20]),
        makeCylinder(oc, scope, [20, 15, -1], [0, 0, 1], 5, 22),
      );
      const exact = analyseSolid(oc, drilled);
      const splines = analyseSolid(oc, nurbs(oc, scope, drilled));
      assert.ok(splines.faces.every((face) => face.surface === "bspline"));
      assert.equal(splines.faces.length, exact.faces.length);
      for (const face of exact.faces) {
        const twin = splines.faces.find(
          (other) => Math.hypot(...other.centroid.map((v, i) => v - (face.centroid[i] as number))) < 1e-3,
        );
        assert.ok(twin, `the B-spline twin of face ${face.id}`);
        near(twin.area, face.area, face.area * 1e-5, `area of face ${face.id}`);
        assert.equal(twin.sense, face.sense, `sense of face ${face.id}`);
      }
      assert.deepEqual(
        count(splines.edges, (edge) => `${edge.topology}:${edge.convexity}`),
        count(exact.edges, (edge) => `${edge.topology}:${edge.convexity}`),
      );
      // GProp's fixed-order volume integration is a little off on B-spline faces
      near(splines.volume ?? NaN, exact.volume ?? NaN, 1e-3 * (exact.volume ?? 0), "volume");
    });
  });
});

describe("analyseSolid on input that is not a clean solid", () => {
  it("reports the free edges of an open shell (a box without its lid) instead of failing", () => {
    withOcctScope((scope) => {
      const box = makeBox(oc, scope, [40, 30, 20]);
      const lid = analyseSolid(oc, box).faces.findIndex((face) => face.centroid[2] === 20);
      const analysis = analyseSolid(oc, shellWithout(oc, scope, box, [lid]));
      assert.equal(analysis.faces.length, 5);
      const free = analysis.edges.filter((edge) => edge.topology === "free");
      assert.equal(free.length, 4);
      assert.ok(free.every((edge) => edge.convexity === null && edge.faces.length === 1));
      assert.equal(analysis.closed, false);
      assert.equal(analysis.volume, null);
      assert.equal(analysis.adjacency.length, 8);
      const warning = analysis.warnings.find((w) => w.code === "open_shell");
      assert.deepEqual(warning?.edges?.sort(), free.map((edge) => edge.id).sort());
    });
  });

  it("reports an edge shared by four faces (two boxes touching along it) as non-manifold and leaves it out of the graph", () => {
    withOcctScope((scope) => {
      const touching = fuse(oc, scope, makeBox(oc, scope, [10, 10, 10]), makeBox(oc, scope, [10, 10, 10], [10, 10, 0]));
      const analysis = analyseSolid(oc, touching);
      const shared = analysis.edges.filter((edge) => edge.topology === "non_manifold");
      assert.equal(shared.length, 1);
      assert.equal(shared[0]?.faces.length, 4);
      assert.equal(shared[0]?.convexity, null);
      assert.ok(analysis.adjacency.every((pair) => !pair.edges.includes(shared[0]?.id ?? -1)));
      assert.ok(
        analysis.warnings.some((w) => w.code === "non_manifold_edges" && w.edges?.includes(shared[0]?.id ?? -1)),
      );
      assert.equal(analysis.closed, false);
    });
  });

  it("turns the normals of an inside-out solid around, with a warning", () => {
    withOcctScope((scope) => {
      const inverted = scope.own(makeBox(oc, scope, [40, 30, 20]).Reversed());
      const analysis = analyseSolid(oc, inverted);
      nearVector(faceAt(analysis, [20, 15, 20]).normal, [0, 0, 1], 1e-12, "top normal");
      assert.ok(analysis.edges.every((edge) => edge.convexity === "convex"));
      near(analysis.volume ?? NaN, 24_000, 1e-6, "volume");
      assert.ok(analysis.warnings.some((w) => w.code === "inverted_solid"));
    });
  });

  it("stops at its time budget with analysis_timeout, saying where it was, or returns what it did when asked to", () => {
    withOcctScope((scope) => {
      const part = readStep(oc, fixture("partC.step"), scope).solid;
      assert.throws(
        () => analyseSolid(oc, part, { deadline: performance.now() - 1 }),
        (error: unknown) =>
          error instanceof GeometryError && error.code === "analysis_timeout" && /face 1 of 94/.test(error.message),
      );
      const partial = analyseSolid(oc, part, { deadline: performance.now() - 1, onTimeout: "partial" });
      assert.equal(partial.complete, false);
      assert.equal(partial.closed, false);
      assert.ok(partial.warnings.some((w) => w.code === "analysis_incomplete"));
    });
  });
});

describe("analyseSolid on fixture parts", () => {
  it("finds partC.step's 94 faces (92 planes, 2 concave cylinders) and its graph: 187 convex, 86 concave, 2 smooth edges", () => {
    withOcctScope((scope) => {
      const read = readStepWithEntities(oc, fixture("partC.step"), scope);
      const analysis = analyseSolid(oc, read.solid, { stepEntities: read.faceEntities });
      assert.equal(analysis.faces.length, 94);
      assert.deepEqual(
        count(analysis.faces, (face) => face.surface),
        { plane: 92, cylinder: 2 },
      );
      const cylinders = analysis.faces.filter((face) => face.surface === "cylinder");
      assert.deepEqual(
        cylinders.map((face) => face.sense),
        ["concave", "concave"],
      );
      assert.deepEqual(cylinders.map((face) => Math.round((face.radius ?? 0) * 1e6) / 1e6).sort(), [1, 1.89992]);
      assert.deepEqual(
        count(analysis.edges, (edge) => `${edge.topology}:${edge.convexity}`),
        {
          "manifold:convex": 187,
          "manifold:concave": 86,
          "manifold:smooth": 2,
          "seam:smooth": 1,
        },
      );
      // the graph: every manifold edge in exactly one pair, lengths adding up, no mixed pairs
      const inPairs = analysis.adjacency.flatMap((pair) => pair.edges);
      assert.equal(new Set(inPairs).size, inPairs.length);
      assert.equal(inPairs.length, analysis.edges.filter((edge) => edge.topology === "manifold").length);
      for (const pair of analysis.adjacency) {
        const length = pair.edges.reduce((sum, id) => sum + (analysis.edges[id]?.length ?? NaN), 0);
        near(pair.length, length, 1e-9, `length of pair ${pair.faces.join("-")}`);
      }
      assert.equal(analysis.adjacency.length, 274);
      near(analysis.volume ?? NaN, measureSolid(oc, read.solid).volumeMm3 ?? NaN, 0.01, "volume against GProp");
      assert.ok(analysis.faces.every((face) => face.stepEntity !== null));
      assert.equal(new Set(analysis.faces.map((face) => face.stepEntity)).size, 94);
      assert.deepEqual(analysis.warnings, []);
      console.log(
        `partC.step: analysed in ${analysis.timings.total?.toFixed(0)} ms (${Object.entries(analysis.timings)
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(", ")})`,
      );
    });
  });

  // FTC-10's file has 282 faces; 18 of them are supplemental geometry outside the solid
  for (const [name, faces] of [
    ["nist_ctc_01_asme1_ap242-e1.stp", 117],
    ["nist_ftc_10_asme1_ap242-e2.stp", 264],
    ["nist_stc_06_asme1_ap242-e3.stp", 144],
  ] as const) {
    it(`analyses ${name}: ${faces} faces, every edge with a convexity or a reason, its volume equal to GProp's`, () => {
      withOcctScope((scope) => {
        const solid = readStep(oc, fixture(name), scope).solid;
        // a generous budget: suites run side by side on a busy machine
        const analysis = analyseSolid(oc, solid, { budgetMs: 300_000 });
        assert.equal(analysis.faces.length, faces);
        assert.equal(analysis.closed, true);
        assert.ok(analysis.faces.every((face) => face.area > 0));
        assert.ok(
          analysis.edges.every(
            (edge) => (edge.topology === "manifold" || edge.topology === "seam") === (edge.convexity !== null),
          ),
        );
        const reference = gpropVolume(solid);
        near(analysis.volume ?? NaN, reference, reference * 1e-6, "volume");
        assert.deepEqual(analysis.warnings, []);
        console.log(
          `${name}: ${JSON.stringify(count(analysis.faces, (face) => face.surface))}, ${JSON.stringify(count(analysis.edges, (edge) => `${edge.topology}:${edge.convexity}`))}, ${analysis.timings.total?.toFixed(0)} ms`,
        );
      });
    });
  }
});

describe("WASM memory of face analysis", () => {
  it("analysing partC.step fifty times keeps the WASM heap where it was", () => {
    withOcctScope((scope) => {
      const part = readStep(oc, fixture("partC.step"), scope).solid;
      analyseSolid(oc, part); // first use of every code path
      const before = wasmBytesInUse(oc);
      for (let i = 0; i < 50; i++) analyseSolid(oc, part);
      const growth = wasmBytesInUse(oc) - before;
      // wasmBytesInUse counts in 64 KB blocks: one block is its noise (about 1.3 KB per analysis at most)
      assert.ok(growth <= 64 * 1024, `fifty analyses kept ${(growth / 1024).toFixed(1)} KB of WASM memory`);
    });
  });
});
