/**
 * Parts planned on a fixture plate with edge clamps (issue 35): partC on the desktop router's
 * default plate, and NIST CTC-01, too wide for any vise, on a large plate on the vmc-850 and on
 * the vmc-850's own table where its default vise cannot hold it. Every setup stands on the plate
 * or table, its clamps closing on the blank or on faces an earlier setup finished (within
 * 0.1 mm), and no move comes within 1 mm of a clamp or the plate.
 *
 * Heavy: CTC-01 plans in 20 to 60 s.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { faceContacts, stockContacts } from "../../test/support/workholding-clearance.ts";
import { readBrep } from "../geometry/brep.ts";
import { withOcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { tessellate } from "../geometry/tessellate.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { meshBounds } from "../mesh/bounds.ts";
import { defaultWorkholding } from "../workholding/defaults.ts";
import type { Workholding } from "../workholding/schema.ts";
import type { PlanResult, WorkholdingSummary } from "./plan-types.ts";
import { assertHeldClear, fixtureBrep, planHeld } from "./test-support.ts";
import type { Box3 } from "./types.ts";

const oc = await loadOpenCascade();

/** stock below the part: the clamps' 20 mm and 1.5 mm kept clear of the part, rounded up */
const BELOW_MM = 22;
/** the same for the machine tables' 10 mm clamps */
const BELOW_TABLE_CLAMPS_MM = 12;

interface Planned {
  plan: PlanResult;
  mesh: { positions: Float32Array; faceIds: Uint32Array };
}

/** `workholding` undefined: the machine's default, then its table */
function planOnPlate(
  name: string,
  productId: string,
  workholding: Workholding | undefined,
  belowMm = BELOW_MM,
): Planned {
  const bytes = fixtureBrep(oc, name);
  // planar faces are meshed exactly: the clamps' contact is measured on the faces themselves
  const mesh = withOcctScope((scope) => tessellate(oc, readBrep(oc, bytes, scope).solid, 0).mesh);
  const part = meshBounds(mesh);
  const stock: Box3 = {
    min: [part.min[0] - 2, part.min[1] - 2, part.min[2] - belowMm],
    max: [part.max[0] + 2, part.max[1] + 2, part.max[2] + 2],
  };
  const machine = findMachineArchetype(productId) as MachineArchetype;
  return { plan: planHeld(oc, bytes, stock, machine, workholding), mesh };
}

/** every setup on its plate (or table), the first on the blank, each clamp within 0.1 mm of what it grips */
function assertClampedOnPlate(
  { plan, mesh }: Planned,
  type: WorkholdingSummary["type"] | readonly WorkholdingSummary["type"][] = "fixture_plate",
): void {
  assertHeldClear(plan, type);
  assert.equal(plan.setups[0]?.workholding?.clamped.grips, "stock", "the first setup grips the blank");
  for (const setup of plan.setups) {
    const hold = setup.workholding!;
    // a setup the vise holds is plan-held.test.ts's and the clearance test's
    if (hold.type === "vise") continue;
    assert.deepEqual([hold.jaws, hold.opening_mm, hold.parallel_height_mm], [[], null, 0], setup.name);
    assert.equal(hold.supports.length, 1, `${setup.name}: the plate or table`);
    const plateTop = hold.supports[0]!.max[2];
    for (const clamp of hold.clamps)
      assert.equal(clamp.min[2], plateTop, `${setup.name}: the clamps stand on the plate`);
    const contacts =
      hold.clamped.grips === "stock"
        ? stockContacts(hold.clamps, hold.grip_axis, setup.stock)
        : faceContacts(hold.clamps, hold.grip_axis, setup.wcs, mesh, hold.clamped.faces);
    for (const c of contacts) assert.ok(c.gap_mm <= 0.1, `${setup.name} ${c.jaw}: ${c.gap_mm} mm from what it grips`);
  }
}

describe("a plan held on a fixture plate", () => {
  it("clamps every setup of partC on the router's plate, the blank first, keeping every move 1 mm away", () => {
    const planned = planOnPlate("partC.step", "router-450-grbl", defaultWorkholding("router-450-grbl")!);
    const { plan } = planned;
    assert.ok(plan.setups.length >= 2, plan.setups.map((s) => s.name).join(", "));
    assert.deepEqual(
      plan.warnings.filter((w) => w.code === "stock_allowance_needed"),
      [],
    );
    const first = plan.setups[0]!;
    const hold = first.workholding!;
    // four clamps, two on each face across y, 20 mm tall on the plate under the stock
    assert.equal(hold.clamps.length, 4);
    assert.equal(hold.grip_mm, 20);
    // the summary is in micrometres
    assert.ok(Math.abs(hold.supports[0]!.max[2] - first.stock.min[2]) <= 1e-3, "the plate's top is the stock's bottom");
    // every setup on the plate, the turned-over ones on finished faces covering the clamps' 20 mm
    assertClampedOnPlate(planned);
  });

  it("holds NIST CTC-01, too wide for a vise, on a 1000 x 600 plate with eight clamps on the vmc-850", () => {
    const plate: Workholding = {
      kind: "fixture_plate",
      plate_length_mm: 1000,
      plate_width_mm: 600,
      plate_thickness_mm: 25,
      clamp_length_mm: 50,
      clamp_width_mm: 20,
      clamp_height_mm: 20,
      clamp_count: 8,
    };
    const planned = planOnPlate("nist_ctc_01_asme1_ap242-e1.stp", "vmc-850-fanuc", plate);
    const first = planned.plan.setups[0]!;
    assert.equal(first.workholding?.clamps.length, 8);
    assertClampedOnPlate(planned);
  });

  it("holds NIST CTC-01 on the vmc-850's table where its vise opens too little, and in the vise where it opens enough", () => {
    const planned = planOnPlate("nist_ctc_01_asme1_ap242-e1.stp", "vmc-850-fanuc", undefined, BELOW_TABLE_CLAMPS_MM);
    const { plan } = planned;
    assert.ok(plan.setups.length >= 2, plan.setups.map((s) => s.name).join(", "));
    // the 804 x 454 mm blank across x: its clamps 50 mm out each side stand on the 1000 x 500 mm table
    const first = plan.setups[0]!.workholding!;
    assert.equal(first.grip_axis, "x");
    assert.deepEqual([first.clamps.length, first.grip_mm], [8, 10]);
    const table = first.supports[0]!;
    assert.deepEqual([table.max[0] - table.min[0], table.max[1] - table.min[1]], [1000, 500]);
    assert.deepEqual(
      plan.warnings.filter((w) => w.code === "stock_allowance_needed"),
      [],
    );
    // turned on its side (-Y), the blank is narrow enough across for the vise to take it
    assertClampedOnPlate(planned, ["machine_table", "vise"]);
    assert.deepEqual(
      plan.setups.map((s) => `${s.name} ${s.workholding?.type}`),
      ["+Z machine_table", "-Z machine_table", "-Y vise"],
    );
    assert.deepEqual(plan.completeness.setups_left_out, []);
  });
});
