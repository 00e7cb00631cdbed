import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Operation } from "../types.ts";
import { ARC_CHORD_SAGITTA_MM, MOVE_CLASS, operationPolyline } from "./toolpath-polyline.ts";

const base = {
  id: "s0-op0",
  kind: "roughing",
  name: "Roughing",
  features: [],
  clearance_z: 10,
} as const;

function operation(moves: Operation["moves"]): Operation {
  return { ...base, moves } as unknown as Operation;
}

describe("an operation's moves as a polyline", () => {
  it("classes rapids, plunges, ramps and feeds by how they move", () => {
    const line = operationPolyline(
      operation([
        { kind: "rapid", to: [0, 0, 2] },
        { kind: "linear", to: [0, 0, -1], feed: 100 },
        { kind: "linear", to: [5, 0, -2], feed: 100 },
        { kind: "linear", to: [10, 0, -2], feed: 500 },
        { kind: "linear", to: [10, 0, 0], feed: 500 },
      ]),
    );
    assert.deepEqual(
      [...line.classes],
      [MOVE_CLASS.start, MOVE_CLASS.rapid, MOVE_CLASS.plunge, MOVE_CLASS.ramp, MOVE_CLASS.feed, MOVE_CLASS.feed],
    );
    assert.deepEqual([...line.positions.subarray(0, 3)], [0, 0, 10], "from the first move's point at clearance");
    assert.deepEqual([...line.moves], [0, 0, 1, 2, 3, 4]);
  });

  it("draws an arc as chords on it, no further from it than the tolerance", () => {
    const radius = 20;
    const line = operationPolyline(
      operation([
        { kind: "rapid", to: [radius, 0, 0] },
        { kind: "arc", to: [-radius, 0, 0], centre: [0, 0], clockwise: false, feed: 300 },
      ]),
    );
    const arc = [...line.classes.keys()].filter((i) => line.classes[i] === MOVE_CLASS.arc);
    assert.ok(arc.length > 10, `a half turn of r ${radius} in ${arc.length} chords`);
    for (const i of arc) {
      const x = line.positions[3 * i] as number;
      const y = line.positions[3 * i + 1] as number;
      assert.ok(Math.abs(Math.hypot(x, y) - radius) < 1e-4, "every point on the circle");
      assert.ok(y >= -1e-4, "counter-clockwise from +X to -X goes through +Y");
      const px = line.positions[3 * i - 3] as number;
      const py = line.positions[3 * i - 2] as number;
      const chord = Math.hypot(x - px, y - py);
      // sagitta of a chord c on a circle of radius r: r - sqrt(r^2 - c^2/4)
      assert.ok(radius - Math.sqrt(radius ** 2 - chord ** 2 / 4) <= ARC_CHORD_SAGITTA_MM + 1e-6);
    }
  });

  it("expands a drill cycle into the moves of each hole", () => {
    const line = operationPolyline(
      operation([
        {
          kind: "drill",
          cycle: "drill",
          at: [
            [0, 0],
            [10, 0],
          ],
          retract_z: 2,
          top_z: 0,
          bottom_z: -5,
          peck_mm: null,
          dwell_s: 0,
          feed: 100,
        },
      ]),
    );
    const bottoms = [...line.classes.keys()].filter(
      (i) => line.classes[i] === MOVE_CLASS.drill && line.positions[3 * i + 2] === -5,
    );
    assert.equal(bottoms.length, 2, "down to the bottom in each hole");
  });
});
