/**
 * Pencil finishing on NIST STC-06's own triangles, in its +Z setup: the sharp valley round the
 * top dome's foot the planner's 6 mm ball leaves, and the R3.175 fillet at a boss's foot finished
 * with an 8 mm ball (which does not fit it), the part cut off above the boss's wall so the balls
 * reach it. The rest is measured by the simulation before and after the pencil passes.
 *
 * Heavy: reading the part takes 5 to 10 s, each case 20 to 40 s.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { starterLibrary } from "../../tools/catalogue/starter-library.ts";
import { createSlicer } from "../milling/slicer.ts";
import { InProcessStock } from "../milling/stock.ts";
import { pencilTool } from "../planner/pencil-step.ts";
import { surfaceFinishingStep } from "../planner/surface-finishing-step.ts";
import { fixtureSetups } from "../planner/test-support.ts";
import { restLeft } from "../simulation/rest-left.ts";
import { simulateSetup } from "../simulation/simulate.ts";
import { cuttersFromLibrary } from "../tooling/cutter.ts";
import { wallReach } from "../cutter-shape.ts";
import { cuttingParametersFor } from "../tooling/feeds.ts";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import type { Box3, Cutter, Operation, TriangleSoup, Vec2 } from "../types.ts";
import { surfaceCutter } from "./cutters.ts";
import { DropCutter } from "./drop-cutter.ts";
import { pencilFinishing, soupBox } from "./pencil-finishing.ts";
import { restAreas } from "./rest-areas.ts";
import { facesSoup, surfaceFinishing } from "./surface-finishing.ts";

const SCALLOP_MM = 0.01;
/** the aim: the scallop target plus this (mm) */
const SCALLOP_SLACK_MM = 0.005;
/** how far round a valley's point the rest is measured (mm) */
const WITHIN_MM = 0.5;

const oc = await loadOpenCascade();
const setup = fixtureSetups(oc, "nist_stc_06_asme1_ap242-e3.stp").find((s) => s.name === "+Z");
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const { cutters } = cuttersFromLibrary(starterLibrary());

interface Case {
  part: TriangleSoup;
  triangleFaces: Uint32Array;
  faces: number[];
  stock: Box3;
  finishing: Cutter;
}

/** The 3D finishing and the pencil finishing after it, and points along the valleys between them. */
function finishBoth(c: Case) {
  const job = { soup: c.part, part: c.part, triangleFaces: c.triangleFaces, faces: c.faces, scallop_mm: SCALLOP_MM };
  const request = (tool: Cutter) => ({
    part: createSlicer(c.part),
    stock: new InProcessStock(c.stock),
    tool,
    parameters: cuttingParametersFor(tool, "aluminium-6061", machine, "surface_finishing").parameters,
  });
  const pencil = pencilTool(cutters, c.finishing);
  assert.ok(pencil !== null, "a smaller ball");
  const finished = surfaceFinishing(request(c.finishing), job);
  assert.ok(finished.operation, finished.reason ?? "");
  const penciled = pencilFinishing(request(pencil), { ...job, finishing: c.finishing });
  assert.ok(penciled.operation, penciled.reason ?? "");
  // the valleys within the pencil's reach, as the generator finds them
  const faces = facesSoup(job, c.stock.max[2] - wallReach(pencil));
  const areas = restAreas({
    finishing: new DropCutter(c.part, surfaceCutter(c.finishing)),
    pencil: new DropCutter(c.part, surfaceCutter(pencil)),
    faces,
    part: c.part,
    box: boxOf(faces),
    cell: 0.25,
    threshold_mm: SCALLOP_MM,
    least_mm: 0.12,
  });
  // a few points of each valley, spread along it
  const points = areas.flatMap((area) =>
    [0.2, 0.5, 0.8].map((f) => area.cells[Math.floor(f * area.cells.length)] as Vec2),
  );
  return { finishing: finished.operation, pencil: penciled.operation, areas, points, faces };
}

const boxOf = (soup: TriangleSoup) => soupBox(soup.positions, soup.indices);

/** No gouge, rapid through material or holder collision over the faces' region from the stock's box. */
function assertClean(c: Case, operations: Operation[]): void {
  const box = boxOf(facesSoup({ part: c.part, triangleFaces: c.triangleFaces, faces: c.faces }, -Infinity));
  const margin = 10;
  const stock: Box3 = {
    min: [box.minX - margin, box.minY - margin, c.stock.min[2]],
    max: [box.maxX + margin, box.maxY + margin, c.stock.max[2]],
  };
  const run = simulateSetup({ stock, part: c.part, operations, maxDetails: 3 });
  assert.equal(run.total.gouges, 0, JSON.stringify(run.violations));
  assert.equal(run.total.rapids_through_material, 0, JSON.stringify(run.violations));
  assert.equal(run.total.holder_collisions, 0, JSON.stringify(run.violations));
}

/** Every cutting move's end within the pencil's radius and a cell of a valley's cells. */
function assertAlongValleys(operation: Operation, areas: { cells: Vec2[] }[]): void {
  const cells = areas.flatMap((a) => a.cells);
  const reach = operation.tool.diameter / 2 + 0.25 + 1e-6;
  const cuts = operation.moves.flatMap((m) =>
    m.kind === "linear" && m.to[2] < operation.clearance_z - 1 ? [m.to] : [],
  );
  assert.ok(cuts.length > 0);
  // links joined down on the part may run between valleys: most points, not all, lie along them
  const off = cuts.filter((p) => !cells.some((c) => Math.hypot(c[0] - p[0], c[1] - p[1]) <= reach));
  assert.ok(off.length <= 0.05 * cuts.length, `${off.length} of ${cuts.length} cut points away from the valleys`);
}

describe("pencil finishing on NIST STC-06", () => {
  assert.ok(setup, "STC-06 has a +Z setup");

  it("runs a smaller ball round the top dome's sharp foot, where the planner's ball leaves rest", () => {
    const finishing = surfaceFinishingStep(setup, setup.soup, cutters, SCALLOP_MM)?.tool;
    assert.ok(finishing?.kind === "ball", "the planner finishes +Z with a ball");
    const c: Case = {
      part: setup.soup,
      triangleFaces: setup.triangleFaces,
      faces: setup.surfaces.faces,
      stock: setup.stock,
      finishing,
    };
    const made = finishBoth(c);
    assert.ok(made.pencil.tool.diameter <= finishing.diameter / 2);
    assert.match(made.pencil.name, /^Pencil finishing with Ball end mill/);
    assertClean(c, [made.pencil]);
    assertAlongValleys(made.pencil, made.areas);
    // the rest in a sharp valley lies on both sides of it: on the dome and on the top face round it
    const before = restLeft([made.finishing], c.part, { points: made.points, within: WITHIN_MM });
    const after = restLeft([made.finishing, made.pencil], c.part, {
      points: made.points,
      within: WITHIN_MM,
      faces: made.faces,
    });
    assert.ok(before && after);
    console.log(`dome foot: rest ${before.thickest_mm.toFixed(3)} mm before, ${after.thickest_mm.toFixed(3)} mm after`);
    // a sharp corner keeps what the smaller ball's radius leaves in it, far less than the larger's
    assert.ok(before.thickest_mm > SCALLOP_MM + SCALLOP_SLACK_MM, `before ${before.thickest_mm}`);
    assert.ok(after.thickest_mm < before.thickest_mm / 4, `after ${after.thickest_mm}`);
  });

  it("finishes a fillet narrower than the finishing ball to within the scallop target", () => {
    // the boss's foot: the fillet, the floor round it and the boss's wall, cut off below the cone above it
    const fillet = 85;
    const top = -60;
    const { positions, indices } = setup.soup;
    const kept: number[] = [];
    const faceIds: number[] = [];
    const box = boxOf({ positions, indices: Uint32Array.from(indicesOf(setup.soup, setup.triangleFaces, fillet)) });
    for (let t = 0; t < indices.length / 3; t += 1) {
      const corners = [0, 1, 2].map((k) => indices[3 * t + k] as number);
      const inside = corners.every(
        (v) =>
          (positions[3 * v + 2] as number) <= top &&
          Math.abs((positions[3 * v] as number) - (box.minX + box.maxX) / 2) < 40 &&
          Math.abs((positions[3 * v + 1] as number) - (box.minY + box.maxY) / 2) < 40,
      );
      if (!inside) continue;
      kept.push(...corners);
      faceIds.push(setup.triangleFaces[t] as number);
    }
    const part = { positions, indices: Uint32Array.from(kept) };
    const radius = setup.surfaces.concave_radius_mm ?? 0;
    // the smallest ball too large for the fillet
    const finishing = cutters
      .filter((t) => t.kind === "ball" && t.diameter / 2 > radius)
      .sort((a, b) => a.diameter - b.diameter)[0];
    assert.ok(finishing);
    const c: Case = {
      part,
      triangleFaces: Uint32Array.from(faceIds),
      faces: [fillet],
      stock: { min: [box.minX - 40, box.minY - 40, setup.stock.min[2]], max: [box.maxX + 40, box.maxY + 40, top + 1] },
      finishing,
    };
    const made = finishBoth(c);
    assert.ok(made.pencil.tool.diameter / 2 <= radius, `${made.pencil.tool.name} fits the fillet`);
    assertClean(c, [made.pencil]);
    assertAlongValleys(made.pencil, made.areas);
    // on the fillet: the boss's wall above it is nobody's to finish here
    const before = restLeft([made.finishing], c.part, { points: made.points, within: WITHIN_MM, faces: made.faces });
    const after = restLeft([made.finishing, made.pencil], c.part, {
      points: made.points,
      within: WITHIN_MM,
      faces: made.faces,
    });
    assert.ok(before && after);
    console.log(`fillet: rest ${before.thickest_mm.toFixed(3)} mm before, ${after.thickest_mm.toFixed(3)} mm after`);
    assert.ok(before.thickest_mm > SCALLOP_MM + SCALLOP_SLACK_MM, `before ${before.thickest_mm}`);
    assert.ok(after.thickest_mm <= SCALLOP_MM + SCALLOP_SLACK_MM, `after ${after.thickest_mm}`);
  });
});

function indicesOf(soup: TriangleSoup, triangleFaces: Uint32Array, face: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < soup.indices.length / 3; t += 1)
    if (triangleFaces[t] === face) out.push(...[0, 1, 2].map((k) => soup.indices[3 * t + k] as number));
  return out;
}
