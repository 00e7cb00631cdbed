/**
 * NIST STC-06's +Z setup: its deepest dome face, below the finishing ball's flutes from the
 * stock's top, finished by a 3D finishing operation of the planner's step (the tool's shank
 * and holder clear the part there), without a gouge and with the scallop measured within the
 * target plus 0.005 mm on the face below the flutes' reach. Its +Y setup: a dome seen from the
 * side, whose waterline loops the face's region cuts open, finished within the same scallop.
 *
 * Heavy: reading the part takes 5 to 10 s, the operation a few more.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { starterLibrary } from "../../tools/catalogue/starter-library.ts";
import { wallReach } from "../cutter-shape.ts";
import { createSlicer } from "../milling/slicer.ts";
import { InProcessStock } from "../milling/stock.ts";
import { largestScallop } from "../simulation/scallop-left.ts";
import { simulateSetup } from "../simulation/simulate.ts";
import { surfaceCutter } from "../surfacing/cutters.ts";
import { areaAndNormalZ } from "../surfacing/finish-regions.ts";
import { facesSoup, SurfaceTooling } from "../surfacing/surface-finishing.ts";
import { cuttersFromLibrary } from "../tooling/cutter.ts";
import { cuttingParametersFor } from "../tooling/feeds.ts";
import type { Vec2 } from "../types.ts";
import { surfaceFinishingStep } from "./surface-finishing-step.ts";
import { fixtureSetups } from "./test-support.ts";

const SCALLOP_MM = 0.01;
/** the aim: the target plus this (mm) */
const SCALLOP_SLACK_MM = 0.005;

const oc = await loadOpenCascade();
const setups = fixtureSetups(oc, "nist_stc_06_asme1_ap242-e3.stp");
const setup = setups.find((s) => s.name === "+Z");
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const { cutters } = cuttersFromLibrary(starterLibrary());

describe("3D finishing of NIST STC-06's deep domes", () => {
  assert.ok(setup, "STC-06 has a +Z setup");
  const plan = surfaceFinishingStep(setup, setup.soup, cutters, SCALLOP_MM);
  assert.ok(plan?.tool, plan?.warning ?? "no 3D finishing");
  const tool = plan.tool;
  const flutes = setup.stock.max[2] - wallReach(tool);
  // the curved face with the most area sloping 20 to 60 degrees wholly a millimetre below the flutes' reach (a dome's flank)
  const below = new Map<number, { area: number; point: Vec2 }>();
  const { positions, indices } = setup.soup;
  for (let t = 0; t < indices.length / 3; t += 1) {
    const face = setup.triangleFaces[t] as number;
    if (!setup.surfaces.faces.includes(face)) continue;
    const [area, nz] = areaAndNormalZ(positions, indices, t);
    // a slope of 20 to 60 degrees: the ball touches it from above, well inside the face
    if (nz < Math.cos((60 * Math.PI) / 180) || nz > Math.cos((20 * Math.PI) / 180)) continue;
    const corner = (k: number) => 3 * (indices[3 * t + k] as number);
    const zs = [0, 1, 2].map((k) => positions[corner(k) + 2] as number);
    if (Math.max(...zs) > flutes - 1) continue;
    const known = below.get(face) ?? {
      area: 0,
      point: [positions[corner(0)] as number, positions[corner(0) + 1] as number],
    };
    below.set(face, { area: known.area + area, point: known.point });
  }
  const deep = [...below.entries()].sort((a, b) => b[1].area - a[1].area)[0];

  it("has a dome face below the ball's flutes, finished by one of the step's operations", () => {
    assert.ok(deep, `no curved face below z ${flutes}`);
    const [face, { point }] = deep;
    const parameters = cuttingParametersFor(tool, "aluminium-6061", machine, "surface_finishing").parameters;
    // the face's operations (one per band of its height when it is large), as one
    const operations = plan.steps.flatMap((step, k) => {
      if (!plan.groups[k]?.faces.includes(face)) return [];
      const request = { part: createSlicer(setup.soup), stock: new InProcessStock(setup.stock), tool, parameters };
      const outcome = step.generate(request);
      assert.ok(outcome.operation, outcome.reason ?? "");
      assert.equal(outcome.operation.kind, "surface_finishing");
      return [outcome.operation];
    });
    const [first] = operations;
    assert.ok(first, `face ${face} in no group`);
    const operation = { ...first, moves: operations.flatMap((o) => o.moves) };
    const deeper = operation.moves.filter((m) => m.kind === "linear" && m.to[2] < flutes - 1);
    assert.ok(deeper.length > 100, `${deeper.length} cutting moves below the flutes' reach`);

    // on the stock as it came, not roughed: the shank meets what the roughing would take (the
    // plan's own simulation judges the bodies on the stock the operations before it left)
    const run = simulateSetup({ stock: setup.stock, part: setup.soup, operations: [operation], maxDetails: 3 });
    assert.equal(run.total.gouges, 0, JSON.stringify(run.violations));

    // the scallop on the deep face itself, the patch where its triangle lies
    const tooling = new SurfaceTooling(setup.soup);
    const { drop, clearance } = tooling.of(tool);
    const cutter = surfaceCutter(tool);
    const job = { part: setup.soup, triangleFaces: setup.triangleFaces, faces: [face] };
    const scallop = largestScallop({
      operation,
      part: setup.soup,
      faces: facesSoup(job),
      centres: [point],
      reach: {
        drop: (x, y) => drop.dropAt(x, y),
        radius: cutter.radius,
        height: (rho) => cutter.height(rho),
        allowed: (p) => clearance.clear(p),
      },
    });
    assert.ok(scallop !== null, "the deep face's patch was finished");
    assert.ok(scallop <= SCALLOP_MM + SCALLOP_SLACK_MM, `scallop ${scallop} mm on face ${face}`);
    console.log(`face ${face}: ${deeper.length} moves below z ${flutes.toFixed(2)}, scallop ${scallop.toFixed(4)} mm`);
  });
});

describe("3D finishing of NIST STC-06's dome seen from the side (+Y)", () => {
  const side = setups.find((s) => s.name === "+Y");
  assert.ok(side, "STC-06 has a +Y setup");
  const plan = surfaceFinishingStep(side, side.soup, cutters, SCALLOP_MM);
  assert.ok(plan?.tool, plan?.warning ?? "no 3D finishing");
  const tool = plan.tool;

  it("leaves its largest face within the target plus 0.005 mm: its waterline loops run whole", () => {
    // of the faces finished alone, the one with the most area steeper than 45° facing up: the
    // dome's flank (face 32), its waterline's
    const alone = new Set(plan.groups.filter((g) => g.band === null && g.faces.length === 1).flatMap((g) => g.faces));
    const area = new Map<number, number>();
    const { positions, indices } = side.soup;
    for (let t = 0; t < indices.length / 3; t += 1) {
      const face = side.triangleFaces[t] as number;
      if (!alone.has(face)) continue;
      const [a, nz] = areaAndNormalZ(positions, indices, t);
      if (nz > 0 && nz < Math.SQRT1_2) area.set(face, (area.get(face) ?? 0) + a);
    }
    const face = [...area.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    const k = plan.groups.findIndex((group) => face !== undefined && group.faces.includes(face));
    const step = plan.steps[k];
    assert.ok(step, `face ${face} in no group of its own height`);
    const parameters = cuttingParametersFor(tool, "aluminium-6061", machine, "surface_finishing").parameters;
    const request = { part: createSlicer(side.soup), stock: new InProcessStock(side.stock), tool, parameters };
    const outcome = step.generate(request);
    assert.ok(outcome.operation, outcome.reason ?? "");
    const scallop = outcome.operation.scallop_mm;
    // the loops falling into pieces of a point or two left the flank 2.02 mm high
    assert.ok(scallop !== undefined, "the face's patches were finished");
    assert.ok(scallop <= SCALLOP_MM + SCALLOP_SLACK_MM, `scallop ${scallop} mm on face ${face}`);
    console.log(`+Y face ${face}: ${outcome.operation.moves.length} moves, scallop ${scallop.toFixed(4)} mm`);
  });
});
