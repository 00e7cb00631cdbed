import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MachineSnapshot } from "./snapshot.ts";
import {
  findMachineArchetype,
  MACHINE_ARCHETYPES,
  MachineArchetype,
  MachineControl,
  machineSnapshot,
} from "./archetypes.ts";

describe("MACHINE_ARCHETYPES", () => {
  it("has six to eight machines with unique product ids, names and listing orders", () => {
    assert.ok(MACHINE_ARCHETYPES.length >= 6 && MACHINE_ARCHETYPES.length <= 8, String(MACHINE_ARCHETYPES.length));
    for (const key of ["product_id", "name", "listing_order"] as const) {
      const values = MACHINE_ARCHETYPES.map((m) => m[key]);
      assert.equal(new Set(values).size, values.length, `duplicate ${key}`);
    }
  });

  it("covers every control at least once", () => {
    const controls = new Set(MACHINE_ARCHETYPES.map((m) => m.control));
    assert.deepEqual([...controls].sort(), [...MachineControl.options].sort());
  });

  it("parses every archetype with its own schema and keeps postprocessors within their control", () => {
    for (const m of MACHINE_ARCHETYPES) {
      assert.equal(MachineArchetype.safeParse(m).success, true, m.product_id);
      assert.ok(m.postprocessor === m.control || m.postprocessor.startsWith(`${m.control}-`), m.product_id);
      assert.match(m.description, /class of/i, `${m.product_id} says it is a class, not a branded machine`);
    }
  });

  it("has physically sane figures: rapids at least the feed, rpm and travels in range, hand changes slow", () => {
    for (const m of MACHINE_ARCHETYPES) {
      const id = m.product_id;
      assert.ok(m.rapid_mm_min >= m.max_feed_mm_min, `${id}: rapid >= feed`);
      assert.ok(m.max_spindle_rpm >= 3_000 && m.max_spindle_rpm <= 60_000, `${id}: max rpm`);
      assert.ok(m.min_spindle_rpm < m.max_spindle_rpm / 2, `${id}: usable speed range`);
      for (const travel of [m.travel_x_mm, m.travel_y_mm, m.travel_z_mm])
        assert.ok(travel >= 50 && travel <= 2_000, `${id}: travel`);
      assert.ok(m.travel_x_mm >= m.travel_y_mm, `${id}: X is the long axis`);
      assert.ok(m.max_feed_mm_min >= 1_000 && m.rapid_mm_min <= 120_000, `${id}: feeds`);
      assert.ok(m.spindle_power_kw >= 0.3 && m.spindle_power_kw <= 60, `${id}: spindle power`);
      assert.ok(
        m.spindle_power_kw <= m.connected_load_kw && m.average_power_kw <= m.connected_load_kw,
        `${id}: power budget`,
      );
      const manual = m.spindle_taper === "R8" || m.spindle_taper.startsWith("ER");
      assert.equal(m.tool_slots === 0, manual, `${id}: a magazine exactly when the taper is made for one`);
      assert.ok(m.tool_slots === 0 ? m.tool_change_s >= 20 : m.tool_change_s <= 15, `${id}: chip-to-chip time`);
      if (m.control === "grbl") assert.equal(m.tool_slots, 0, `${id}: Grbl changes tools by hand`);
    }
  });

  it("asks a default hour rate that at least covers the machine's own costs on one shift", () => {
    // VDI 3258 in brief, with round rates: linear depreciation, 6 % interest on half the price,
    // 150 EUR/m² a year for space, 5 % of the price a year for maintenance, 0.25 EUR/kWh,
    // 1,600 productive hours a year.
    for (const m of MACHINE_ARCHETYPES) {
      const perYear =
        (m.purchase_price_eur - m.resale_value_eur) / m.depreciation_years +
        (m.purchase_price_eur / 2) * 0.06 +
        m.floor_space_m2 * 150 +
        m.purchase_price_eur * 0.05;
      const machineOnly = perYear / 1_600 + m.average_power_kw * 0.25;
      assert.ok(m.default_mhr > machineOnly, `${m.product_id}: ${m.default_mhr} > ${machineOnly.toFixed(1)}`);
      assert.ok(m.default_mhr < machineOnly + 80, `${m.product_id}: no more than machine plus a well-paid operator`);
    }
  });

  it("refuses a machine whose rapids are slower than its feed or whose id does not fit the column", () => {
    const [first] = MACHINE_ARCHETYPES;
    assert.ok(first);
    assert.equal(MachineArchetype.safeParse({ ...first, rapid_mm_min: first.max_feed_mm_min - 1 }).success, false);
    assert.equal(MachineArchetype.safeParse({ ...first, product_id: "has space" }).success, false);
    assert.equal(MachineArchetype.safeParse({ ...first, product_id: "x".repeat(65) }).success, false);
    assert.equal(MachineArchetype.safeParse({ ...first, control: "siemens" }).success, false);
    assert.equal(MachineArchetype.safeParse({ ...first, tool_slots: 2.5 }).success, false);
    assert.equal(MachineArchetype.safeParse({ ...first, extra: 1 }).success, false);
  });
});

describe("machineSnapshot", () => {
  it("gives the job file's snapshot", () => {
    for (const m of MACHINE_ARCHETYPES) {
      const snapshot = machineSnapshot(m);
      assert.equal(MachineSnapshot.safeParse(snapshot).success, true, m.product_id);
      assert.deepEqual(snapshot.travel_mm, [m.travel_x_mm, m.travel_y_mm, m.travel_z_mm]);
    }
  });

  it("finds an archetype by product id and nothing for an unknown one", () => {
    assert.equal(findMachineArchetype("vmc-850-fanuc")?.control, "fanuc");
    assert.equal(findMachineArchetype("haas-vf2"), undefined);
  });
});
