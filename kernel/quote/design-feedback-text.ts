/**
 * Design feedback (kernel/dfm) in plain words, English or German: the sentence a customer
 * document, the quote page and an email show for an item. Written from the item's figures, so
 * both languages say the same; no face ids (a customer cannot see them: the viewer shows the
 * faces instead).
 */
import type { DesignFeedbackItem, DesignFeedbackKind } from "../dfm/types.ts";

export type FeedbackLanguage = "en" | "de";

const MATERIALS: Record<FeedbackLanguage, Record<string, string>> = {
  en: {
    aluminium: "aluminium",
    steel: "steel",
    stainless: "stainless steel",
    brass: "brass",
    titanium: "titanium",
    plastic: "plastic",
    unknown: "the material",
  },
  de: {
    aluminium: "Aluminium",
    steel: "Stahl",
    stainless: "Edelstahl",
    brass: "Messing",
    titanium: "Titan",
    plastic: "Kunststoff",
    unknown: "den Werkstoff",
  },
};

type Sentence = (item: DesignFeedbackItem, n: (value: number | undefined) => string, material: string) => string;

const SENTENCES: Record<FeedbackLanguage, Record<DesignFeedbackKind, Sentence>> = {
  en: {
    thin_wall: (i, n, m) =>
      `A wall is ${n(i.measured?.value)} mm thick, thinner than the ${n(i.limit?.value)} mm recommended for ${m}: it may vibrate or bend while it is machined. Make it thicker if you can.`,
    deep_pocket: (i, n) =>
      `A pocket is ${n(i.measured?.value)} mm deep and ${n(num(i.details.width_mm))} mm wide, deeper than four times its width (${n(i.limit?.value)} mm): it needs long tools and light cuts. Make it shallower or wider if you can.`,
    corner_radius_below_tool: (i, n) =>
      sharp(i)
        ? `An internal corner is sharp: our smallest suitable end mill leaves a radius of at least ${n(i.limit?.value)} mm there, so it will come out rounded. Allow a radius of ${n(i.limit?.value)} mm or more.`
        : `An internal corner has a radius of ${n(i.measured?.value)} mm, smaller than the ${n(i.limit?.value)} mm our smallest suitable end mill leaves: it will come out rounded with at least ${n(i.limit?.value)} mm. Allow a larger radius.`,
    corner_radius_small: (i, n) =>
      `An internal corner has a radius of ${n(i.measured?.value)} mm, which needs an end mill under 3 mm (radius ${n(i.limit?.value)} mm): slower and more costly. A radius of ${n(i.limit?.value)} mm or more is cheaper.`,
    deep_hole: (i, n) =>
      `A hole of ${n(num(i.details.diameter_mm))} mm diameter is ${n(i.measured?.value)} mm deep, more than ten diameters (${n(i.limit?.value)} mm): it needs a long drill and pecking. Make it shallower or larger if you can.`,
    face_unreachable: () =>
      "A face cannot be reached by a tool from any side on a 3-axis machine (an undercut or a hidden face): it cannot be machined as drawn.",
    tilted_setup: (i, n) =>
      `A feature can only be machined with the part tilted by ${n(i.measured?.value)}° from its sides: that needs an extra angled setup.`,
    thread_without_tap: (i, n) =>
      `A threaded hole (bore ${n(i.measured?.value)} mm) has no matching tap in our tool library: the thread cannot be cut as drawn.`,
  },
  de: {
    thin_wall: (i, n, m) =>
      `Eine Wand ist ${n(i.measured?.value)} mm dick, dünner als die für ${m} empfohlenen ${n(i.limit?.value)} mm: Sie kann beim Fräsen schwingen oder sich verbiegen. Wenn möglich, dicker auslegen.`,
    deep_pocket: (i, n) =>
      `Eine Tasche ist ${n(i.measured?.value)} mm tief und ${n(num(i.details.width_mm))} mm breit, tiefer als das Vierfache ihrer Breite (${n(i.limit?.value)} mm): Sie braucht lange Werkzeuge und leichte Schnitte. Wenn möglich, flacher oder breiter auslegen.`,
    corner_radius_below_tool: (i, n) =>
      sharp(i)
        ? `Eine Innenecke ist scharfkantig: Unser kleinster geeigneter Fräser hinterlässt dort mindestens ${n(i.limit?.value)} mm Radius, sie wird also verrundet. Bitte einen Radius ab ${n(i.limit?.value)} mm zulassen.`
        : `Eine Innenecke hat einen Radius von ${n(i.measured?.value)} mm, kleiner als die ${n(i.limit?.value)} mm, die unser kleinster geeigneter Fräser hinterlässt: Sie wird mit mindestens ${n(i.limit?.value)} mm verrundet. Bitte einen größeren Radius zulassen.`,
    corner_radius_small: (i, n) =>
      `Eine Innenecke hat einen Radius von ${n(i.measured?.value)} mm und braucht einen Fräser unter 3 mm (Radius ${n(i.limit?.value)} mm): langsamer und teurer. Ein Radius ab ${n(i.limit?.value)} mm ist günstiger.`,
    deep_hole: (i, n) =>
      `Eine Bohrung mit ${n(num(i.details.diameter_mm))} mm Durchmesser ist ${n(i.measured?.value)} mm tief, mehr als zehn Durchmesser (${n(i.limit?.value)} mm): Sie braucht einen langen Bohrer und Entspanen. Wenn möglich, flacher oder größer auslegen.`,
    face_unreachable: () =>
      "Eine Fläche ist auf einer 3-Achs-Maschine von keiner Seite mit einem Werkzeug erreichbar (Hinterschnitt oder verdeckte Fläche): Sie kann so nicht gefertigt werden.",
    tilted_setup: (i, n) =>
      `Ein Merkmal kann nur mit einem um ${n(i.measured?.value)}° geneigten Teil gefertigt werden: Das braucht eine zusätzliche schräge Aufspannung.`,
    thread_without_tap: (i, n) =>
      `Für eine Gewindebohrung (Kernloch ${n(i.measured?.value)} mm) hat unsere Werkzeugbibliothek keinen passenden Gewindebohrer: Das Gewinde kann so nicht geschnitten werden.`,
  },
};

/** The item's sentence in `language`. */
export function designFeedbackText(item: DesignFeedbackItem, language: FeedbackLanguage): string {
  const format = (value: number | undefined): string =>
    value === undefined
      ? "?"
      : value.toLocaleString(language === "de" ? "de-DE" : "en-GB", { maximumFractionDigits: 2 });
  const material = MATERIALS[language][String(item.details.material ?? "unknown")] ?? MATERIALS[language].unknown!;
  return SENTENCES[language][item.kind](item, format, material);
}

/** a corner the part models without a radius (the measure's resolution is 0.01 mm) */
function sharp(item: DesignFeedbackItem): boolean {
  return (item.measured?.value ?? 1) < 0.01;
}

function num(value: string | number | undefined): number | undefined {
  return typeof value === "number" ? value : undefined;
}
