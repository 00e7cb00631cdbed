/**
 * The quote's breakdown as a shop's estimator checks it, in one table: each cost line (named
 * by the server in the page's language) with its quantity for the order, its rate, the layer the rate came from (this project, the machine,
 * the quote settings, the default) and its amount (quantity x rate), then the totals from the
 * direct cost down to the price, in the user's locale. The rate's source line and the
 * warnings stand above it.
 */
import type { Breakdown, BreakdownLine } from "../api/quote.ts";
import { type CostLayer, useCostModelText } from "../i18n/cost-model.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { formatDuration, useProjectsText } from "../i18n/projects.ts";
import type { ProjectsMessages } from "../i18n/projects-en.ts";
import { QuoteWarnings } from "./quote-warnings.tsx";

type MhrSource = keyof ProjectsMessages["quote"]["mhrSources"];

/** the layer the line's rate came from; none for material and the project's additional costs' own prices */
function lineLayer(breakdown: Breakdown, line: BreakdownLine): string | null {
  const sources = breakdown.cost_model.sources;
  switch (line.kind) {
    case "machining":
      return breakdown.mhr_source;
    case "setup_cost": {
      const source = breakdown.setups.find((setup) => setup.setup_id === line.ref)?.setup_cost.source;
      if (source === "setup_rate") return sources.setup_rate;
      return source === undefined || source === "none" ? null : source;
    }
    case "loading":
    case "operator_attendance":
    case "deburring":
    case "inspection":
      return sources.operator_rate;
    case "programming":
      return sources.programming_rate;
    case "tool_wear":
      return line.ref && line.ref in sources.tool_wear
        ? sources.tool_wear[line.ref as keyof typeof sources.tool_wear]
        : null;
    case "additional_cost":
      return "quote_job";
    default:
      return null;
  }
}

export function CostLinesTable({ breakdown, projectId }: { breakdown: Breakdown; projectId: string }) {
  const text = useCostModelText();
  const quoteText = useProjectsText().quote;
  const { formatMoney, formatNumber } = useI18n();
  const money = (value: number) => formatMoney(value, breakdown.currency);
  const pct = (value: number) => formatNumber(value, { maximumFractionDigits: 2 });
  const layer = (line: BreakdownLine) => {
    const found = lineLayer(breakdown, line);
    return found === null ? "" : (text.layers[found as CostLayer] ?? found);
  };
  const source = breakdown.mhr_source;
  const totals: [string, number, boolean][] = [
    [quoteText.directCost, breakdown.direct_cost, true],
    [fill(quoteText.overhead, { pct: pct(breakdown.overhead_percentage) }), breakdown.overhead, false],
    [quoteText.manufacturingCost, breakdown.manufacturing_cost, true],
    [fill(quoteText.profit, { pct: pct(breakdown.profit_percentage) }), breakdown.profit, false],
    [quoteText.priceBeforeDiscount, breakdown.price_before_discount, false],
    [
      fill(quoteText.discount, { pct: pct(breakdown.discount_percentage) }),
      breakdown.discount === 0 ? 0 : -breakdown.discount,
      false,
    ],
    [quoteText.netPrice, breakdown.net_price, true],
    [fill(quoteText.tax, { pct: pct(breakdown.tax_percentage) }), breakdown.tax, false],
  ];
  return (
    <section class="card" aria-labelledby="breakdown-title">
      <h2 id="breakdown-title">{quoteText.breakdown}</h2>
      <p class="muted small">
        {fill(quoteText.mhrLine, {
          mhr: money(breakdown.mhr),
          source: source in quoteText.mhrSources ? quoteText.mhrSources[source as MhrSource] : source,
          time: formatDuration(breakdown.machining_time_s),
        })}
      </p>
      <QuoteWarnings breakdown={breakdown} projectId={projectId} />
      {/* five columns do not fit a phone: the table scrolls in its card, not the page */}
      <div style={{ overflowX: "auto" }}>
        <table class="breakdown" data-testid="cost-lines">
          <thead>
            <tr>
              <th scope="col">{text.colLine}</th>
              <th scope="col" class="num">
                {text.colQuantity}
              </th>
              <th scope="col" class="num">
                {text.colRate}
              </th>
              <th scope="col">{text.colLayer}</th>
              <th scope="col" class="num">
                {text.colAmount}
              </th>
            </tr>
          </thead>
          <tbody>
            {breakdown.lines.map((line, index) => (
              <tr key={`${line.kind}-${line.ref ?? ""}-${index}`} data-kind={line.kind}>
                <td>{line.title}</td>
                <td class="num">
                  {formatNumber(line.quantity, { maximumFractionDigits: 4 })} {text.units[line.unit]}
                </td>
                <td class="num">
                  {formatNumber(line.rate, { minimumFractionDigits: 2, maximumFractionDigits: 4 })} {breakdown.currency}
                  {line.unit === "order" || line.unit === "part" ? "" : ` / ${line.unit}`}
                </td>
                <td class="small">{layer(line)}</td>
                <td class="num">{money(line.amount)}</td>
              </tr>
            ))}
          </tbody>
          <tbody data-testid="cost-totals">
            {totals.map(([name, amount, strong]) => (
              <tr key={name} class={strong ? "subtotal" : undefined}>
                <th scope="row" colSpan={4}>
                  {name}
                </th>
                <td class="num">{money(amount)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr class="total">
              <th scope="row" colSpan={4}>
                {quoteText.total}
              </th>
              <td class="num" data-testid="quote-total">
                {money(breakdown.total_price)}
              </td>
            </tr>
            <tr>
              <th scope="row" colSpan={4}>
                {quoteText.unitPrice} ({quoteText.quantity} {formatNumber(breakdown.quantity)})
              </th>
              <td class="num">{money(breakdown.unit_price)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
