/**
 * The quote's warnings as an estimator reads them: in the page's language where the code is
 * known, each with a link to where it is put right, and one line for every setup without a
 * setup cost instead of one line each. A code the page does not know shows the API's message.
 */
import type { ComponentChildren } from "preact";
import { page } from "../api/base.ts";
import type { Warning } from "../api/projects.ts";
import type { Breakdown } from "../api/quote.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { useProjectsText } from "../i18n/projects.ts";

// the API prefixes the planner's own words; the page says it in its language instead
const STOCK_PREFIX = "material is priced on too little stock: ";

function Line({ children }: { children: ComponentChildren }) {
  return <p class="warning">{children}</p>;
}

export function QuoteWarnings({ breakdown, projectId }: { breakdown: Breakdown; projectId: string }) {
  const text = useProjectsText();
  const { formatNumber } = useI18n();
  const projectPage = page(`/projects/${encodeURIComponent(projectId)}`);
  const link = (href: string, label: string) => (
    <>
      {" "}
      <a href={href}>{label}</a>
    </>
  );
  const missing = breakdown.warnings.filter((warning) => warning.code === "setup_cost_missing");
  const setups = breakdown.lines.filter((line) => line.kind === "setup_cost").length;
  const line = (warning: Warning, index: number) => {
    const key = `${warning.code}-${index}`;
    switch (warning.code) {
      case "setup_cost_missing":
        // all of them in one line, where the first one stood
        if (warning !== missing[0]) return null;
        return (
          <Line key={key}>
            {fill(text.quote.warn.setupCostMissing, {
              count: formatNumber(missing.length),
              total: formatNumber(Math.max(setups, missing.length)),
            })}
            {link(page("/machines"), text.quote.warn.setupCostLink)}
          </Line>
        );
      case "stock_allowance_needed":
        return (
          <Line key={key}>
            {fill(text.quote.warn.stockTooSmall, {
              message: warning.message.startsWith(STOCK_PREFIX)
                ? warning.message.slice(STOCK_PREFIX.length)
                : warning.message,
            })}
            {link(projectPage, text.quote.warn.replanLink)}
          </Line>
        );
      case "no_plan":
        return (
          <Line key={key}>
            {text.quote.warn.noPlan}
            {link(projectPage, text.quote.warn.planLink)}
          </Line>
        );
      case "material_missing":
        return <Line key={key}>{text.quote.warn.materialMissing}</Line>;
      case "stock_missing":
        return <Line key={key}>{text.quote.warn.stockMissing}</Line>;
      default:
        return <Line key={key}>{warning.message}</Line>;
    }
  };
  return <>{breakdown.warnings.map(line)}</>;
}
