import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype } from "../machines/archetypes.ts";
import { displaySeconds, moveLength, operationTime, setupMachiningTime, toolChanges } from "./machining-time.ts";
import type { Cutter, CuttingParameters, Move, Operation } from "./types.ts";

const vmc = findMachineArchetype("vmc-850-fanuc");
if (!vmc) throw new Error("no vmc-850-fanuc");
const near = (actual: number, expected: number, tolerance = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);

function cutter(uuid: string): Cutter {
  return {
    kind: "flat",
    assembly_uuid: uuid,
    name: `tool ${uuid}`,
    tool_type: "CentreCuttingEndMill",
    diameter: 10,
    corner_radius: 0,
    tip_angle_deg: null,
    tip_diameter: 0,
    chamfer_angle_deg: null,
    pitch_mm: null,
    flute_length: 20,
    max_stepdown: 20,
    neck_diameter: 0,
    neck_length: 0,
    shank_diameter: 10,
    stick_out: 40,
    flutes: 3,
    centre_cutting: true,
    tool_material: "carbide",
    holder: [],
  };
}

const parameters: CuttingParameters = {
  spindle_rpm: 8000,
  feed_mm_min: 500,
  plunge_feed_mm_min: 150,
  stepdown_mm: 5,
  stepover_mm: 4,
  allowance_xy_mm: 0,
  allowance_z_mm: 0,
  coolant: "flood",
};

function operation(id: string, tool: string, moves: Move[], clearance = 0): Operation {
  return { id, kind: "contour", name: id, features: [], tool: cutter(tool), parameters, clearance_z: clearance, moves };
}

const square: Move[] = [
  { kind: "rapid", to: [0, 0, 0] },
  { kind: "linear", to: [50, 0, 0], feed: 500 },
  { kind: "linear", to: [50, 50, 0], feed: 500 },
  { kind: "linear", to: [0, 50, 0], feed: 500 },
  { kind: "linear", to: [0, 0, 0], feed: 500 },
];

describe("machining time", () => {
  it("takes a 200 mm square at 500 mm/min exactly 24 s, and a 30 mm rapid at 30 m/min 0.06 s", () => {
    const t = operationTime(operation("a", "A", [...square, { kind: "rapid", to: [0, 0, 30] }]), vmc);
    assert.equal(t.feed_length_mm, 200);
    assert.equal(t.cutting_s, 24);
    assert.equal(t.rapid_length_mm, 30);
    near(t.rapid_s, 0.06);
    near(t.total_s, 24.06);
    assert.deepEqual(t.end, [0, 0, 30]);
  });

  it("measures a full circle in two half arcs as 2 pi r and a helical turn as its true length", () => {
    const halves: Move[] = [
      { kind: "arc", to: [-10, 0, 0], centre: [0, 0], clockwise: false, feed: 100 },
      { kind: "arc", to: [10, 0, 0], centre: [0, 0], clockwise: false, feed: 100 },
    ];
    const t = operationTime(operation("c", "A", [{ kind: "rapid", to: [10, 0, 0] }, ...halves]), vmc);
    near(t.feed_length_mm, 20 * Math.PI);
    near(t.cutting_s, ((20 * Math.PI) / 100) * 60);
    // one turn ending where it started is a full turn, dropping 2 mm
    near(
      moveLength([10, 0, 0], { kind: "arc", to: [10, 0, -2], centre: [0, 0], clockwise: true, feed: 100 }),
      Math.hypot(20 * Math.PI, 2),
    );
    // a quarter clockwise from +x ends at -y
    near(
      moveLength([10, 0, 0], { kind: "arc", to: [0, -10, 0], centre: [0, 0], clockwise: true, feed: 100 }),
      5 * Math.PI,
    );
  });

  it("expands a peck cycle: 13 mm of feed and 49 mm of rapids for a 10 mm hole in 4 mm pecks from R 2, clearance 5", () => {
    const cycle: Move = {
      kind: "drill",
      cycle: "peck",
      at: [[0, 0]],
      retract_z: 2,
      top_z: 0,
      bottom_z: -10,
      peck_mm: 4,
      dwell_s: 0,
      feed: 100,
    };
    const t = operationTime(
      operation("d", "A", [{ kind: "rapid", to: [0, 0, 5] }, cycle, { kind: "rapid", to: [0, 0, 5] }], 5),
      vmc,
    );
    // feeds 2 to -4, -3.5 to -8, -7.5 to -10; rapids 5 to 2, out and back in twice, out, up to 5
    assert.equal(t.feed_length_mm, 13);
    near(t.cutting_s, 7.8);
    assert.equal(t.rapid_length_mm, 3 + 6 + 5.5 + 10 + 9.5 + 12 + 3);
  });

  it("taps in and out at the feed and counts a dwell", () => {
    const tap: Move = {
      kind: "drill",
      cycle: "tap",
      at: [[0, 0]],
      retract_z: 5,
      top_z: 0,
      bottom_z: -10,
      peck_mm: null,
      dwell_s: 0.5,
      feed: 300,
    };
    const t = operationTime(operation("t", "A", [{ kind: "rapid", to: [0, 0, 5] }, tap], 5), vmc);
    assert.equal(t.feed_length_mm, 30);
    near(t.cutting_s, 6);
    assert.equal(t.dwell_s, 0.5);
  });

  it("counts a tool change for the first tool and for every change of assembly: A A B A is 3 changes, 16.5 s on the VMC 850", () => {
    const ops = [
      operation("1", "A", square),
      operation("2", "A", square),
      operation("3", "B", square),
      operation("4", "A", square),
    ];
    assert.equal(toolChanges(ops), 3);
    const setup = setupMachiningTime(ops, vmc);
    assert.equal(setup.tool_changes, 3);
    near(setup.tool_change_s, 3 * 5.5);
    near(setup.total_s, 4 * 24 + 16.5);
  });

  it("counts the rapid from one operation's end to the next's start when the tool stays", () => {
    const moved = operation("2", "A", [
      { kind: "rapid", to: [0, 40, 0] },
      { kind: "linear", to: [50, 40, 0], feed: 500 },
    ]);
    const setup = setupMachiningTime([operation("1", "A", square), moved], vmc);
    assert.equal(setup.operations[1]?.rapid_length_mm, 40);
    // after a tool change it starts at its first position
    assert.equal(
      setupMachiningTime([operation("1", "A", square), { ...moved, tool: cutter("B") }], vmc).operations[1]
        ?.rapid_length_mm,
      0,
    );
  });

  it("rounds to a tenth of a second only for display", () => {
    assert.equal(displaySeconds(24.06), 24.1);
    assert.equal(displaySeconds(12.34), 12.3);
  });
});
