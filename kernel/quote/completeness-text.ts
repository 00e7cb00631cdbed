/**
 * What makes a plan incomplete, in words and figures, for the quote: the breakdown's
 * `plan_incomplete` warning (English) and the line at the top of an export (English or German).
 * Written from the completeness figures (kernel/cam/plan-types.ts Completeness), not from the
 * planner's English reason messages, so both languages say the same.
 */
import type { Completeness } from "../cam/plan-types.ts";

export type TextLanguage = "en" | "de";

const WORDS = {
  en: {
    hole: (n: number) => (n === 1 ? "1 hole not made" : `${n} holes not made`),
    face: (n: number) => (n === 1 ? "1 face unreachable" : `${n} faces unreachable`),
    unheld: (n: number) =>
      n === 1 ? "1 setup the workholding cannot hold" : `${n} setups the workholding cannot hold`,
    material: (surface: string, limit: string, volume: string, removable: string) =>
      `${surface} % of the part's surface under material left (limit ${limit} %; ${volume} mm³, ${removable} % of the removable volume)`,
    warning: "the plan is incomplete",
    banner: "INCOMPLETE PLAN: this quote prices a plan that does not finish the part",
  },
  de: {
    hole: (n: number) => (n === 1 ? "1 Bohrung nicht gefertigt" : `${n} Bohrungen nicht gefertigt`),
    face: (n: number) => (n === 1 ? "1 Fläche nicht erreichbar" : `${n} Flächen nicht erreichbar`),
    unheld: (n: number) =>
      n === 1 ? "1 Aufspannung, die das Spannmittel nicht hält" : `${n} Aufspannungen, die das Spannmittel nicht hält`,
    material: (surface: string, limit: string, volume: string, removable: string) =>
      `${surface} % der Teiloberfläche unter Restmaterial (Grenze ${limit} %; ${volume} mm³, ${removable} % des zu zerspanenden Volumens)`,
    warning: "der Plan ist unvollständig",
    banner: "UNVOLLSTÄNDIGER PLAN: dieses Angebot kalkuliert einen Plan, der das Teil nicht fertigstellt",
  },
} as const;

/** a share in percent: one decimal from 1 up, two below (0.25 stays 0.25, 3.14 is 3.1) */
function percent(value: number, language: TextLanguage): string {
  return value.toLocaleString(language === "de" ? "de-DE" : "en-GB", {
    maximumFractionDigits: Math.abs(value) >= 1 ? 1 : 2,
  });
}

function volume(value: number, language: TextLanguage): string {
  return Math.round(value).toLocaleString(language === "de" ? "de-DE" : "en-GB");
}

/** each reason of an incomplete plan in figures, in the order the plan gives them */
export function incompletenessFigures(completeness: Completeness, language: TextLanguage): string[] {
  const words = WORDS[language];
  return completeness.reasons.map((reason) => {
    switch (reason.code) {
      case "hole_not_made":
        return words.hole(completeness.holes_not_made.length);
      case "face_unreachable":
        return words.face(completeness.faces_unreachable.length);
      case "workholding_unavailable":
        return words.unheld(completeness.setups_left_out.filter((s) => s.reason === "workholding_unavailable").length);
      case "material_left": {
        const m = completeness.material_left;
        return words.material(
          percent(m.surface_pct, language),
          percent(m.surface_limit_pct, language),
          volume(m.volume_mm3, language),
          percent(m.pct_of_removable, language),
        );
      }
      default:
        // a reason this version does not know: the planner's own words
        return (reason as { message: string }).message;
    }
  });
}

function incomplete(completeness: Completeness | null): completeness is Completeness {
  return completeness !== null && completeness.status === "incomplete";
}

/** "the plan is incomplete: 2 holes not made, 3.1 % of ..."; null when the plan is complete (or has no completeness) */
export function planIncompleteMessage(completeness: Completeness | null): string | null {
  if (!incomplete(completeness)) return null;
  return withFigures(WORDS.en.warning, incompletenessFigures(completeness, "en"));
}

/** the line at the top of an export of a quote whose plan is incomplete; null otherwise */
export function incompletePlanBanner(completeness: Completeness | null, language: TextLanguage): string | null {
  if (!incomplete(completeness)) return null;
  return withFigures(WORDS[language].banner, incompletenessFigures(completeness, language));
}

function withFigures(lead: string, figures: string[]): string {
  return figures.length === 0 ? lead : `${lead}: ${figures.join(", ")}`;
}
