import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  BULL_NOSE_RADII,
  END_MILL_DIAMETERS,
  endMillBody,
  LONG_NECK_REACH,
  longNeckBody,
  standardMills,
} from "./standard-mills.ts";

const mills = standardMills();
const tool = (article: string) => {
  const entry = mills.find((e) => e.article_number === article);
  assert.ok(entry, article);
  const component = entry.assembly.components.at(-1);
  assert.ok(component?.component_type === "parametric_cutting_tool");
  return { entry, tool: component.parametric_cutting_tool, holder: entry.assembly.components[0] };
};

describe("endMillBody", () => {
  it("takes DIN 6527 bodies where the standard has them", () => {
    assert.deepEqual(endMillBody(6, "L"), {
      flute: 13,
      overall: 57,
      shank: 6,
      neck: undefined,
      standard: "DIN 6527 L",
    });
    assert.equal(endMillBody(10, "K").standard, "DIN 6527 K");
  });

  it("gives micro end mills a 6 mm shank and a relieved neck, and 7 and 9 mm the next larger body", () => {
    const micro = endMillBody(1, "L");
    assert.deepEqual(micro, { flute: 3, overall: 57, shank: 6, neck: { diameter: 0.95, length: 6 }, standard: null });
    const seven = endMillBody(7, "L");
    assert.deepEqual([seven.flute, seven.overall, seven.shank, seven.standard], [16, 63, 8, null]);
  });
});

describe("standardMills", () => {
  it("offers flat end mills of every diameter in both series with 2, 3 and 4 flutes", () => {
    for (const d of END_MILL_DIAMETERS) {
      for (const series of ["K", "L"]) {
        const flats = mills.filter(
          (e) =>
            e.tool_type === "CentreCuttingEndMill" && e.diameter_mm === d && e.article_number.includes(`-${series}-`),
        );
        const flutes = new Set(flats.map((e) => Number(e.article_number.slice(6, 7))));
        assert.deepEqual([...flutes].sort(), d < 2 ? [2, 3] : [2, 3, 4], `Ø${d} ${series}`);
      }
    }
  });

  it("offers long-neck end mills: short flutes on a relieved neck reaching 5 to 12 D, the reach outside the holder", () => {
    for (const [key, reach] of Object.entries(LONG_NECK_REACH)) {
      const d = Number(key);
      const { tool: t } = tool(`SSR-EM2-${String(Math.round(d * 100)).padStart(4, "0")}-N${reach}-UC`);
      const p = t.tool_parameters;
      assert.deepEqual([p.CuttingDiameter, p.FluteLength, p.NeckLength], [d, 1.5 * d, reach]);
      assert.ok(p.NeckDiameter !== undefined && p.NeckDiameter < d && reach >= 5 * d && reach <= 12 * d, `Ø${d}`);
      assert.ok((p.LengthBelowHolder ?? 0) >= reach + 2, `Ø${d}: the neck outside the collet`);
    }
    assert.deepEqual(longNeckBody(3), {
      flute: 4.5,
      overall: 60,
      shank: 6,
      neck: { diameter: 2.85, length: 20 },
      standard: null,
    });
  });

  it("sizes a DIN 6527 L end mill as the standard says and holds it in an ER collet chuck", () => {
    const { entry, tool: t, holder } = tool("SSR-EM4-0600-L-TA");
    assert.equal(entry.standard, "DIN 6527 L");
    assert.deepEqual(
      [
        t.tool_parameters.CuttingDiameter,
        t.tool_parameters.FluteLength,
        t.tool_parameters.OverallLength,
        t.tool_parameters.ShankDiameter,
      ],
      [6, 13, 57, 6],
    );
    assert.ok(holder?.component_type === "adaptive_item" && holder.adaptive_item.clamping === "collet_chuck");
  });

  it("gives balls their radius, bull noses radii up to a quarter of the diameter, large shanks a Weldon holder", () => {
    assert.equal(tool("SSR-BM2-1000-L-TA").tool.tool_parameters.CornerRadius, 5);
    for (const e of mills.filter((m) => m.tool_type === "BullNoseEndMill")) {
      const last = e.assembly.components.at(-1);
      assert.ok(last?.component_type === "parametric_cutting_tool");
      const r = last.parametric_cutting_tool.tool_parameters.CornerRadius ?? 0;
      assert.ok(r > 0 && r <= e.diameter_mm / 4 && BULL_NOSE_RADII.includes(r as never), e.article_number);
    }
    const { holder } = tool("SSR-EM3-2000-L-TA");
    assert.ok(holder?.component_type === "adaptive_item" && holder.adaptive_item.clamping === "weldon");
  });

  it("puts face mills on shell mill arbors that fit their bore", () => {
    const { tool: t, holder } = tool("SSR-FM90-063-Z05");
    assert.ok(holder?.component_type === "adaptive_item");
    assert.equal(holder.adaptive_item.clamping, "shell_mill_arbor");
    assert.equal(holder.adaptive_item.clamping_range_mm?.min, t.tool_parameters.ShankDiameter);
    assert.deepEqual(
      [...new Set(mills.filter((e) => e.tool_type === "FaceMill").map((e) => e.diameter_mm))],
      [40, 50, 63, 80, 100, 125],
    );
  });

  it("offers chamfer mills at 45, 30 and 60 degrees", () => {
    const angles = new Set(mills.filter((e) => e.tool_type === "ChamferMill").map((e) => e.article_number.slice(6, 9)));
    assert.deepEqual([...angles].sort(), ["030", "045", "060"]);
  });
});
