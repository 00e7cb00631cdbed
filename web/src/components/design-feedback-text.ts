/**
 * A design feedback item (GET /projects/{id}/quote's design_feedback) in a sentence of the
 * page's language: the same words as kernel/quote/design-feedback-text.ts, shorter, for the
 * quote page and the viewer's list.
 */
import type { DesignFeedbackItem, DesignFeedbackKind } from "../api/quote.ts";
import { fill, useI18n } from "../i18n/index.ts";

const en: Record<DesignFeedbackKind, string> = {
  thin_wall: "Wall {measured} mm thick, thinner than the {limit} mm recommended for {material}",
  deep_pocket: "Pocket {measured} mm deep, over four times its {width} mm width ({limit} mm)",
  corner_radius_below_tool:
    "Inside corner radius {measured} mm, below the {limit} mm the smallest suitable end mill leaves",
  corner_radius_small: "Inside corner radius {measured} mm: needs an end mill under 3 mm (radius {limit} mm)",
  deep_hole: "Hole Ø{diameter} mm, {measured} mm deep: over ten diameters ({limit} mm)",
  face_unreachable: "Face no tool reaches from any side on 3 axes (undercut or hidden)",
  tilted_setup: "Feature that needs the part tilted by {measured}°",
  thread_without_tap: "Thread (bore {measured} mm) without a matching tap in the library",
};

const de: Record<DesignFeedbackKind, string> = {
  thin_wall: "Wand {measured} mm dick, dünner als die für {material} empfohlenen {limit} mm",
  deep_pocket: "Tasche {measured} mm tief, mehr als das Vierfache ihrer Breite von {width} mm ({limit} mm)",
  corner_radius_below_tool: "Innenradius {measured} mm, kleiner als die {limit} mm des kleinsten geeigneten Fräsers",
  corner_radius_small: "Innenradius {measured} mm: braucht einen Fräser unter 3 mm (Radius {limit} mm)",
  deep_hole: "Bohrung Ø{diameter} mm, {measured} mm tief: mehr als zehn Durchmesser ({limit} mm)",
  face_unreachable: "Fläche, die auf 3 Achsen von keiner Seite erreichbar ist (Hinterschnitt oder verdeckt)",
  tilted_setup: "Merkmal, für das das Teil um {measured}° geneigt werden muss",
  thread_without_tap: "Gewinde (Kernloch {measured} mm) ohne passenden Gewindebohrer in der Bibliothek",
};

const MATERIALS: Record<"en" | "de", Record<string, string>> = {
  en: {
    aluminium: "aluminium",
    steel: "steel",
    stainless: "stainless steel",
    brass: "brass",
    titanium: "titanium",
    plastic: "plastic",
  },
  de: {
    aluminium: "Aluminium",
    steel: "Stahl",
    stainless: "Edelstahl",
    brass: "Messing",
    titanium: "Titan",
    plastic: "Kunststoff",
  },
};

/** the sentence of an item, in the page's language */
export function useDesignFeedbackText(): (item: DesignFeedbackItem) => string {
  const { language, formatNumber } = useI18n();
  const number = (value: number | string | undefined) =>
    typeof value === "number" ? formatNumber(value, { maximumFractionDigits: 2 }) : "–";
  const sentences = language === "de" ? de : en;
  return (item) =>
    fill(sentences[item.kind] ?? item.kind, {
      measured: number(item.measured?.value),
      limit: number(item.limit?.value),
      width: number(item.details.width_mm),
      diameter: number(item.details.diameter_mm),
      material:
        MATERIALS[language === "de" ? "de" : "en"][String(item.details.material)] ??
        (language === "de" ? "den Werkstoff" : "the material"),
    });
}
