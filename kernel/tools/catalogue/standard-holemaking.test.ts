import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DIN_338_DIAMETERS,
  DIN_6537_DIAMETERS,
  REAMER_DIAMETERS,
  standardHolemaking,
  tenths,
} from "./standard-holemaking.ts";

const entries = standardHolemaking();
const params = (article: string) => {
  const entry = entries.find((e) => e.article_number === article);
  assert.ok(entry, article);
  const last = entry.assembly.components.at(-1);
  assert.ok(last?.component_type === "parametric_cutting_tool");
  return last.parametric_cutting_tool.tool_parameters;
};

describe("tenths", () => {
  it("steps exactly by a tenth", () => {
    assert.deepEqual(tenths(2.8, 3.1), [2.8, 2.9, 3, 3.1]);
    assert.equal(DIN_338_DIAMETERS.length, 191);
    assert.equal(DIN_6537_DIAMETERS.length, 171);
    assert.equal(REAMER_DIAMETERS.length, 35);
  });
});

describe("standardHolemaking", () => {
  it("has a DIN 338 drill every 0.1 mm from 1 to 20 mm in four grades", () => {
    const din338 = entries.filter((e) => e.standard === "DIN 338");
    assert.equal(din338.length, 191 * 4);
    assert.deepEqual([...new Set(din338.map((e) => e.diameter_mm))], DIN_338_DIAMETERS);
  });

  it("sizes the 10 mm jobber drill as DIN 338 does: flute 87, overall 133, 118 degrees", () => {
    const p = params("SSR-DR338-1000-HSS");
    assert.deepEqual(
      [p.CuttingDiameter, p.FluteLength, p.OverallLength, p.ShankDiameter, p.PointAngle],
      [10, 87, 133, 10, 118],
    );
  });

  it("has DIN 6537 K and L carbide drills every 0.1 mm from 3 to 20 mm at 140 degrees", () => {
    for (const series of ["K", "L"]) {
      const drills = entries.filter((e) => e.standard === `DIN 6537 ${series}`);
      assert.equal(drills.length, 171 * 3, series);
    }
    const p = params("SSR-DR6537L-0300-IC");
    assert.deepEqual(
      [p.FluteLength, p.OverallLength, p.ShankDiameter, p.DepthOfCutMaximum, p.PointAngle],
      [28, 66, 6, 23, 140],
    );
  });

  it("has 90, 120 and 142 degree spot drills and DIN 333 form A centre drills", () => {
    assert.deepEqual(
      [...new Set(entries.filter((e) => e.tool_type === "SpotDrill").map((e) => params(e.article_number).PointAngle))],
      [90, 120, 142],
    );
    const a25 = params("SSR-CD333A-0250-HSS");
    assert.deepEqual([a25.TipDiameter, a25.CuttingDiameter, a25.OverallLength, a25.PointAngle], [2.5, 6.3, 45, 60]);
  });
});
