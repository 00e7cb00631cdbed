import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype } from "../../machines/archetypes.ts";
import { cuttingParametersFor } from "../tooling/feeds.ts";
import { cutterOf } from "../tooling/test-library.ts";
import type { Move, Vec3 } from "../types.ts";
import { BREAKTHROUGH_MM, R_PLANE_CLEARANCE_MM } from "./depths.ts";
import {
  boreForHole,
  counterboreFor,
  HELIX_RAMP_DEG,
  helicalBoringOperation,
  helixPitch,
  internalArcFeed,
  ringRadii,
} from "./helical.ts";
import type { SetupHole } from "./setup-hole.ts";

const vmc = findMachineArchetype("vmc-850-fanuc");
if (!vmc) throw new Error("no vmc-850-fanuc");
const near = (actual: number, expected: number, tolerance = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);
const endMill10 = cutterOf("SSR-EM3-1000-K-TA");
const parameters = cuttingParametersFor(endMill10, "steel-c45", vmc, "helical_boring").parameters;

const hole: SetupHole = {
  feature_id: 3,
  at: [20, 15],
  top_z: -2,
  diameter_mm: 11.3,
  depth_mm: 12,
  through: true,
  drill_point_angle_deg: null,
  counterbore: null,
  countersink: null,
  thread: null,
};

/** The moves with the position each starts from. */
function walk(moves: Move[], start: Vec3): { from: Vec3; move: Move }[] {
  let here = start;
  return moves.map((move) => {
    const from = here;
    if (move.kind !== "drill") here = move.to;
    return { from, move };
  });
}

describe("helical boring", () => {
  it("bores an 11.3 mm through hole with a 10 mm end mill: half-turn arcs on a 0.65 mm orbit down to 1 mm past the exit, a circle at the bottom, out through the centre", () => {
    const op = helicalBoringOperation({
      id: "s0-op2",
      cutter: endMill10,
      parameters,
      bores: [boreForHole(hole)],
      clearance_z: 10,
    });
    const bottom = -2 - 12 - BREAKTHROUGH_MM;
    const arcs = op.moves.filter((m): m is Extract<Move, { kind: "arc" }> => m.kind === "arc");
    for (const arc of arcs) {
      assert.deepEqual(arc.centre, [20, 15]);
      near(Math.hypot(arc.to[0] - 20, arc.to[1] - 15), 0.65, 1e-9);
      assert.equal(arc.clockwise, false);
    }
    const pitch = helixPitch(endMill10, parameters, 11.3);
    assert.ok(
      pitch <= Math.PI * 11.3 * Math.tan((HELIX_RAMP_DEG * Math.PI) / 180) + 1e-12 &&
        pitch <= parameters.stepdown_mm &&
        pitch <= endMill10.max_stepdown,
    );
    const steps = walk(op.moves, [0, 0, 10]).filter((s) => s.move.kind === "arc");
    for (const { from, move } of steps)
      assert.ok(from[2] - (move as { to: Vec3 }).to[2] <= pitch / 2 + 1e-9, "a half turn drops at most half the pitch");
    // the last two arcs: a full circle at the bottom
    assert.deepEqual(
      arcs.slice(-2).map((a) => a.to[2]),
      [bottom, bottom],
    );
    assert.equal(arcs.length % 2, 0);
    const last = op.moves.slice(-3);
    assert.deepEqual(last, [
      { kind: "linear", to: [20, 15, bottom], feed: internalArcFeed(parameters.feed_mm_min, 0.65, 10) },
      { kind: "rapid", to: [20, 15, -2 + R_PLANE_CLEARANCE_MM] },
      { kind: "rapid", to: [20, 15, 10] },
    ]);
    assert.deepEqual(op.moves.slice(0, 3), [
      { kind: "rapid", to: [20.65, 15, 10] },
      { kind: "rapid", to: [20.65, 15, 0] },
      { kind: "linear", to: [20.65, 15, -1.5], feed: parameters.plunge_feed_mm_min },
    ]);
    assert.equal(op.kind, "helical_boring");
  });

  it("slows the tool centre on a small orbit so the edge feeds at the table's rate: 0.65 / 5.65 of it", () => {
    near(internalArcFeed(1000, 0.65, 10), Math.round(((1000 * 0.65) / 5.65) * 10) / 10);
  });

  it("clears a 20 mm bore from solid with a 6 mm end mill in rings inside out, at most the stepover apart", () => {
    const rings = ringRadii(20, 6, 0, 2.4);
    assert.equal(rings[rings.length - 1], 7);
    // the first ring's cut reaches past the centre by 5 % of the tool
    near(rings[0] ?? 0, 3 - 0.3);
    for (let i = 1; i < rings.length; i++) assert.ok((rings[i] as number) - (rings[i - 1] as number) <= 2.4 + 1e-9);
    const single = ringRadii(11.3, 10, 0, 4);
    assert.equal(single.length, 1);
    near(single[0] ?? 0, 0.65, 1e-12);
  });

  it("counterbores 11 mm, 6.4 mm deep around a 6.6 mm hole in one orbit of an 8 mm end mill", () => {
    const cb = counterboreFor({ ...hole, diameter_mm: 6.6, counterbore: { diameter_mm: 11, depth_mm: 6.4 } });
    assert.ok(cb);
    assert.deepEqual([cb.bottom_z, cb.pilot_diameter_mm], [-8.4, 6.6]);
    assert.deepEqual(ringRadii(11, 8, 6.6, 3), [1.5]);
    const endMill8 = cutterOf("SSR-EM3-0800-K-TA");
    const op = helicalBoringOperation({
      id: "s0-op3",
      cutter: endMill8,
      parameters: cuttingParametersFor(endMill8, "steel-c45", vmc, "helical_boring").parameters,
      bores: [cb],
      clearance_z: 10,
    });
    assert.match(op.name, /^Helical boring 1 counterbore \(feature 3\)/);
  });

  it("refuses a drill or a tool as wide as the bore", () => {
    assert.throws(
      () =>
        helicalBoringOperation({
          id: "x",
          cutter: cutterOf("SSR-DR338-1000-HSS"),
          parameters,
          bores: [boreForHole(hole)],
          clearance_z: 10,
        }),
      /not a centre-cutting flat end mill/,
    );
    assert.throws(() => ringRadii(10, 10, 0, 4), /cannot bore/);
  });
});
