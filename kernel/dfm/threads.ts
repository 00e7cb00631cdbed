/**
 * Modelled threads no tap of the library cuts. A tap fits a threaded hole when its core
 * (nominal - pitch, the ISO tap drill) is the bore within 0.1 pitch + 0.05 mm and its pitch is
 * the thread's when the model gives one: the planner's rule (kernel/cam/tooling/select-holes.ts
 * TAP_CORE_TOLERANCE), here without the reach, which the plan itself reports.
 */
import type { Feature } from "../features/recognition/types.ts";
import type { DesignFeedbackItem, DfmTool } from "./types.ts";

const CORE_TOLERANCE = { pitches: 0.1, mm: 0.05 };

export function threadsWithoutTap(features: readonly Feature[], tools: readonly DfmTool[]): DesignFeedbackItem[] {
  const taps = tools.filter((tool) => tool.kind === "tap" && tool.pitch_mm !== null);
  const items: DesignFeedbackItem[] = [];
  for (const feature of features) {
    const thread = feature.hole?.thread;
    const bore = feature.hole?.diameter_mm;
    if (thread === undefined || bore === undefined) continue;
    const fits = taps.some((tap) => {
      const pitch = tap.pitch_mm as number;
      if (thread.pitch_mm !== null && Math.abs(pitch - thread.pitch_mm) > 1e-3) return false;
      return Math.abs(tap.diameter_mm - pitch - bore) <= CORE_TOLERANCE.pitches * pitch + CORE_TOLERANCE.mm;
    });
    if (fits) continue;
    items.push({
      kind: "thread_without_tap",
      severity: "error",
      faces: [...feature.faces],
      feature: feature.id,
      measured: { value: Math.round(bore * 100) / 100, unit: "mm" },
      limit: null,
      details: thread.pitch_mm === null ? { bore_mm: bore } : { bore_mm: bore, pitch_mm: thread.pitch_mm },
      message_key: "thread_without_tap",
    });
  }
  return items;
}
