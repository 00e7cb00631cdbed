/**
 * Setup planning on parts built with OCCT: a pocket on top needs one setup (+Z), pockets on top
 * and bottom two, and the underside of a T-slot's lips is reported unreachable, not dropped; a
 * direction that cannot be set up is left out and the setups chosen again without it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TopoDS_Shape } from "opencascade.js/dist/node.js";
import { withOcctScope, type OcctScope } from "../../geometry/occt-scope.ts";
import { fixture } from "../../geometry/test-support.ts";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { tessellate } from "../../geometry/tessellate.ts";
import { analyseSolid } from "../analyse-brep.ts";
import { recogniseFeatures } from "../recognition/recognise.ts";
import * as parts from "../recognition/test-parts.ts";
import type { PartAnalysis } from "../types.ts";
import { planSetups } from "./plan.ts";
import { recogniseFile } from "./recognise-file.ts";
import type { SetupOptions, SetupPlan } from "./types.ts";
import { cut, makeBox } from "../test-support.ts";

const oc = await loadOpenCascade();

function plan(
  build: (scope: OcctScope) => TopoDS_Shape,
  options: SetupOptions = {},
): { analysis: PartAnalysis; plan: SetupPlan } {
  return withOcctScope((scope) => {
    const shape = build(scope);
    const analysis = analyseSolid(oc, shape);
    const recognition = recogniseFeatures(analysis);
    return { analysis, plan: planSetups(analysis, recognition, tessellate(oc, shape, 60).mesh, options) };
  });
}

/** A 40 x 40 x 20 block with a step along its top +X edge (x 30 to 40, 6 deep) and a pocket in its +X side below the step. */
function steppedBlock(scope: OcctScope): TopoDS_Shape {
  let part = makeBox(oc, scope, [40, 40, 20]);
  part = cut(oc, scope, part, makeBox(oc, scope, [11, 42, 7], [30, -1, 14]));
  return cut(oc, scope, part, makeBox(oc, scope, [5, 10, 6], [36, 15, 4]));
}

const TOO_LONG = "the stock is 45 mm along the tool axis, the machine's Z travel is 30 mm";
const without = (...names: string[]): SetupOptions => ({
  excluded: (candidate) => (names.includes(candidate.name) ? TOO_LONG : null),
});

function faceWithNormal(analysis: PartAnalysis, normal: [number, number, number], z: number): number[] {
  return analysis.faces
    .filter((f) => f.normal?.every((c, i) => Math.abs(c - normal[i]!) < 1e-9) && Math.abs(f.centroid[2] - z) < 1e-6)
    .map((f) => f.id);
}

describe("setup planning", () => {
  it("machines a block with a pocket on top in one setup, from +Z", () => {
    const { plan: result } = plan((scope) => parts.pocketOnTop(oc, scope));
    assert.deepEqual(
      result.setups.map((s) => s.name),
      ["+Z"],
    );
    assert.deepEqual(result.setups[0]?.faces.length, 5);
    assert.deepEqual(result.unreachable_faces, []);
    assert.deepEqual(result.feature_access, [{ feature: 0, directions: ["+Z"] }]);
  });

  it("needs two setups, +Z and -Z, for pockets on top and bottom", () => {
    const { plan: result } = plan((scope) => parts.pocketsTopAndBottom(oc, scope));
    assert.deepEqual(result.setups.map((s) => s.name).sort(), ["+Z", "-Z"]);
    assert.deepEqual(result.unreachable_faces, []);
    assert.deepEqual(
      result.feature_access.map((a) => a.directions),
      [["+Z"], ["-Z"]],
    );
  });

  it("reports the undersides of a closed T-slot's lips as unreachable, with the reason for each direction", () => {
    const { analysis, plan: result } = plan((scope) => parts.tSlotBlock(oc, scope));
    const lips = faceWithNormal(analysis, [0, 0, -1], 10);
    assert.equal(lips.length, 2);
    for (const lip of lips) {
      const entry = result.unreachable_faces.find((u) => u.face === lip);
      assert.ok(entry, `lip face ${lip} is not reported: ${JSON.stringify(result.unreachable_faces)}`);
      assert.match(entry.reason, /\+Z: undercut/);
      assert.match(entry.reason, /-Z: hidden behind face/);
    }
    // the narrow slot's walls are reached from +Z
    assert.ok(result.setups.some((s) => s.name === "+Z"));
  });

  it("reaches the holes of a drilled plate from +Z alone, and a through hole from both ends", () => {
    const { plan: result } = plan((scope) => parts.holePlate(oc, scope));
    assert.deepEqual(
      result.setups.map((s) => s.name),
      ["+Z"],
    );
    assert.ok(
      result.feature_access.some((a) => a.directions.includes("+Z") && a.directions.includes("-Z")),
      JSON.stringify(result.feature_access),
    );
  });

  it("reaches a drill point's cone from the hole's own axis, though the cone's apex tessellates into slivers turned against it (NIST FTC-10's seven blind holes)", () => {
    const file = recogniseFile(oc, fixture("nist_ftc_10_asme1_ap242-e2.stp"), { budgetMs: 30_000 });
    const setups = file.setups as SetupPlan;
    // each drill point was read as partly undercut from every direction: 1e-6 mm² triangles at
    // its apex, their normals turned away from the hole's axis by rounding
    assert.deepEqual(setups.unreachable_faces, []);
    const made = new Set(setups.setups.flatMap((s) => s.features));
    const blind = file.recognition.features.filter((f) => f.class === "blind_hole");
    assert.ok(blind.length >= 7, `${blind.length} blind holes`);
    for (const hole of blind)
      assert.ok(made.has(hole.id), `blind hole ${hole.id} (${hole.hole?.diameter_mm} mm) is made in no setup`);
  });

  it("leaves out a direction that cannot be set up: what only it reaches is unreachable for that reason, and the setup it would have been is listed", () => {
    const { analysis, plan: result } = plan((scope) => parts.pocketsTopAndBottom(oc, scope), without("-Z", "+X"));
    const bottomFloor = faceWithNormal(analysis, [0, 0, -1], 4);
    assert.deepEqual(
      result.setups.map((s) => s.name),
      ["+Z"],
    );
    assert.deepEqual(
      result.left_out.map((s) => [s.name, s.reason]),
      [["-Z", TOO_LONG]],
      "+X was not needed: not listed",
    );
    const bottomPocket = result.left_out[0]!.faces;
    assert.equal(bottomPocket.length, 5, "the floor and four walls of the bottom pocket");
    assert.ok(bottomFloor.length === 1 && bottomPocket.includes(bottomFloor[0]!));
    assert.deepEqual(result.left_out[0]!.features, [1]);
    for (const face of bottomPocket) {
      const entry = result.unreachable_faces.find((u) => u.face === face);
      assert.ok(entry, `face ${face} of the bottom pocket is not unreachable`);
      assert.match(entry.reason, /-Z: the stock is 45 mm along the tool axis/);
    }
    // a direction the plan does not need changes nothing
    const { plan: unchanged } = plan((scope) => parts.pocketsTopAndBottom(oc, scope), without("+X", "-Y"));
    const { plan: free } = plan((scope) => parts.pocketsTopAndBottom(oc, scope));
    assert.deepEqual({ ...unchanged, timeMs: 0 }, { ...free, timeMs: 0 });
    assert.deepEqual(free.left_out, []);
  });

  it("chooses the setups again without the direction left out: another setup takes what it reaches of its faces", () => {
    const { analysis, plan: full } = plan((scope) => steppedBlock(scope));
    assert.deepEqual(
      full.setups.map((s) => s.name),
      ["+X"],
      "+X reaches the step and the side pocket",
    );
    const { plan: result } = plan((scope) => steppedBlock(scope), without("+X"));
    assert.deepEqual(
      result.left_out.map((s) => s.name),
      ["+X"],
    );
    assert.equal(result.setups.length, 1);
    const [setup] = result.setups;
    assert.notEqual(setup?.name, "+X");
    const stepFloor = faceWithNormal(analysis, [0, 0, 1], 14);
    assert.equal(stepFloor.length, 1);
    assert.ok(setup?.faces.includes(stepFloor[0]!), `the step's floor goes to ${setup?.name}`);
    assert.ok(!result.unreachable_faces.some((u) => u.face === stepFloor[0]), "the step stays reachable");
    const sidePocketFloor = analysis.faces
      .filter((f) => f.normal !== null && f.normal[0] > 0.99 && Math.abs(f.centroid[0] - 36) < 1e-6)
      .map((f) => f.id);
    assert.equal(sidePocketFloor.length, 1);
    assert.match(
      result.unreachable_faces.find((u) => u.face === sidePocketFloor[0])?.reason ?? "",
      /\+X: the stock is 45 mm/,
    );
  });
});
