import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMaterial, Material, MaterialCategory, MATERIALS } from "./materials.ts";

describe("MATERIALS", () => {
  it("has the nine seed materials with unique ids and names", () => {
    assert.deepEqual(
      MATERIALS.map((m) => m.id),
      [
        "aluminium-6061",
        "aluminium-7075",
        "steel-c45",
        "steel-42crmo4",
        "stainless-1.4301",
        "brass-cuzn39pb3",
        "titanium-grade5",
        "plastic-pom-c",
        "plastic-peek",
      ],
    );
    assert.equal(new Set(MATERIALS.map((m) => m.name)).size, MATERIALS.length);
  });

  it("covers every category and puts each in the ISO 513 group its tools are chosen by", () => {
    assert.deepEqual([...new Set(MATERIALS.map((m) => m.category))].sort(), [...MaterialCategory.options].sort());
    const group = { aluminium: "N", steel: "P", stainless: "M", brass: "N", titanium: "S", plastic: "N" } as const;
    for (const m of MATERIALS) assert.equal(m.iso_group, group[m.category], m.id);
  });

  it("has physically sane figures: densities, prices and Kienzle values in their class's range", () => {
    const density = {
      aluminium: [2600, 2900],
      steel: [7700, 7900],
      stainless: [7850, 8050],
      brass: [8300, 8600],
      titanium: [4400, 4500],
      plastic: [1000, 1500],
    } as const;
    const pricePerKg = {
      aluminium: [4, 20],
      steel: [1, 6],
      stainless: [3, 12],
      brass: [6, 15],
      titanium: [25, 80],
      plastic: [3, 200],
    } as const;
    for (const m of MATERIALS) {
      const [dLo, dHi] = density[m.category];
      assert.ok(m.density_kg_m3 >= dLo && m.density_kg_m3 <= dHi, `${m.id}: density ${m.density_kg_m3}`);
      const [pLo, pHi] = pricePerKg[m.category];
      assert.ok(m.price_per_kg >= pLo && m.price_per_kg <= pHi, `${m.id}: price ${m.price_per_kg}`);
      assert.ok(m.mc >= 0.1 && m.mc <= 0.35, `${m.id}: mc`);
      // kc1.1 is a few times the tensile strength for metals (2 to 4.5 here)
      if (m.category !== "plastic") {
        const ratio = m.kc1_1_n_mm2 / m.tensile_strength_mpa;
        assert.ok(ratio > 1.3 && ratio < 4.5, `${m.id}: kc1.1 / Rm = ${ratio.toFixed(2)}`);
      }
      assert.equal(m.hardness.scale === "Shore D", m.category === "plastic", `${m.id}: hardness scale`);
    }
  });

  it("orders the metals by how hard they are to cut: kc1.1 of aluminium < brass < titanium < steel", () => {
    const kc = (id: string) => findMaterial(id)?.kc1_1_n_mm2 ?? NaN;
    assert.ok(kc("aluminium-6061") < kc("aluminium-7075"));
    assert.ok(kc("aluminium-7075") < kc("titanium-grade5"));
    assert.ok(kc("titanium-grade5") < kc("steel-c45"));
    assert.ok(kc("steel-c45") < kc("steel-42crmo4"));
    assert.ok(kc("plastic-pom-c") < kc("aluminium-6061"));
  });

  it("refuses ids the materials table would", () => {
    const [first] = MATERIALS;
    assert.ok(first);
    assert.equal(Material.safeParse({ ...first, id: "a b" }).success, false);
    assert.equal(Material.safeParse({ ...first, id: "" }).success, false);
    assert.equal(Material.safeParse({ ...first, density_kg_m3: 0 }).success, false);
    assert.equal(Material.safeParse({ ...first, category: "nickel" }).success, false);
    assert.equal(findMaterial("Inconel718"), undefined);
  });
});
