import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MACHINE_ARCHETYPES } from "../machines/archetypes.ts";
import {
  checkSpindlePower,
  coarsePitchMm,
  CUTTING_DATA,
  CuttingConditions,
  cuttingData,
  CuttingDataEntry,
  cuttingLoad,
  cuttingToolMaterialFor,
  diameterFactor,
  MATERIAL_CUTTING_BASES,
  materialRemovalPowerKw,
  CuttingToolFamily,
  CuttingToolMaterial,
} from "./cutting-data.ts";
import { MATERIALS } from "./materials.ts";

const endMill10 = { toolFamily: "end_mill_roughing", toolMaterial: "carbide", diameterMm: 10, flutes: 3 } as const;

describe("cutting data tables", () => {
  it("has an entry for every material, tool family and tool material, and nothing else", () => {
    assert.equal(
      CUTTING_DATA.length,
      MATERIALS.length * CuttingToolFamily.options.length * CuttingToolMaterial.options.length,
    );
    const keys = new Set(CUTTING_DATA.map((e) => `${e.material_id}/${e.tool_family}/${e.tool_material}`));
    assert.equal(keys.size, CUTTING_DATA.length);
    for (const m of MATERIALS) {
      for (const family of CuttingToolFamily.options) {
        for (const toolMaterial of CuttingToolMaterial.options)
          assert.ok(keys.has(`${m.id}/${family}/${toolMaterial}`), `${m.id}/${family}/${toolMaterial}`);
      }
    }
    assert.deepEqual(
      MATERIAL_CUTTING_BASES.map((b) => b.material_id),
      MATERIALS.map((m) => m.id),
    );
    for (const e of CUTTING_DATA) assert.equal(CuttingDataEntry.safeParse(e).success, true);
  });

  it("gives every combination finite, positive speeds and feeds at common diameters", () => {
    for (const m of MATERIALS) {
      for (const toolFamily of CuttingToolFamily.options) {
        for (const toolMaterial of CuttingToolMaterial.options) {
          for (const diameterMm of toolFamily === "tap" ? [3, 6, 10, 16] : [1, 3, 6, 10, 20, 63]) {
            const c = cuttingData(m.id, { toolFamily, toolMaterial, diameterMm, flutes: 3 });
            const label = `${m.id} ${toolFamily} ${toolMaterial} D${diameterMm}`;
            assert.equal(CuttingConditions.safeParse(c).success, true, label);
            for (const v of [c.vcMPerMin, c.fzMm, c.spindleRpm, c.feedMmPerMin, c.apMm, c.aeMm])
              assert.ok(Number.isFinite(v) && v > 0, label);
            assert.deepEqual(c.clamped, [], label);
          }
        }
      }
    }
  });

  it("cuts faster with carbide than with HSS, and slower in titanium and stainless than in steel and aluminium", () => {
    for (const m of MATERIALS) {
      for (const family of CuttingToolFamily.options) {
        const carbide = CUTTING_DATA.find(
          (e) => e.material_id === m.id && e.tool_family === family && e.tool_material === "carbide",
        );
        const hss = CUTTING_DATA.find(
          (e) => e.material_id === m.id && e.tool_family === family && e.tool_material === "hss",
        );
        assert.ok(carbide && hss && carbide.vc_m_min > hss.vc_m_min, `${m.id} ${family}`);
      }
    }
    const vc = (id: string) => cuttingData(id, endMill10).vcMPerMin;
    assert.ok(vc("titanium-grade5") < vc("stainless-1.4301"));
    assert.ok(vc("stainless-1.4301") < vc("steel-42crmo4"));
    assert.ok(vc("steel-42crmo4") < vc("steel-c45"));
    assert.ok(vc("steel-c45") < vc("aluminium-6061"));
  });
});

describe("cuttingData", () => {
  it("turns vc and fz into n = vc·1000/(π·D) and vf = n·fz·z: a 10 mm carbide end mill in 6061", () => {
    const c = cuttingData("aluminium-6061", endMill10);
    assert.equal(c.recommended.vcMPerMin, 300);
    assert.equal(c.spindleRpm, 9549, "300 000 / (π · 10) = 9549.3");
    assert.equal(c.fzMm, 0.08);
    assert.equal(c.feedPerRevMm, 0.24);
    assert.equal(c.feedMmPerMin, 2291.8, "9549 · 0.08 · 3");
    assert.equal(c.vcMPerMin, 300);
    assert.equal(c.apMm, 10);
    assert.equal(c.aeMm, 4, "aluminium roughs at 0.4 · D");
    assert.deepEqual(c.clamped, []);
    assert.equal(c.feasible, true);
  });

  it("gives textbook figures for a 10 mm HSS drill and a 6 mm carbide end mill in C45", () => {
    const drill = cuttingData("steel-c45", { toolFamily: "drill", toolMaterial: "hss", diameterMm: 10, flutes: 2 });
    assert.equal(drill.vcMPerMin, 21.3, "25 m/min for an HSS end mill · 0.85");
    assert.equal(drill.spindleRpm, 678, "21.3 · 1000 / (π · 10)");
    assert.equal(drill.feedPerRevMm, 0.2, "f ≈ 0.02 · D in steel");
    assert.equal(drill.feedMmPerMin, 135.6);
    const mill = cuttingData("steel-c45", {
      toolFamily: "end_mill_roughing",
      toolMaterial: "carbide",
      diameterMm: 6,
      flutes: 4,
    });
    assert.equal(mill.spindleRpm, 8488, "160 000 / (π · 6)");
    assert.equal(mill.fzMm, 0.0325, "0.05 · 0.65 at 6 mm");
    assert.equal(mill.feedMmPerMin, 1103.4);
  });

  it("grows fz with the diameter and never shrinks it", () => {
    const diameters = [0.2, 0.5, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 25, 32, 40, 50, 63, 80, 100, 160];
    for (const m of MATERIALS) {
      for (const toolFamily of CuttingToolFamily.options.filter((f) => f !== "tap")) {
        for (const toolMaterial of CuttingToolMaterial.options) {
          const fz = diameters.map(
            (diameterMm) => cuttingData(m.id, { toolFamily, toolMaterial, diameterMm, flutes: 2 }).fzMm,
          );
          for (let i = 1; i < fz.length; i++)
            assert.ok(
              (fz[i] ?? 0) >= (fz[i - 1] ?? Infinity),
              `${m.id} ${toolFamily} ${toolMaterial} at ${diameters[i]} mm`,
            );
        }
      }
    }
    assert.equal(diameterFactor("milling", 10), 1);
    assert.equal(diameterFactor("milling", 5), 0.55, "halfway between 4 and 6 mm");
    assert.equal(diameterFactor("drilling", 200), 1.9, "constant past the last reference diameter");
    assert.equal(diameterFactor("flat", 125), 1);
  });

  it("clamps to a machine's maximum rpm, keeping the chip and reporting the lower vc", () => {
    const c = cuttingData("aluminium-6061", { ...endMill10, diameterMm: 6 }, { maxSpindleRpm: 8_100 });
    assert.equal(c.recommended.spindleRpm, 15_915);
    assert.equal(c.spindleRpm, 8_100);
    assert.deepEqual(c.clamped, ["max_spindle_rpm"]);
    assert.equal(c.fzMm, c.recommended.fzMm);
    assert.equal(c.vcMPerMin, 152.7, "8100 · π · 6 / 1000");
    assert.equal(c.feedMmPerMin, Math.round(8_100 * c.fzMm * 3 * 10) / 10);
  });

  it("clamps to a machine's maximum feed by thinning the chip, and to a router's minimum rpm", () => {
    const c = cuttingData("aluminium-6061", endMill10, { maxSpindleRpm: 24_000, maxFeedMmPerMin: 1_000 });
    assert.deepEqual(c.clamped, ["max_feed"]);
    assert.equal(c.spindleRpm, 9_549);
    assert.equal(c.feedMmPerMin, 1_000);
    assert.equal(c.fzMm, 0.0349, "1000 / (9549 · 3)");

    const slow = cuttingData(
      "steel-c45",
      { toolFamily: "drill", toolMaterial: "hss", diameterMm: 10, flutes: 2 },
      { minSpindleRpm: 8_000, maxSpindleRpm: 24_000 },
    );
    assert.deepEqual(slow.clamped, ["min_spindle_rpm"]);
    assert.equal(slow.spindleRpm, 8_000);
    assert.ok(slow.vcMPerMin > slow.recommended.vcMPerMin);
  });

  it("feeds a tap by its pitch, defaulting to ISO coarse, and slows the spindle when the feed is limited", () => {
    const tap = cuttingData("steel-c45", { toolFamily: "tap", toolMaterial: "hss", diameterMm: 10, flutes: 3 });
    assert.equal(tap.pitchMm, 1.5);
    assert.equal(tap.feedPerRevMm, 1.5);
    assert.equal(tap.spindleRpm, 318, "10 m/min on 10 mm");
    assert.equal(tap.feedMmPerMin, 477, "318 · 1.5");
    assert.equal(tap.apMm, 0.812, "thread depth 0.5413 · P");

    const fine = cuttingData("steel-c45", {
      toolFamily: "tap",
      toolMaterial: "hss",
      diameterMm: 10,
      flutes: 3,
      pitchMm: 1,
    });
    assert.equal(fine.feedMmPerMin, 318);

    const limited = cuttingData(
      "aluminium-6061",
      { toolFamily: "tap", toolMaterial: "carbide", diameterMm: 10, flutes: 3 },
      { maxFeedMmPerMin: 2_500 },
    );
    assert.deepEqual(limited.clamped, ["max_feed"]);
    assert.equal(limited.spindleRpm, 1_666, "2500 / 1.5, rounded down");
    assert.equal(limited.feedMmPerMin, 2_499);
    assert.equal(limited.feedPerRevMm, 1.5, "still the pitch");

    const router = MACHINE_ARCHETYPES.find((m) => m.control === "grbl");
    assert.ok(router);
    const onRouter = cuttingData(
      "steel-c45",
      { toolFamily: "tap", toolMaterial: "hss", diameterMm: 10, flutes: 3 },
      {
        minSpindleRpm: router.min_spindle_rpm,
        maxSpindleRpm: router.max_spindle_rpm,
        maxFeedMmPerMin: router.max_feed_mm_min,
      },
    );
    assert.equal(onRouter.feasible, false, "8000 rpm × 1.5 mm is beyond 5000 mm/min");

    assert.equal(coarsePitchMm(6), 1);
    assert.equal(coarsePitchMm(7), undefined);
    assert.throws(
      () => cuttingData("steel-c45", { toolFamily: "tap", toolMaterial: "hss", diameterMm: 7, flutes: 3 }),
      /pitchMm/,
    );
  });

  it("reads a tool library's HSS grades from the HSS table and harder cutting materials from carbide", () => {
    assert.equal(cuttingToolMaterialFor("hss_cobalt"), "hss");
    assert.equal(cuttingToolMaterialFor("hss"), "hss");
    assert.equal(cuttingToolMaterialFor("pcd"), "carbide");
    assert.equal(cuttingToolMaterialFor("carbide"), "carbide");
    assert.equal(cuttingToolMaterialFor("wood"), undefined);
  });

  it("refuses unknown materials and impossible tools", () => {
    assert.throws(() => cuttingData("unobtainium", endMill10), RangeError);
    assert.throws(() => cuttingData("steel-c45", { ...endMill10, diameterMm: 0 }));
    assert.throws(() => cuttingData("steel-c45", { ...endMill10, flutes: 2.5 }));
  });
});

describe("materialRemovalPowerKw", () => {
  it("follows Kienzle for side milling: a 10 mm end mill in C45 at ap 10, ae 3", () => {
    const cut = cuttingData("steel-c45", {
      toolFamily: "end_mill_roughing",
      toolMaterial: "carbide",
      diameterMm: 10,
      flutes: 4,
    });
    assert.equal(cut.aeMm, 3);
    const load = cuttingLoad("steel-c45", cut);
    // hm = 2 · 0.05 · 0.3 / arccos(0.4) = 0.02588 mm; kc = 2220 · hm^-0.14 ≈ 3703 N/mm²
    assert.ok(Math.abs(load.chipThicknessMm - 0.02588) < 1e-4, String(load.chipThicknessMm));
    assert.ok(Math.abs(load.kcNPerMm2 - 3703) < 1, String(load.kcNPerMm2));
    // vf = 5093 · 0.05 · 4 = 1018.6 mm/min; Q = 10 · 3 · 1018.6 mm³/min; P = Q · kc / 60e6
    assert.ok(Math.abs(load.mrrCm3PerMin - 30.558) < 0.01);
    assert.ok(Math.abs(load.powerKw - (30_558 * load.kcNPerMm2) / 60e6) < 1e-9);
    assert.ok(load.powerKw > 1.8 && load.powerKw < 2, String(load.powerKw));
    assert.equal(materialRemovalPowerKw("steel-c45", cut), load.powerKw);
  });

  it("takes less power with a positive rake, in softer material and with a thinner cut", () => {
    const cut = cuttingData("steel-c45", {
      toolFamily: "end_mill_roughing",
      toolMaterial: "carbide",
      diameterMm: 10,
      flutes: 4,
    });
    const p = materialRemovalPowerKw("steel-c45", cut);
    assert.ok(materialRemovalPowerKw("steel-c45", cut, { rakeAngleDeg: 10 }) < p);
    assert.ok(materialRemovalPowerKw("aluminium-6061", cut) < p);
    assert.ok(materialRemovalPowerKw("steel-c45", { ...cut, aeMm: 1 }) < p);
  });

  it("uses the drilling formula P = f·vc·D·kc/240000 for a full drill", () => {
    const drill = cuttingData("steel-c45", { toolFamily: "drill", toolMaterial: "carbide", diameterMm: 10, flutes: 2 });
    const load = cuttingLoad("steel-c45", drill);
    const kc = 2220 * (drill.fzMm * Math.sin((70 * Math.PI) / 180)) ** -0.14;
    const vc = (Math.PI * 10 * drill.spindleRpm) / 1000;
    assert.ok(Math.abs(load.kcNPerMm2 - kc) < 1e-6);
    assert.ok(Math.abs(load.powerKw - (drill.feedPerRevMm * vc * 10 * kc) / 240_000) < 1e-9);
    assert.ok(Math.abs(load.torqueNm - (kc * drill.feedPerRevMm * 100) / 8000) < 1e-9);
    const reamer = cuttingData("steel-c45", {
      toolFamily: "reamer",
      toolMaterial: "carbide",
      diameterMm: 10,
      flutes: 6,
    });
    assert.ok(materialRemovalPowerKw("steel-c45", reamer) < load.powerKw / 5, "a reamer's allowance is a thin annulus");
  });

  it("gives a tap the tap makers' torque kc·P²·D/8000", () => {
    const tap = cuttingData("steel-c45", { toolFamily: "tap", toolMaterial: "hss", diameterMm: 10, flutes: 3 });
    const load = cuttingLoad("steel-c45", tap);
    const kc = 2220 * 0.15 ** -0.14;
    assert.ok(Math.abs(load.torqueNm - (kc * 2.25 * 10) / 8000) < 1e-9);
    assert.ok(load.torqueNm > 5 && load.torqueNm < 15, `M10 in C45: ${load.torqueNm} N·m`);
  });

  it("checks a cut against a spindle's continuous power, with the drive's losses", () => {
    const cut = cuttingData("steel-42crmo4", {
      toolFamily: "end_mill_roughing",
      toolMaterial: "carbide",
      diameterMm: 20,
      flutes: 4,
    });
    const vmc = MACHINE_ARCHETYPES.find((m) => m.product_id === "vmc-850-fanuc");
    const router = MACHINE_ARCHETYPES.find((m) => m.product_id === "router-450-grbl");
    assert.ok(vmc && router);
    const onVmc = checkSpindlePower("steel-42crmo4", cut, vmc.spindle_power_kw);
    assert.equal(onVmc.ok, true, `${onVmc.requiredSpindlePowerKw} kW`);
    assert.ok(Math.abs(onVmc.requiredSpindlePowerKw - onVmc.cuttingPowerKw / 0.8) < 1e-9);
    assert.equal(checkSpindlePower("steel-42crmo4", cut, router.spindle_power_kw).ok, false);
    assert.throws(() => checkSpindlePower("steel-42crmo4", cut, 10, { efficiency: 0 }), RangeError);
  });
});
