import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Feature } from "../../features/recognition/types.ts";
import { findMachineArchetype } from "../../machines/archetypes.ts";
import { setupFrame } from "../frames.ts";
import { cuttingParametersFor } from "../tooling/feeds.ts";
import { cutterOf } from "../tooling/test-library.ts";
import type { Cutter, DrillCycle, Move, Operation } from "../types.ts";
import { BREAKTHROUGH_MM, drillTipDepth, R_PLANE_CLEARANCE_MM, TAP_R_PLANE_CLEARANCE_MM } from "./depths.ts";
import { drillingOperation, spotDrillingOperation, tappingOperation } from "./drilling.ts";
import { holeInSetup, type SetupHole } from "./setup-hole.ts";

const vmc = findMachineArchetype("vmc-850-fanuc");
if (!vmc) throw new Error("no vmc-850-fanuc");
const near = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} != ${expected}`);

function hole(featureId: number, x: number, y: number, overrides: Partial<SetupHole> = {}): SetupHole {
  return {
    feature_id: featureId,
    at: [x, y],
    top_z: 0,
    diameter_mm: 5,
    depth_mm: 30,
    through: true,
    drill_point_angle_deg: null,
    counterbore: null,
    countersink: null,
    thread: null,
    ...overrides,
  };
}

function operationWith(
  cutter: Cutter,
  holes: SetupHole[],
  build: typeof drillingOperation,
  kind: "drilling" | "tapping" | "spot_drilling" = "drilling",
): Operation {
  return build({
    id: "s0-op1",
    cutter,
    parameters: cuttingParametersFor(cutter, "steel-c45", vmc as NonNullable<typeof vmc>, kind).parameters,
    holes,
    clearance_z: 10,
  });
}

const cycles = (op: Operation) => op.moves.filter((m): m is DrillCycle => m.kind === "drill");

/** Start and end at clearance; every rapid outside a cycle at or above its R plane. */
function assertSafe(op: Operation): void {
  const first = op.moves[0] as Move;
  const last = op.moves.at(-1) as Move;
  assert.ok(first.kind === "rapid" && first.to[2] === op.clearance_z);
  assert.ok(last.kind === "rapid" && last.to[2] === op.clearance_z);
  const lowestR = Math.min(...cycles(op).map((c) => c.retract_z));
  for (const move of op.moves) if (move.kind === "rapid") assert.ok(move.to[2] >= lowestR, `rapid to ${move.to}`);
}

describe("drilling", () => {
  const drill5 = cutterOf("SSR-DR338-0500-HSS");

  it("peck drills a 30 mm deep 5 mm through hole (6 D) in 5 mm pecks to the point and 1 mm past the exit", () => {
    const op = operationWith(drill5, [hole(1, 10, 10)], drillingOperation);
    const [cycle] = cycles(op);
    assert.ok(cycle);
    assert.equal(cycle.cycle, "peck");
    assert.equal(cycle.peck_mm, 5);
    assert.equal(cycle.retract_z, R_PLANE_CLEARANCE_MM);
    near(cycle.bottom_z, -(30 + 2.5 / Math.tan((59 * Math.PI) / 180) + BREAKTHROUGH_MM));
    assert.equal(cycle.feed, op.parameters.feed_mm_min);
    assertSafe(op);
  });

  it("drills a 15 mm deep 5 mm hole (3 D) in one go with G81", () => {
    const [cycle] = cycles(operationWith(drill5, [hole(1, 10, 10, { depth_mm: 15 })], drillingOperation));
    assert.deepEqual([cycle?.cycle, cycle?.peck_mm], ["drill", null]);
  });

  it("groups holes of one depth into one cycle in nearest-neighbour order and the odd one into another", () => {
    const holes = [hole(1, 50, 0), hole(2, 10, 0), hole(3, 30, 0), hole(4, 0, 0), hole(5, 31, 20, { depth_mm: 10 })];
    const op = operationWith(drill5, holes, drillingOperation);
    const [first, second] = cycles(op);
    assert.deepEqual(first?.at, [
      [0, 0],
      [10, 0],
      [30, 0],
      [50, 0],
    ]);
    assert.deepEqual(second?.at, [[31, 20]]);
    assert.deepEqual(op.features, [1, 2, 3, 4, 5]);
    assert.match(op.name, /^Drilling 5 holes \(features 1, 2, 3, 4, 5\) with Twist drill Ø5/);
    // up to clearance between the groups, over to the next at clearance
    assert.deepEqual(
      op.moves.map((m) => m.kind),
      ["rapid", "drill", "rapid", "rapid", "drill", "rapid"],
    );
    assertSafe(op);
  });

  it("stops a 118° drill's tip on a flat-bottomed blind hole's floor, leaving its point's length short of the shoulder", () => {
    const blind = hole(1, 0, 0, { through: false, depth_mm: 12 });
    const tip = drillTipDepth(blind, drill5);
    assert.equal(tip.depth_mm, 12);
    near(tip.shortfall_mm, 2.5 / Math.tan((59 * Math.PI) / 180));
  });

  it("puts a drill wider than a blind hole with its cone on the rim of the hole's cone, not below it", () => {
    // a 6.4 mm 135° drill in a 6.35 mm hole 12.7 deep with a 118° point (NIST STC-06)
    const drill = { ...drill5, diameter: 6.4, tip_angle_deg: 135 };
    const blind = hole(1, 0, 0, { through: false, depth_mm: 12.7, diameter_mm: 6.35, drill_point_angle_deg: 118 });
    const tip = drillTipDepth(blind, drill);
    const slope = 1 / Math.tan((67.5 * Math.PI) / 180);
    near(tip.depth_mm, 12.7 + 3.175 * slope);
    assert.equal(tip.shortfall_mm, 0);
    // nowhere inside the hole is the drill's cone below the hole's: at its rim they meet
    for (const d of [0, 1, 2, 3, 3.1, 3.175]) {
      const drillAt = -tip.depth_mm + d * slope;
      const holeAt = -12.7 - (3.175 - d) / Math.tan((59 * Math.PI) / 180);
      assert.ok(
        drillAt >= holeAt - 1e-9,
        `at ${d} mm from the axis the drill is ${(holeAt - drillAt).toFixed(4)} mm into the cone`,
      );
    }
  });

  it("refuses a clearance plane below the R plane", () => {
    assert.throws(
      () =>
        drillingOperation({
          id: "x",
          cutter: drill5,
          parameters: cuttingParametersFor(drill5, "steel-c45", vmc, "drilling").parameters,
          holes: [hole(1, 0, 0, { top_z: 9 })],
          clearance_z: 10,
        }),
      /below the R plane/,
    );
  });
});

describe("spot drilling and tapping", () => {
  it("spots a 6.8 mm drill's hole 7.0 mm wide with a 142° spot drill, 3.5 / tan 71° deep", () => {
    const spot = cutterOf("SSR-SP142-0800-VHM");
    const op = spotDrillingOperation({
      id: "s0-op1",
      cutter: spot,
      parameters: cuttingParametersFor(spot, "steel-c45", vmc, "spot_drilling").parameters,
      holes: [hole(1, 5, 5, { top_z: -3 })],
      clearance_z: 10,
      drill_diameter_mm: 6.8,
    });
    const [cycle] = cycles(op);
    assert.equal(cycle?.cycle, "drill");
    near(cycle?.bottom_z ?? 0, -3 - 3.5 / Math.tan((71 * Math.PI) / 180));
    assert.equal(op.kind, "spot_drilling");
    assertSafe(op);
  });

  it("taps a blind M8 hole at 1.25 mm per revolution from 5 mm above to one pitch above the bore's bottom", () => {
    const tap = cutterOf("SSR-TP-M8X125-SF-HSSE");
    const op = operationWith(
      tap,
      [hole(1, 0, 0, { diameter_mm: 6.8, depth_mm: 16, through: false, thread: { pitch_mm: 1.25 } })],
      tappingOperation,
      "tapping",
    );
    const [cycle] = cycles(op);
    assert.equal(cycle?.cycle, "tap");
    assert.equal(cycle?.feed, op.parameters.spindle_rpm * 1.25);
    assert.equal(cycle?.retract_z, TAP_R_PLANE_CLEARANCE_MM);
    near(cycle?.bottom_z ?? 0, -(16 - 1.25));
    assertSafe(op);
  });
});

describe("holes in a setup", () => {
  const stock = { min: [0, 0, 0], max: [60, 40, 20] } as {
    min: [number, number, number];
    max: [number, number, number];
  };
  const feature = (
    direction: [number, number, number],
    origin: [number, number, number],
    counterbore = false,
  ): Feature => ({
    id: 6,
    class: "through_hole",
    faces: [3],
    access_direction: direction,
    other_access_directions: [],
    depth_mm: 20,
    floor_faces: [],
    wall_faces: [3],
    min_internal_corner_radius_mm: null,
    min_width_mm: 8,
    open_sides: [],
    reasons: [],
    hole: {
      diameter_mm: 8,
      depth_mm: 20,
      through: true,
      ...(counterbore ? { counterbore: { diameter_mm: 14, depth_mm: 8 } } : {}),
      axis: { origin, direction },
    },
  });

  it("puts a hole entering the top at its axis with the entrance at the work offset's z", () => {
    const result = holeInSetup(feature([0, 0, 1], [15, 12, 20]), setupFrame([0, 0, 1], stock));
    assert.ok(result.ok);
    assert.deepEqual([result.hole.at, result.hole.top_z], [[15, 12], 0]);
  });

  it("makes a plain through hole from its far end when that faces the tool, but not a counterbored one", () => {
    const frame = setupFrame([0, 0, -1], stock);
    const result = holeInSetup(feature([0, 0, 1], [15, 12, 20]), frame);
    assert.ok(result.ok);
    // turned about X: y flips; the far end (the bottom face) is now the top
    assert.deepEqual([result.hole.at[0], result.hole.at[1], result.hole.top_z], [15, 28, 0]);
    const counterbored = holeInSetup(feature([0, 0, 1], [15, 12, 20], true), frame);
    assert.ok(!counterbored.ok && counterbored.code === "entrance_faces_away");
    const sideways = holeInSetup(feature([1, 0, 0], [60, 12, 10]), setupFrame([0, 0, 1], stock));
    assert.ok(!sideways.ok && sideways.code === "axis_not_along_tool");
  });
});
