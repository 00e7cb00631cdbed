/**
 * Setup planning on parts built with OCCT: a pocket on top needs one setup (+Z), pockets on top
 * and bottom two, and the underside of a T-slot's lips is reported unreachable, not dropped.
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
import type { SetupPlan } from "./types.ts";

const oc = await loadOpenCascade();

function plan(build: (scope: OcctScope) => TopoDS_Shape): { analysis: PartAnalysis; plan: SetupPlan } {
  return withOcctScope((scope) => {
    const shape = build(scope);
    const analysis = analyseSolid(oc, shape);
    const recognition = recogniseFeatures(analysis);
    return { analysis, plan: planSetups(analysis, recognition, tessellate(oc, shape, 60).mesh) };
  });
}

function faceWithNormal(analysis: PartAnalysis, normal: [number, number, number], z: number): number[] {
  return analysis.faces
    .filter((f) => f.normal !== null && f.normal.every((c, i) => Math.abs(c - normal[i]!) < 1e-9) && Math.abs(f.centroid[2] - z) < 1e-6)
    .map((f) => f.id);
}

describe("setup planning", () => {
  it("machines a block with a pocket on top in one setup, from +Z", () => {
    const { plan: result } = plan((scope) => parts.pocketOnTop(oc, scope));
    assert.deepEqual(result.setups.map((s) => s.name), ["+Z"]);
    assert.deepEqual(result.setups[0]?.faces.length, 5);
    assert.deepEqual(result.unreachable_faces, []);
    assert.deepEqual(result.feature_access, [{ feature: 0, directions: ["+Z"] }]);
  });

  it("needs two setups, +Z and -Z, for pockets on top and bottom", () => {
    const { plan: result } = plan((scope) => parts.pocketsTopAndBottom(oc, scope));
    assert.deepEqual(result.setups.map((s) => s.name).sort(), ["+Z", "-Z"]);
    assert.deepEqual(result.unreachable_faces, []);
    assert.deepEqual(result.feature_access.map((a) => a.directions), [["+Z"], ["-Z"]]);
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
    assert.deepEqual(result.setups.map((s) => s.name), ["+Z"]);
    assert.ok(result.feature_access.some((a) => a.directions.includes("+Z") && a.directions.includes("-Z")), JSON.stringify(result.feature_access));
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
    for (const hole of blind) assert.ok(made.has(hole.id), `blind hole ${hole.id} (${hole.hole?.diameter_mm} mm) is made in no setup`);
  });
});
