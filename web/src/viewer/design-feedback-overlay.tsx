/**
 * The "Design feedback" list beside the part: the quote's design feedback items (GET
 * /projects/{id}/quote, fetched once), each a button; choosing one colours its faces on the part
 * and greys the rest, choosing it again gives the part back its colours. The quote page links
 * here with ?design_feedback=<index>, which chooses that item.
 */
import type { RefObject } from "preact";
import { useEffect, useState } from "preact/hooks";
import { getBreakdown, type DesignFeedbackItem } from "../api/quote.ts";
import { useI18n } from "../i18n/index.ts";
import { HIGHLIGHT, PART_GREY } from "./feature-colours.ts";
import type { SetupView } from "./setup-view.ts";

const TEXT = {
  en: { title: "Design feedback" },
  de: { title: "Konstruktionshinweise" },
};

export interface DesignFeedbackOverlayProps {
  projectId: string;
  view: RefObject<SetupView | null>;
  canvas: RefObject<HTMLCanvasElement | null>;
  /** changes each time the view shows a setup anew */
  shown: number;
}

/** per vertex of the part: the highlight on the item's faces, grey elsewhere */
export function faceColours(faceIds: ArrayLike<number>, faces: readonly number[]): Float32Array {
  const chosen = new Set(faces);
  const colours = new Float32Array(faceIds.length * 3);
  for (let v = 0; v < faceIds.length; v++) colours.set(chosen.has(faceIds[v] as number) ? HIGHLIGHT : PART_GREY, 3 * v);
  return colours;
}

function chosenFromUrl(): number | null {
  const value = new URLSearchParams(window.location.search).get("design_feedback");
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

export function DesignFeedbackOverlay({ projectId, view, canvas, shown }: DesignFeedbackOverlayProps) {
  const { language } = useI18n();
  const text = TEXT[language === "de" ? "de" : "en"];
  const [items, setItems] = useState<DesignFeedbackItem[] | null>(null);
  const [chosen, setChosen] = useState<number | null>(chosenFromUrl);

  useEffect(() => {
    let live = true;
    getBreakdown(projectId)
      .then((breakdown) => live && setItems(breakdown.design_feedback ?? []))
      // the quote is not the viewer's business: without it the list stays empty
      .catch(() => live && setItems([]));
    return () => {
      live = false;
    };
  }, [projectId]);

  const item = chosen === null ? undefined : items?.[chosen];
  useEffect(() => {
    const current = view.current;
    const faceIds = current?.partFaceIds();
    if (!current || !faceIds || item === undefined) return;
    current.colourPart(faceColours(faceIds, item.faces));
    canvas.current?.setAttribute("data-part-colours", "design-feedback");
    return () => {
      current.colourPart(null);
      canvas.current?.setAttribute("data-part-colours", "plain");
    };
  }, [view, canvas, item, shown]);

  if (items === null || items.length === 0) return null;
  return (
    <div class="overlay" data-overlay="design-feedback">
      <p class="overlay-toggle">{text.title}</p>
      <ul class="overlay-legend small">
        {items.map((entry, index) => (
          <li key={`${entry.kind}-${index}`}>
            <button
              type="button"
              aria-pressed={chosen === index}
              data-kind={entry.kind}
              onClick={() => setChosen(chosen === index ? null : index)}
            >
              {entry.message}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
