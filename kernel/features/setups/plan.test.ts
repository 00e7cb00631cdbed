/**
 * Setup planning on parts built with OCCT: a pocket on top needs one setup (+Z), pockets on top
 * and bottom two, and the underside of a T-slot's lips is reported unreachable, not dropped.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TopoDS_Shape } from "opencascade.js/dist/node.js";
import { withOcctScope, type OcctScope } from "../../geometry/occt-scope.ts";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { tessellate } from "../../geometry/tessellate.ts";
import { analyseSolid } from "../analyse-brep.ts";
import { recogniseFeatures } from "../recognition/recognise.ts";
import * as parts from "../recognition/test-parts.ts";
import type { PartAnalysis } from "../types.ts";
import { planSetups } from "./plan.ts";
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
});
