/**
 * The breakdown's cost lines as a shop's estimator checks them: each line's quantity for the
 * order, its unit, its rate and the amount (quantity x rate), in the user's locale.
 */
import type { Breakdown, BreakdownLine } from "../api/quote.ts";
import { useCostModelText } from "../i18n/cost-model.ts";
import { useI18n } from "../i18n/index.ts";

export function CostLinesTable({ breakdown }: { breakdown: Breakdown }) {
  const text = useCostModelText();
  const { formatMoney, formatNumber } = useI18n();
  const money = (value: number) => formatMoney(value, breakdown.currency);
  const label = (line: BreakdownLine) => {
    const kind = text.kinds[line.kind];
    if (line.kind === "tool_wear" && line.ref && line.ref in text.families)
      return `${kind}: ${text.families[line.ref as keyof typeof text.families]}`;
    return line.kind === "machining" || line.kind === "setup_cost" || line.kind === "additional_cost"
      ? `${kind}: ${line.label}`
      : kind;
  };
  return (
    <section class="card" aria-labelledby="cost-lines-title">
      <h2 id="cost-lines-title">{text.linesTitle}</h2>
      {/* four columns do not fit a phone: the table scrolls in its card, not the page */}
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
              <th scope="col" class="num">
                {text.colAmount}
              </th>
            </tr>
          </thead>
          <tbody>
            {breakdown.lines.map((line, index) => (
              <tr key={`${line.kind}-${line.ref ?? ""}-${index}`} data-kind={line.kind}>
                <td>{label(line)}</td>
                <td class="num">
                  {formatNumber(line.quantity, { maximumFractionDigits: 4 })} {text.units[line.unit]}
                </td>
                <td class="num">
                  {formatNumber(line.rate, { minimumFractionDigits: 2, maximumFractionDigits: 4 })} {breakdown.currency}
                  {line.unit === "order" || line.unit === "part" ? "" : ` / ${line.unit}`}
                </td>
                <td class="num">{money(line.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
