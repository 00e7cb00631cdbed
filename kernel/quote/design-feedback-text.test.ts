/** Design feedback in plain words: every kind in both languages, with the item's figures and no ids. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DESIGN_FEEDBACK_KINDS, type DesignFeedbackItem } from "../dfm/types.ts";
import { designFeedbackText } from "./design-feedback-text.ts";

const item = (overrides: Partial<DesignFeedbackItem>): DesignFeedbackItem => ({
  kind: "thin_wall",
  severity: "warning",
  faces: [116, 123],
  feature: 31,
  measured: { value: 0.55, unit: "mm" },
  limit: { value: 0.8, unit: "mm" },
  details: { material: "aluminium" },
  message_key: "thin_wall",
  ...overrides,
});

describe("design feedback text", () => {
  it("words a thin wall with its thickness, the material's limit and the material, in en and de", () => {
    assert.equal(
      designFeedbackText(item({}), "en"),
      "A wall is 0.55 mm thick, thinner than the 0.8 mm recommended for aluminium: it may vibrate or bend while it is machined. Make it thicker if you can.",
    );
    assert.equal(
      designFeedbackText(item({}), "de"),
      "Eine Wand ist 0,55 mm dick, dünner als die für Aluminium empfohlenen 0,8 mm: Sie kann beim Fräsen schwingen oder sich verbiegen. Wenn möglich, dicker auslegen.",
    );
  });

  it("words a deep pocket with its depth, width and limit", () => {
    const pocket = item({
      kind: "deep_pocket",
      measured: { value: 20, unit: "mm" },
      limit: { value: 12, unit: "mm" },
      details: { width_mm: 3 },
    });
    assert.match(
      designFeedbackText(pocket, "en"),
      /20 mm deep and 3 mm wide, deeper than four times its width \(12 mm\)/,
    );
    assert.match(designFeedbackText(pocket, "de"), /20 mm tief und 3 mm breit/);
  });

  it("calls a corner without a radius sharp rather than giving it a radius of 0 mm", () => {
    const corner = item({ kind: "corner_radius_below_tool", measured: { value: 0, unit: "mm" } });
    for (const language of ["en", "de"] as const) assert.doesNotMatch(designFeedbackText(corner, language), /\b0 mm/);
    assert.match(designFeedbackText(corner, "en"), /^An internal corner is sharp: .* at least 0\.8 mm/);
    assert.match(designFeedbackText(corner, "de"), /^Eine Innenecke ist scharfkantig: .* mindestens 0,8 mm Radius/);
    const rounded = item({ kind: "corner_radius_below_tool", measured: { value: 0.3, unit: "mm" } });
    assert.match(designFeedbackText(rounded, "en"), /has a radius of 0\.3 mm, smaller than the 0\.8 mm/);
  });

  it("gives every kind a sentence in both languages, without face or feature ids", () => {
    for (const kind of DESIGN_FEEDBACK_KINDS) {
      for (const language of ["en", "de"] as const) {
        const text = designFeedbackText(
          item({ kind, message_key: kind, details: { material: "steel", width_mm: 3, diameter_mm: 7 } }),
          language,
        );
        assert.ok(text.length > 40, `${kind} ${language}`);
        assert.doesNotMatch(text, /116|123|31|\?|undefined/, `${kind} ${language}: ${text}`);
      }
    }
  });
});
