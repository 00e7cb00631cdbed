import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { METRIC_THREADS, standardThreading, threadName } from "./standard-threading.ts";

const entries = standardThreading();

describe("standardThreading", () => {
  it("names threads the usual way", () => {
    assert.deepEqual(METRIC_THREADS.slice(0, 3).map(threadName), ["M2", "M2.5", "M3"]);
    assert.ok(METRIC_THREADS.map(threadName).includes("M10x1.25"));
  });

  it("has taps M2..M20 coarse and the fine pitches in three forms and two grades, each with its tap drill", () => {
    const taps = entries.filter((e) => e.tool_type === "Tap");
    assert.equal(taps.length, METRIC_THREADS.length * 6);
    const m6 = taps.find((e) => e.article_number === "SSR-TP-M6X100-SF-HSSE");
    const tool = m6?.assembly.components.at(-1);
    assert.ok(tool?.component_type === "parametric_cutting_tool");
    const p = tool.parametric_cutting_tool.tool_parameters;
    assert.deepEqual(
      [p.CuttingDiameter, p.ThreadPitch, p.TapDrillDiameter, p.OverallLength, p.ShankDiameter],
      [6, 1, 5, 80, 6],
    );
    assert.equal(m6?.standard, "DIN 371");
    const holder = m6?.assembly.components[0];
    assert.ok(holder?.component_type === "adaptive_item" && holder.adaptive_item.clamping === "tapping_chuck");
  });

  it("feeds a tap one pitch per revolution", () => {
    for (const e of entries.filter((x) => x.tool_type === "Tap")) {
      const tool = e.assembly.components.at(-1);
      assert.ok(tool?.component_type === "parametric_cutting_tool");
      assert.equal(
        tool.parametric_cutting_tool.cutting_data?.[0]?.feed_per_revolution_mm,
        tool.parametric_cutting_tool.tool_parameters.ThreadPitch,
        e.article_number,
      );
    }
  });

  it("makes thread mills small enough to orbit in the tap drill hole", () => {
    const mills = entries.filter((e) => e.tool_type === "ThreadMill");
    assert.equal(mills.length, 18);
    for (const e of mills) {
      const [, nominal, hundredths] = /^SSR-TM-M(\d+)X(\d{3})-/.exec(e.article_number) ?? [];
      const thread = METRIC_THREADS.find(
        (t) => t.coarse && t.nominal === Number(nominal) && t.pitch === Number(hundredths) / 100,
      );
      assert.ok(thread && e.diameter_mm < thread.tapDrill, e.article_number);
    }
  });
});
