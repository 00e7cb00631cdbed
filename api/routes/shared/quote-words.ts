/**
 * The breakdown's words in the caller's language (GET /projects/{id}/quote?language=): each cost
 * line's name and each design feedback item's sentence, from the kernel's one copy of them (the
 * exports' line names, kernel/quote/design-feedback-text.ts), so a client shows them as given
 * and keeps no copy of its own.
 */
import type { DesignFeedbackItem } from "../../../kernel/dfm/types.ts";
import type { BreakdownJson } from "../../../kernel/quote/breakdown.ts";
import { designFeedbackText } from "../../../kernel/quote/design-feedback-text.ts";
import { type ExportLanguage, lineLabel } from "../../../kernel/quote/export.ts";

export function breakdownInLanguage<
  B extends { lines: BreakdownJson["lines"]; design_feedback?: readonly DesignFeedbackItem[] },
>(
  breakdown: B,
  language: ExportLanguage,
): Omit<B, "lines" | "design_feedback"> & {
  lines: (BreakdownJson["lines"][number] & { title: string })[];
  design_feedback: (DesignFeedbackItem & { message: string })[];
} {
  return {
    ...breakdown,
    lines: breakdown.lines.map((line) => ({ ...line, title: lineLabel(language, line) })),
    design_feedback: (breakdown.design_feedback ?? []).map((item) => ({
      ...item,
      message: designFeedbackText(item, language),
    })),
  };
}
