import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MACHINE_ARCHETYPES } from "../machines/archetypes.ts";
import { defaultWorkholding, tableWorkholding } from "./defaults.ts";
import { defaultGripMm, gripOnParallels } from "./grip.ts";
import { FixturePlate, Workholding } from "./schema.ts";
import { checkWorkholding } from "./validate.ts";

describe("defaultWorkholding", () => {
  it("gives every seeded machine a default that parses", () => {
    for (const m of MACHINE_ARCHETYPES) {
      const w = defaultWorkholding(m.product_id);
      assert.ok(w, `${m.product_id} has no default workholding`);
      assert.equal(Workholding.safeParse(w).success, true, m.product_id);
    }
    assert.equal(defaultWorkholding("no-such-machine"), undefined);
  });

  it("gives the VMCs a 150 mm vise, the drill-tap centre and knee mill a 125 mm one, the router a plate", () => {
    const jawWidth = (id: string) => {
      const w = defaultWorkholding(id);
      return w?.kind === "vise" ? w.jaw_width_mm : undefined;
    };
    for (const id of ["vmc-850-fanuc", "vmc-760-haas", "vmc-600-heidenhain", "hsc-600-sinumerik"])
      assert.equal(jawWidth(id), 150, id);
    for (const id of ["drill-tap-500-fanuc", "knee-mill-linuxcnc"]) assert.equal(jawWidth(id), 125, id);
    assert.equal(defaultWorkholding("router-450-grbl")?.kind, "fixture_plate");
  });

  it("holds a 100 x 80 x 30 stock on every machine, with the default grip on a parallel the vise has", () => {
    for (const m of MACHINE_ARCHETYPES) {
      const w = defaultWorkholding(m.product_id)!;
      let gripMm = 5;
      if (w.kind === "vise") {
        const wanted = defaultGripMm(w.jaw_height_mm);
        assert.deepEqual(gripOnParallels(w, wanted)?.grip_mm, wanted, m.product_id);
        gripMm = wanted;
        assert.ok(w.max_opening_mm < m.travel_y_mm, `${m.product_id}: the opened vise fits the Y travel`);
      } else {
        assert.ok(w.plate_length_mm <= m.travel_x_mm && w.plate_width_mm <= m.travel_y_mm, m.product_id);
      }
      const check = checkWorkholding(w, { stockSize: [100, 80, 30], machineTravelZ: m.travel_z_mm, gripMm });
      assert.deepEqual(check, { ok: true }, m.product_id);
    }
  });

  it("shares frozen defaults no caller can change", () => {
    const w = defaultWorkholding("vmc-850-fanuc")!;
    assert.ok(Object.isFrozen(w));
    assert.ok(w.kind === "vise" && Object.isFrozen(w.parallel_heights_mm));
  });
});

describe("tableWorkholding", () => {
  it("gives every seeded machine its table with edge clamps, larger than what its default takes across", () => {
    for (const m of MACHINE_ARCHETYPES) {
      const table = tableWorkholding(m.product_id);
      assert.ok(table, `${m.product_id} has no table`);
      assert.equal(FixturePlate.safeParse(table).success, true, m.product_id);
      assert.ok(Object.isFrozen(table), m.product_id);
      const w = defaultWorkholding(m.product_id)!;
      const across = w.kind === "vise" ? w.max_opening_mm : Math.min(w.plate_length_mm, w.plate_width_mm);
      assert.ok(Math.max(table.plate_length_mm, table.plate_width_mm) > across, m.product_id);
      // low-profile clamps: a 10 mm grip needs 11.5 mm of stock below the part
      assert.equal(table.clamp_height_mm, 10, m.product_id);
    }
    assert.equal(tableWorkholding("no-such-machine"), undefined);
  });

  it("holds NIST CTC-01's 804 x 454 mm blank on the VMC 850's 1000 x 500 mm table", () => {
    const table = tableWorkholding("vmc-850-fanuc")!;
    assert.deepEqual([table.plate_length_mm, table.plate_width_mm, table.clamp_count], [1000, 500, 8]);
    const check = checkWorkholding(table, { stockSize: [804, 454, 163], machineTravelZ: 550, gripMm: 10 });
    assert.deepEqual(check, { ok: true });
  });
});
