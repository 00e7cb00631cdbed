import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype } from "../../machines/archetypes.ts";
import { cuttingParametersFor } from "../tooling/feeds.ts";
import { coneRadiusAt } from "../cutter-shape.ts";
import { cutterOf } from "../tooling/test-library.ts";
import type { DrillCycle, Move, TriangleSoup, Vec3 } from "../types.ts";
import { chamferOperation, chamferPaths, countersinkOperation } from "./chamfer.ts";
import { chamferEdges, triangleFaceIds, type ChamferEdges } from "./chamfer-edges.ts";
import type { SetupHole } from "./setup-hole.ts";

const vmc = findMachineArchetype("vmc-850-fanuc");
if (!vmc) throw new Error("no vmc-850-fanuc");
// 10 mm, 45° to the axis, 0.5 mm flat tip: the path runs 0.25 + 0.2 mm off the lower edge, 0.2 mm below it
const mill = cutterOf("SSR-CH045-1000-Z4-TA");
const parameters = cuttingParametersFor(mill, "aluminium-6061", vmc, "chamfering").parameters;
const near = (actual: number, expected: number, tolerance = 1e-5) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);
const nearPoint = (actual: readonly number[], expected: readonly number[]) => {
  for (const [i, v] of actual.entries()) near(v, expected[i] as number);
};

/** Triangles with their own vertices per face, as tessellations give them, wound to face `normal`. */
class Soup {
  positions: number[] = [];
  indices: number[] = [];
  faces: number[] = [];
  tri(a: Vec3, b: Vec3, c: Vec3, face: number, normal: Vec3): void {
    const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    const flip = n[0]! * normal[0] + n[1]! * normal[1] + n[2]! * normal[2] < 0;
    const base = this.positions.length / 3;
    for (const p of flip ? [a, c, b] : [a, b, c]) this.positions.push(...p);
    this.indices.push(base, base + 1, base + 2);
    this.faces.push(face);
  }
  quad(a: Vec3, b: Vec3, c: Vec3, d: Vec3, face: number, normal: Vec3): void {
    this.tri(a, b, c, face, normal);
    this.tri(a, c, d, face, normal);
  }
  fan(points: Vec3[], face: number, normal: Vec3): void {
    for (let i = 1; i < points.length - 1; i++) this.tri(points[0]!, points[i]!, points[i + 1]!, face, normal);
  }
  build(): { soup: TriangleSoup; faceIds: Uint32Array } {
    return {
      soup: { positions: new Float32Array(this.positions), indices: new Uint32Array(this.indices) },
      faceIds: new Uint32Array(this.faces),
    };
  }
}

/** A 40 x 30 x 20 block, top at z = 0, its top front edge (y = 0) chamfered 2 mm; at x = 40 a side face, or a wall rising to z = 10. */
function chamferedBlock(wallAtEnd: boolean) {
  const s = new Soup();
  s.quad([0, 0, -2], [40, 0, -2], [40, 2, 0], [0, 2, 0], 7, [0, -1, 1]);
  s.quad([0, 2, 0], [40, 2, 0], [40, 30, 0], [0, 30, 0], 1, [0, 0, 1]);
  s.quad([0, 0, -20], [40, 0, -20], [40, 0, -2], [0, 0, -2], 2, [0, -1, 0]);
  s.fan(
    [
      [0, 0, -20],
      [0, 30, -20],
      [0, 30, 0],
      [0, 2, 0],
      [0, 0, -2],
    ],
    3,
    [-1, 0, 0],
  );
  if (wallAtEnd)
    s.fan(
      [
        [40, 0, -2],
        [40, 2, 0],
        [40, 30, 0],
        [40, 30, 10],
        [40, 0, 10],
      ],
      4,
      [-1, 0, 0],
    );
  else
    s.fan(
      [
        [40, 0, -20],
        [40, 0, -2],
        [40, 2, 0],
        [40, 30, 0],
        [40, 30, -20],
      ],
      4,
      [1, 0, 0],
    );
  return s.build();
}

function edgesOf(built: { soup: TriangleSoup; faceIds: Uint32Array }, faces: number[]): ChamferEdges {
  const result = chamferEdges(built.soup, built.faceIds, faces);
  if (!result.ok) throw new Error(result.message);
  return result.edges;
}

describe("chamfer edges from a triangle soup", () => {
  it("finds a 2 mm x 45° chamfer's lower edge along the block's front, material on its left, the tool's side -y", () => {
    const edges = edgesOf(chamferedBlock(false), [7]);
    near(edges.angle_to_axis_deg, 45);
    near(edges.width_mm, 2 * Math.SQRT2);
    assert.equal(edges.top_z, 0);
    assert.equal(edges.chains.length, 1);
    const [chain] = edges.chains;
    assert.deepEqual(chain?.points, [
      [0, 0, -2],
      [40, 0, -2],
    ]);
    nearPoint(chain?.away[0] ?? [], [0, -1]);
    assert.deepEqual([chain?.closed, chain?.start_wall, chain?.end_wall], [false, null, null]);
  });

  it("refuses a vertical face: a wall is no chamfer from +Z", () => {
    const built = chamferedBlock(false);
    const result = chamferEdges(built.soup, built.faceIds, [2]);
    assert.ok(!result.ok && result.code === "not_a_chamfer");
  });

  it("turns a mesh's per-vertex face ids into per-triangle ones", () => {
    assert.deepEqual(
      [...triangleFaceIds(new Uint32Array([4, 4, 4, 9, 9, 9]), new Uint32Array([0, 1, 2, 3, 4, 5]))],
      [4, 9],
    );
  });
});

describe("chamfering along edges", () => {
  it("runs the cone's tip 0.45 mm in front of the edge and 0.2 mm below it, so its flank lies on the chamfer plane y - z = 2", () => {
    const op = chamferOperation({
      id: "s0-op5",
      cutter: mill,
      parameters,
      edges: edgesOf(chamferedBlock(false), [7]),
      features: [12],
      clearance_z: 10,
    });
    const feeds = op.moves.filter((m) => m.kind === "linear");
    assert.deepEqual(
      op.moves.map((m) => m.kind),
      ["rapid", "rapid", "linear", "linear", "linear", "linear", "rapid"],
    );
    nearPoint((op.moves[0] as { to: Vec3 }).to, [0, -1.45, 10]);
    nearPoint((op.moves[1] as { to: Vec3 }).to, [0, -1.45, 2]);
    nearPoint(feeds[1]?.to ?? [], [0, -0.45, -2.2]);
    nearPoint(feeds[2]?.to ?? [], [40, -0.45, -2.2]);
    // the flank towards +y, from the lower edge's height to the top, lies on the chamfer's plane
    const [, axisY, tipZ] = feeds[2]?.to ?? [0, 0, 0];
    for (const h of [0.2, 1, 2.2]) near(axisY + coneRadiusAt(mill, h) - (tipZ + h), 2);
    assert.equal(op.kind, "chamfering");
    assert.deepEqual(op.features, [12]);
  });

  it("stops 5.1 mm short of a wall the chamfer runs into (the 10 mm cone's radius and 0.1 mm)", () => {
    const edges = edgesOf(chamferedBlock(true), [7]);
    assert.ok(edges.chains[0]?.end_wall);
    const { paths } = chamferPaths(edges, mill);
    const last = paths[0]?.nodes.at(-1)?.to ?? [0, 0, 0];
    nearPoint(last, [34.9, -0.45, -2.2]);
  });

  it("arcs around the four corners of a chamfered square boss and closes the loop", () => {
    const s = new Soup();
    s.quad([0, 0, -1], [20, 0, -1], [19, 1, 0], [1, 1, 0], 10, [0, -1, 1]);
    s.quad([20, 0, -1], [20, 20, -1], [19, 19, 0], [19, 1, 0], 11, [1, 0, 1]);
    s.quad([20, 20, -1], [0, 20, -1], [1, 19, 0], [19, 19, 0], 12, [0, 1, 1]);
    s.quad([0, 20, -1], [0, 0, -1], [1, 1, 0], [1, 19, 0], 13, [-1, 0, 1]);
    const edges = edgesOf(s.build(), [10, 11, 12, 13]);
    assert.equal(edges.chains.length, 1);
    assert.equal(edges.chains[0]?.closed, true);
    const [path] = chamferPaths(edges, mill).paths;
    const arcs = path?.nodes.filter((n) => n.centre) ?? [];
    assert.deepEqual(arcs.map((a) => a.centre).sort(), [
      [0, 0],
      [0, 20],
      [20, 0],
      [20, 20],
    ]);
    for (const arc of arcs) assert.equal(arc.clockwise, false);
    nearPoint(path?.nodes[0]?.to ?? [], path?.nodes.at(-1)?.to ?? []);
    for (const node of path?.nodes ?? []) near(node.to[2], -1.2);
  });

  it("meets at the offset corners inside a chamfered pocket rim, without arcs", () => {
    const s = new Soup();
    s.quad([0, 0, -1], [20, 0, -1], [21, -1, 0], [-1, -1, 0], 20, [0, 1, 1]);
    s.quad([20, 0, -1], [20, 20, -1], [21, 21, 0], [21, -1, 0], 21, [-1, 0, 1]);
    s.quad([20, 20, -1], [0, 20, -1], [-1, 21, 0], [21, 21, 0], 22, [0, -1, 1]);
    s.quad([0, 20, -1], [0, 0, -1], [-1, -1, 0], [-1, 21, 0], 23, [1, 0, 1]);
    const [path] = chamferPaths(edgesOf(s.build(), [20, 21, 22, 23]), mill).paths;
    assert.equal(path?.nodes.filter((n) => n.centre).length, 0);
    const corners = (path?.nodes ?? []).map((n) => [
      Math.round(n.to[0] * 1000) / 1000,
      Math.round(n.to[1] * 1000) / 1000,
    ]);
    for (const corner of [
      [0.45, 0.45],
      [19.55, 0.45],
      [19.55, 19.55],
      [0.45, 19.55],
    ])
      assert.ok(
        corners.some((c) => c[0] === corner[0] && c[1] === corner[1]),
        `${corner} in ${JSON.stringify(corners)}`,
      );
  });

  it("refuses a 30° chamfer mill for a 45° chamfer", () => {
    assert.throws(
      () => chamferPaths(edgesOf(chamferedBlock(false), [7]), cutterOf("SSR-CH030-1000-Z4-TA")),
      /cuts at 30° to the axis, the chamfer is at 45°/,
    );
  });
});

describe("countersinks", () => {
  const sunk: SetupHole = {
    feature_id: 5,
    at: [10, 10],
    top_z: 0,
    diameter_mm: 6.6,
    depth_mm: 20,
    through: true,
    drill_point_angle_deg: null,
    counterbore: null,
    countersink: { diameter_mm: 12.4, angle_deg: 90 },
    thread: null,
  };

  it("plunges a 16 mm chamfer mill to where its cone is 12.4 mm wide at the entrance, with a short dwell", () => {
    const big = cutterOf("SSR-CH045-1600-Z4-TA");
    const op = countersinkOperation({
      id: "s0-op6",
      cutter: big,
      parameters: cuttingParametersFor(big, "aluminium-6061", vmc, "chamfering").parameters,
      holes: [sunk],
      clearance_z: 10,
    });
    const cycle = op.moves.find((m): m is DrillCycle => m.kind === "drill");
    assert.equal(cycle?.cycle, "dwell");
    near(cycle?.bottom_z ?? 0, -(6.2 - 0.25));
    assert.match(op.name, /countersink \(feature 5\)/);
  });

  it("circles a 10 mm chamfer mill on a 1.4 mm orbit with its tip 4.55 mm down, inside the 6.6 mm bore", () => {
    const op = countersinkOperation({ id: "s0-op6", cutter: mill, parameters, holes: [sunk], clearance_z: 10 });
    const arcs = op.moves.filter((m): m is Extract<Move, { kind: "arc" }> => m.kind === "arc");
    assert.equal(arcs.length, 2);
    for (const arc of arcs) {
      near(Math.hypot(arc.to[0] - 10, arc.to[1] - 10), 1.4);
      near(arc.to[2], -4.55);
    }
    // the cone at the entrance: 4.8 mm from the axis plus the orbit is the countersink's 6.2 mm radius
    assert.equal(op.moves[0]?.kind, "rapid");
    assert.deepEqual(op.moves.at(-1), { kind: "rapid", to: [10, 10, 10] });
  });
});
