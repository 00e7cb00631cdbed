/**
 * Carving drilled holes out of the part before verification (carve-holes.ts) takes the hole the
 * tool makes, never more: a bore that goes past a floor or shoulder of the model gouges it, also
 * when the hole's recorded depth says it may; a drill up to its tolerance over the hole's
 * diameter, through the mesh's chords, does not. Parts made with OCCT and meshed as the planner
 * meshes them; operations from holes/.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TopoDS_Shape } from "opencascade.js/dist/node.js";
import { cut, fuse, makeBox, makeCylinder } from "../../features/test-support.ts";
import { withOcctScope, type OcctScope } from "../../geometry/occt-scope.ts";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { tessellate } from "../../geometry/tessellate.ts";
import { drillingOperation, spotDrillingOperation } from "../holes/drilling.ts";
import { boreForHole, counterboreFor, helicalBoringOperation } from "../holes/helical.ts";
import type { SetupHole } from "../holes/setup-hole.ts";
import { partHeights } from "../simulation/part-heights.ts";
import { stockGrid } from "../simulation/height-field.ts";
import { cutter } from "../simulation/test-support.ts";
import type { Box3, CuttingParameters, Operation, TriangleSoup } from "../types.ts";
import { carveHoles } from "./carve-holes.ts";
import { CUTTING_MESH_DEFLECTION_MM } from "./read-part.ts";
import { SetupVerifier } from "./verify.ts";

const oc = await loadOpenCascade();

const parameters: CuttingParameters = {
  spindle_rpm: 8000,
  feed_mm_min: 800,
  plunge_feed_mm_min: 200,
  stepdown_mm: 2,
  stepover_mm: 8,
  allowance_xy_mm: 0,
  allowance_z_mm: 0,
  coolant: "flood",
};

/** The part as the planner meshes it; built in the setup's frame (+Z the tool axis, top at z 0). */
function soupOf(build: (scope: OcctScope) => TopoDS_Shape): TriangleSoup {
  return withOcctScope((scope) => {
    const { mesh } = tessellate(oc, build(scope), 100, { linearDeflectionMm: CUTTING_MESH_DEFLECTION_MM });
    return { positions: mesh.positions, indices: mesh.indices };
  });
}

/**
 * A 60 x 50 plate 10 thick with a 25 mm through hole at (40, 25), over a floor `gap` below it
 * (the two joined by a wall at x 0..10): through the hole a tool coming from +Z sees the floor.
 */
function plateOverFloor(gap: number): { stock: Box3; soup: TriangleSoup } {
  const bottom = -10 - gap - 10;
  const soup = soupOf((scope) => {
    let part = makeBox(oc, scope, [60, 50, 10], [0, 0, -10]);
    part = fuse(oc, scope, part, makeBox(oc, scope, [60, 50, 10], [0, 0, bottom]));
    part = fuse(oc, scope, part, makeBox(oc, scope, [10, 50, -bottom], [0, 0, bottom]));
    return cut(oc, scope, part, makeCylinder(oc, scope, [40, 25, -10 - gap / 2], [0, 0, 1], 12.5, 11 + gap));
  });
  return { stock: { min: [0, 0, bottom], max: [60, 50, 0] }, soup };
}

const throughHole: SetupHole = {
  feature_id: 1,
  at: [40, 25],
  top_z: 0,
  diameter_mm: 25,
  depth_mm: 10,
  through: true,
  drill_point_angle_deg: null,
  counterbore: null,
  countersink: null,
  thread: null,
};

/** The verdict on each operation in turn, each on the stock the kept ones left. */
function verdicts(
  setup: { stock: Box3; soup: TriangleSoup },
  holes: SetupHole[],
  operations: Operation[],
): { kept: boolean[]; messages: string[] } {
  const verifier = new SetupVerifier({ name: "+Z", stock: setup.stock, soup: setup.soup, holes });
  const kept = operations.map((operation) => verifier.check(operation));
  return { kept, messages: verifier.result().dropped.map((d) => d.message) };
}

/** The depth of the worst gouge a dropped operation's message names */
function gougeDepth(message: string | undefined): number {
  const match = /gouge the part \(first at [^)]*, ([\d.]+) mm deep\)/.exec(message ?? "");
  assert.ok(match, `no gouge in: ${message}`);
  return Number(match[1]);
}

describe("carving a through hole", () => {
  const endMill = cutter("flat", 20, { flute_length: 40, stick_out: 60 });
  const helical = (id: string, hole: SetupHole) =>
    helicalBoringOperation({ id, cutter: endMill, parameters, bores: [boreForHole(hole)], clearance_z: 5 });

  it("leaves the floor the hole opens onto: a helical bore 1 mm past the exit into a floor 0.48 mm under it gouges it by 0.52 mm", () => {
    const { kept, messages } = verdicts(plateOverFloor(0.48), [throughHole], [helical("bore", throughHole)]);
    assert.deepEqual(kept, [false]);
    const depth = gougeDepth(messages[0]);
    assert.ok(Math.abs(depth - 0.52) < 0.02, `${depth} mm deep`);
  });

  it("and a drill's breakthrough into it", () => {
    const drill = cutter("drill", 25.1, { flute_length: 60, stick_out: 90 });
    const { kept, messages } = verdicts(
      plateOverFloor(0.48),
      [throughHole],
      [drillingOperation({ id: "drill", cutter: drill, parameters, holes: [throughHole], clearance_z: 5 })],
    );
    assert.deepEqual(kept, [false], messages.join("; "));
  });

  it("keeps a bore and a drill 0.1 mm over the hole's diameter through it where the floor is out of their reach", () => {
    const drill = cutter("drill", 25.1, { flute_length: 60, stick_out: 90 });
    const far = plateOverFloor(12);
    assert.deepEqual(verdicts(far, [throughHole], [helical("bore", throughHole)]).kept, [true]);
    const drilled = verdicts(
      far,
      [throughHole],
      [drillingOperation({ id: "drill", cutter: drill, parameters, holes: [throughHole], clearance_z: 5 })],
    );
    assert.deepEqual(drilled.kept, [true], drilled.messages.join("; "));
  });
});

describe("carving a counterbored hole", () => {
  // a 60 x 50 x 30 block, a 10 mm through hole at (30, 25) counterbored 26 mm, 6 deep
  const block = {
    stock: { min: [0, 0, -30], max: [60, 50, 0] } as Box3,
    soup: soupOf((scope) => {
      let part = makeBox(oc, scope, [60, 50, 30], [0, 0, -30]);
      part = cut(oc, scope, part, makeCylinder(oc, scope, [30, 25, -31], [0, 0, 1], 5, 32));
      return cut(oc, scope, part, makeCylinder(oc, scope, [30, 25, -6], [0, 0, 1], 13, 7));
    }),
  };
  const hole = (counterboreDepth: number): SetupHole => ({
    ...throughHole,
    at: [30, 25],
    diameter_mm: 10,
    depth_mm: 30,
    counterbore: { diameter_mm: 26, depth_mm: counterboreDepth },
  });
  const spot = cutter("drill", 12, { tip_angle_deg: 90, tool_type: "SpotDrill" });
  const drill = cutter("drill", 10.1, { stick_out: 80, flute_length: 45 });
  const endMill = cutter("flat", 20, { flute_length: 40, stick_out: 60 });
  // in the planner's order (hole-operations.ts): spot, drill, counterbore
  const operations = (made: SetupHole): Operation[] => [
    spotDrillingOperation({
      id: "spot",
      cutter: spot,
      parameters,
      holes: [made],
      clearance_z: 5,
      drill_diameter_mm: 10.1,
    }),
    drillingOperation({ id: "drill", cutter: drill, parameters, holes: [made], clearance_z: 5 }),
    helicalBoringOperation({
      id: "counterbore",
      cutter: endMill,
      parameters,
      bores: [counterboreFor(made) as NonNullable<ReturnType<typeof counterboreFor>>],
      clearance_z: 5,
    }),
  ];

  it("keeps the spot, the drill 0.1 mm over and the counterbore to its floor", () => {
    const { kept, messages } = verdicts(block, [hole(6)], operations(hole(6)));
    assert.deepEqual(kept, [true, true, true], messages.join("; "));
  });

  it("leaves the model's shoulder where the hole's counterbore is recorded 0.5 mm deeper than the model's: the counterbore gouges it", () => {
    const deeper = hole(6.5);
    const { kept, messages } = verdicts(block, [deeper], operations(deeper));
    assert.deepEqual(kept, [true, true, false], messages.join("; "));
    const depth = gougeDepth(messages[0]);
    assert.ok(Math.abs(depth - 0.5) < 0.02, `${depth} mm deep`);
  });
});

describe("carving a blind hole", () => {
  // a 40 x 40 x 30 block with a flat-bottomed 12 mm hole 15 deep at (20, 20)
  const block = {
    stock: { min: [0, 0, -30], max: [40, 40, 0] } as Box3,
    soup: soupOf((scope) =>
      cut(
        oc,
        scope,
        makeBox(oc, scope, [40, 40, 30], [0, 0, -30]),
        makeCylinder(oc, scope, [20, 20, -15], [0, 0, 1], 6, 16),
      ),
    ),
  };
  const hole = (depth: number): SetupHole => ({
    ...throughHole,
    at: [20, 20],
    diameter_mm: 12,
    depth_mm: depth,
    through: false,
  });
  const bore = (made: SetupHole) =>
    helicalBoringOperation({
      id: "bore",
      cutter: cutter("flat", 8, { flute_length: 24, stick_out: 40 }),
      parameters,
      bores: [boreForHole(made)],
      clearance_z: 5,
    });

  it("keeps a bore to the model's bottom and drops one to a recorded depth past it", () => {
    assert.deepEqual(verdicts(block, [hole(15)], [bore(hole(15))]).kept, [true]);
    const { kept, messages } = verdicts(block, [hole(15.3)], [bore(hole(15.3))]);
    assert.deepEqual(kept, [false]);
    assert.ok(Math.abs(gougeDepth(messages[0]) - 0.3) < 0.02, messages[0]);
  });

  it("lowers only the ring between the mesh's chords and the drill's tolerance, never the model inside the hole", () => {
    const grid = stockGrid(block.stock, 0.1);
    const part = partHeights(grid, block.soup);
    const before = part.heights.slice();
    carveHoles(grid, part, [hole(15.3)]);
    let ring = 0;
    for (let cell = 0; cell < before.length; cell += 1) {
      const x = grid.x0 + ((cell % grid.nx) + 0.5) * grid.dx - 20;
      const y = grid.y0 + (Math.floor(cell / grid.nx) + 0.5) * grid.dy - 20;
      const r = Math.hypot(x, y);
      const [was, now] = [before[cell] as number, part.heights[cell] as number];
      if (r < 6 - CUTTING_MESH_DEFLECTION_MM) assert.equal(now, was, `inside the hole at r ${r}`);
      else if (now !== was) {
        ring += 1;
        assert.ok(r <= 6 + 0.06 + 0.1 + 1e-9, `carved at r ${r}, outside the hole's tolerance and edge break`);
        // the ring goes no deeper than the model's bottom, whatever depth the hole records
        assert.ok(now >= -15 - 1e-4, `carved to ${now} at r ${r}`);
      }
    }
    assert.ok(ring > 0, "the ring was carved");
  });
});
