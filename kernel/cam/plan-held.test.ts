/**
 * partC planned in the vmc-850's default vise (issue 35): every setup says how it is held, the
 * first grips the blank below the part, the turned-over ones grip what the setups before left,
 * and no move of any kept operation comes within 1 mm of a jaw or a parallel. With too little
 * stock below the part the plan says how much more it needs; what the vise cannot take goes on
 * the machine's table.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import { defaultWorkholding } from "../workholding/defaults.ts";
import type { MachineVise, Workholding } from "../workholding/schema.ts";
import { PlanError, type PlanResult } from "./plan-types.ts";
import { assertHeldClear, fixtureBrep, planHeld as planHeldOn } from "./test-support.ts";
import type { Box3 } from "./types.ts";

const oc = await loadOpenCascade();
const bytes = fixtureBrep(oc, "partC.step");
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
/** a 40 mm opening takes partC's 48.6 mm stock neither way round */
const narrow = { ...(defaultWorkholding(machine.product_id) as MachineVise), max_opening_mm: 40 };

function planHeld(
  stock: Box3,
  workholding: Workholding | undefined = defaultWorkholding(machine.product_id),
): PlanResult {
  return planHeldOn(oc, bytes, stock, machine, workholding);
}

describe("a plan held in a vise", () => {
  it("clamps every setup of partC, the blank below the part first, and keeps every move 1 mm from the vise", () => {
    // partC spans z 0 to 30.53: 8 mm below grips 5 mm of blank with 3 mm to spare
    const stock: Box3 = { min: [-2, -2, -8], max: [87.52, 46.62, 32.53] };
    const plan = planHeld(stock);
    assert.ok(plan.setups.length >= 2, plan.setups.map((s) => s.name).join(", "));
    assert.equal(
      plan.warnings.filter((w) => w.code === "stock_allowance_needed").length,
      0,
      JSON.stringify(plan.warnings),
    );
    const first = plan.setups[0]!;
    const hold = first.workholding;
    assert.ok(hold, "the first setup is held");
    assert.equal(hold.type, "vise");
    assert.equal(hold.clamped.grips, "stock");
    assert.equal(hold.grip_mm, 5);
    const [fixed, moving] = hold.jaws;
    assert.ok(fixed && moving);
    // the jaws close on the stock's faces across the setup's y
    assert.ok(Math.abs(fixed.min[1] - first.stock.max[1]) < 1e-9);
    assert.ok(Math.abs(moving.max[1] - first.stock.min[1]) < 1e-9);
    assert.ok(Math.abs(fixed.max[2] - (first.stock.min[2] + 5)) < 1e-9);
    assertHeldClear(plan, "vise");
    // the 1 mm end mills want more rpm than the 10,000 the spindle turns: said once per tool and
    // setup with its time, not again per operation (the small drills' clamps stay their own)
    const limited = new Set(plan.warnings.filter((w) => w.code === "spindle_limited_tool").map((w) => w.details?.tool));
    assert.ok(limited.size > 0, JSON.stringify(plan.warnings));
    for (const clamp of plan.warnings.filter((w) => w.code === "feeds_max_spindle_rpm"))
      assert.ok(!limited.has(clamp.message.split(":")[0]), clamp.message);
  });

  it("says how much more stock it needs below the part when the blank cannot be gripped clear of it", () => {
    const plan = planHeld({ min: [-2, -2, -3], max: [87.52, 46.62, 32.53] });
    const needed = plan.warnings.find((w) => w.code === "stock_allowance_needed");
    assert.ok(needed, JSON.stringify(plan.warnings));
    // 5 mm of grip and 1.5 mm kept clear of the part, 3 mm given
    assert.match(needed.message, /3\.5 mm more along -Z/);
    // turned over for the band the jaws held, and every setup held: the turned-over ones grip
    // faces +Z finished where their band crosses them (the skin +Z's jaws kept lies below it)
    assert.deepEqual(
      plan.setups.map((s) => s.name),
      ["+Z", "-Z", "-Y", "+X", "-X", "+Y"],
    );
    assert.deepEqual(
      plan.unmachined.filter((u) => u.code === "workholding_unavailable"),
      [],
    );
    const turned = plan.setups[1]?.workholding;
    assert.ok(turned);
    assert.equal(turned.clamped.grips, "part");
    assert.equal(turned.clamped.description, "the part's -Y and +Y sides (faces 1 and 4), finished in setup +Z");
    for (const setup of plan.setups) assert.equal(setup.verification.workholding_collisions, 0, setup.name);
  });

  it("turns a part first held from a side over to that side's opposite for the band its jaws held (NIST CTC-01)", () => {
    // 804 x 454 mm of stock: the vise takes it from no side but its narrow ones, -Y first
    const ctc = fixtureBrep(oc, "nist_ctc_01_asme1_ap242-e1.stp");
    const plan = planHeldOn(
      oc,
      ctc,
      { min: [-402, -227, -108], max: [402, 227, 52] },
      // a mill of the shop's own without a table the planner knows: the vise alone holds it
      { ...machine, product_id: "own-mill" },
      defaultWorkholding(machine.product_id),
    );
    assert.deepEqual(
      plan.setups.map((s) => s.name),
      ["-Y", "+Y"],
    );
    // 2 mm beyond the part along +Y, the grip needs 6.5
    const needed = plan.warnings.find((w) => w.code === "stock_allowance_needed");
    assert.match(needed?.message ?? "", /4\.5 mm more along \+Y/);
    const [first, turned] = plan.setups.map((s) => s.workholding);
    assert.equal(
      first?.clamped.description,
      "the blank's -Z and +Z sides, the jaws reaching 4.5 mm within the part's keep-out",
    );
    assert.equal(turned?.clamped.grips, "part");
    assert.match(
      turned?.clamped.description ?? "",
      /^the part's -Z and \+Z sides \(faces [\d, and]+\), finished in setup -Y$/,
    );
    for (const setup of plan.setups) assert.equal(setup.verification.workholding_collisions, 0, setup.name);
  });

  it("keeps the machine's table behind a request's vise: what the vise cannot take, the table holds", () => {
    const plan = planHeld({ min: [-2, -2, -8], max: [87.52, 46.62, 32.53] }, narrow);
    assert.equal(plan.setups[0]?.workholding?.type, "machine_table", "the blank is wider than the vise opens");
    assert.equal(plan.setups[0]?.workholding?.grip_mm, 10);
    assertHeldClear(plan, ["vise", "machine_table"]);
  });

  it("refuses a part the vise holds in no setup on a machine without a table, with workholding_unavailable, saying why", () => {
    const ownMill = { ...machine, product_id: "own-mill" };
    assert.throws(
      () => planHeldOn(oc, bytes, { min: [-2, -2, -8], max: [87.52, 46.62, 32.53] }, ownMill, narrow),
      (error: unknown) =>
        error instanceof PlanError &&
        error.code === "workholding_unavailable" &&
        /wider than the vise's 40 mm opening/.test(error.message),
    );
  });
});
