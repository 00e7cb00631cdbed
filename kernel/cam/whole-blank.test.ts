/**
 * The plan machines the whole blank: a stock deeper than the part is faced off from a turned-over
 * setup, and stock beside the part goes too. What is left is measured by replaying the plan's
 * operations, setup by setup, on a voxel model of the stock (simulation/voxel-stock.ts), region
 * by region: the allowance below the part, the slabs beside it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { readStep } from "../geometry/step.ts";
import { fixture } from "../geometry/test-support.ts";
import { cut, makeBox } from "../features/test-support.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { boxToFrame, soupToFrame } from "./frames.ts";
import { inlineChecks, inlineShadows, planCam } from "./plan.ts";
import type { PlanInput, PlanResult, PlannedSetup } from "./plan-types.ts";
import { readPart } from "./planner/read-part.ts";
import { simulationCellSize } from "./planner/verify.ts";
import { simulateSetup } from "./simulation/simulate.ts";
import { removeBySetup, stockLeft, voxelStock, type VoxelStock } from "./simulation/voxel-stock.ts";
import { aluminiumInput } from "./test-support.ts";
import type { Box3 } from "./types.ts";

const oc = await loadOpenCascade();
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const hooks = { progress: () => {}, cancelled: () => false, checks: inlineChecks, shadows: inlineShadows };

const input = (bytes: Uint8Array, stock: Box3): PlanInput => aluminiumInput(bytes, stock, machine);

/** The plan's operations replayed on the stock, setup after setup: what they removed, as voxels. */
function replayed(planned: PlanInput, result: PlanResult): VoxelStock {
  const soup = readPart(oc, planned).soup;
  const voxels = voxelStock(planned.stock, soup);
  for (const setup of result.setups) {
    const stock = boxToFrame(setup.wcs, planned.stock);
    const simulation = simulateSetup({
      stock,
      part: soupToFrame(setup.wcs, soup),
      operations: setup.operations,
      cellSize: simulationCellSize(stock),
    });
    removeBySetup(voxels, setup.wcs, simulation.field);
  }
  return voxels;
}

/** The turned-over setup's facing: it comes first and goes down to the part's bottom (`depth` below the stock's bottom face). */
function assertFacedFromBelow(result: PlanResult, depth: number): PlannedSetup {
  const below = result.setups.find((s) => s.direction[2] === -1);
  assert.ok(below, `a -Z setup among ${result.setups.map((s) => s.name).join(", ")}`);
  const first = below.operations[0];
  assert.equal(first?.kind, "face_milling", below.operations.map((o) => o.kind).join(", "));
  const lowest = Math.min(...first.moves.flatMap((move) => (move.kind === "linear" ? [move.to[2]] : [])));
  assert.ok(Math.abs(lowest + depth) < 0.05, `the facing goes down to ${lowest}, the part's bottom is at ${-depth}`);
  return below;
}

function assertEverySetupCuts(result: PlanResult): void {
  for (const setup of result.setups)
    assert.ok(
      setup.operations.some((o) => o.moves.length > 0),
      `${setup.name} has toolpaths`,
    );
  assert.deepEqual(
    result.setups.map((s) => s.index),
    result.setups.map((_, i) => i),
  );
}

describe("the plan machines the whole blank", () => {
  it("faces the 10 mm allowance below a block whose features all face up from a turned-over setup, and takes the stock beside it: none of either stays", () => {
    // a 100 x 60 x 30 block with a 60 x 30 x 12 pocket in its top: the setup plan has +Z only
    const bytes = withOcctScope((scope) =>
      writeBrep(oc, cut(oc, scope, makeBox(oc, scope, [100, 60, 30]), makeBox(oc, scope, [60, 30, 13], [20, 15, 18]))),
    );
    const stock: Box3 = { min: [-5, -5, -10], max: [105, 65, 32] };
    const planned = input(bytes, stock);
    const result = planCam(oc, planned, hooks);
    assert.deepEqual(
      result.setups.map((s) => `${s.name} ${s.work_offset}`),
      ["+Z G54", "-Z G55"],
    );
    assertFacedFromBelow(result, 10);
    assertEverySetupCuts(result);
    const voxels = replayed(planned, result);
    const below = stockLeft(voxels, { min: stock.min, max: [stock.max[0], stock.max[1], 0] });
    assert.ok(below.removable_mm3 > 0.99 * 110 * 70 * 10, `the allowance below: ${below.removable_mm3} mm³`);
    assert.ok(below.left_pct < 0.5, `${below.left_pct} % of the allowance below the part is left`);
    const sides: Box3[] = [
      { min: [-5, -5, 0], max: [0, 65, 30] },
      { min: [100, -5, 0], max: [105, 65, 30] },
      { min: [0, -5, 0], max: [100, 0, 30] },
      { min: [0, 60, 0], max: [100, 65, 30] },
    ];
    for (const side of sides) {
      const left = stockLeft(voxels, side);
      assert.ok(
        left.left_pct < 0.5,
        `${left.left_pct} % of the stock beside the part in ${JSON.stringify(side)} is left`,
      );
    }
    // the plan's own figure: the whole blank but for the pocket's sharp corners and cusps
    const last = result.setups.at(-1) as PlannedSetup;
    assert.ok(last.verification.material_left_pct < 2, `material left ${last.verification.material_left_pct} %`);
  });

  it("faces off partC's 10 mm allowance below it from its -Z setup", () => {
    const bytes = withOcctScope((scope) => writeBrep(oc, readStep(oc, fixture("partC.step"), scope).solid));
    const stock: Box3 = { min: [-2, -2, -10], max: [87.6, 46.7, 29] };
    const planned = input(bytes, stock);
    const result = planCam(oc, planned, hooks);
    assertFacedFromBelow(result, 10);
    assertEverySetupCuts(result);
    const below = stockLeft(replayed(planned, result), { min: stock.min, max: [stock.max[0], stock.max[1], 0] });
    assert.ok(below.left_pct < 0.5, `${below.left_pct} % of the allowance below the part is left`);
  });
});
