/**
 * The quote page's design feedback: what in the part's design is hard or impossible to machine
 * (GET /projects/{id}/quote's design_feedback), errors first, each in a sentence with its faces,
 * and a link to the project's 3D view, where choosing an item highlights its faces.
 */
import type { Breakdown } from "../api/quote.ts";
import { page } from "../api/base.ts";
import { useI18n } from "../i18n/index.ts";

const TEXT = {
  en: {
    title: "Design feedback",
    none: "Nothing in the part's design is hard to machine.",
    faces: "faces",
    show: "Show on the part",
  },
  de: {
    title: "Konstruktionshinweise",
    none: "Nichts an der Konstruktion ist schwer zu fertigen.",
    faces: "Flächen",
    show: "Am Teil zeigen",
  },
};

export function QuoteDesignFeedback({ breakdown, projectId }: { breakdown: Breakdown; projectId: string }) {
  const { language } = useI18n();
  const text = TEXT[language === "de" ? "de" : "en"];
  const items = breakdown.design_feedback ?? [];
  return (
    <section class="card" aria-labelledby="design-feedback-title" data-testid="design-feedback">
      <h2 id="design-feedback-title">{text.title}</h2>
      {items.length === 0 ? (
        <p class="muted">{text.none}</p>
      ) : (
        <ul class="design-feedback">
          {items.map((item, index) => (
            <li
              key={`${item.kind}-${index}`}
              class={item.severity === "error" ? "warning" : undefined}
              data-kind={item.kind}
            >
              {item.message}{" "}
              <span class="muted small">
                ({text.faces} {item.faces.join(", ")})
              </span>{" "}
              <a href={page(`/projects/${encodeURIComponent(projectId)}?design_feedback=${index}`)}>{text.show}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
