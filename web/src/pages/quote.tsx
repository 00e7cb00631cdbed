/**
 * Quote: the project's cost breakdown as a table with its warnings (quote-warnings.tsx), its
 * quote job's values edited in place (PATCH, only the changed fields), the hourly-rate
 * calculator, and the CSV and Excel exports in English and German. Money and numbers in the
 * user's locale.
 */
import { useEffect, useState } from "preact/hooks";
import { page } from "../api/base.ts";
import { getProject, type Project } from "../api/projects.ts";
import {
  type Breakdown,
  type BreakdownLine,
  exportUrl,
  getBreakdown,
  getQuoteJob,
  patchQuoteJob,
  type QuoteJob,
} from "../api/quote.ts";
import { downloadFile } from "../api/transfer.ts";
import { FormError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { formatDuration, useProjectsText } from "../i18n/projects.ts";
import type { ProjectsMessages } from "../i18n/projects-en.ts";
import { isNotFound, ProjectNotFound } from "./project-not-found.tsx";
import { CustomerDocument } from "./quote-customer-document.tsx";
import { MhrCalculator, QuoteJobForm } from "./quote-forms.tsx";
import { CostLinesTable } from "./quote-cost-lines.tsx";
import { CostModelForm } from "./quote-cost-model.tsx";
import { SetupCostsForm } from "./quote-setup-costs.tsx";
import { useCostModelText } from "../i18n/cost-model.ts";
import { QuoteDesignFeedback } from "./quote-design-feedback.tsx";
import { QuoteWarnings } from "./quote-warnings.tsx";
import "./projects.css";

type MhrSource = keyof ProjectsMessages["quote"]["mhrSources"];

function BreakdownTable({ breakdown, projectId }: { breakdown: Breakdown; projectId: string }) {
  const text = useProjectsText();
  const costText = useCostModelText();
  const { formatMoney, formatNumber } = useI18n();
  const money = (value: number) => formatMoney(value, breakdown.currency);
  // a setup's machining and its setup cost carry the same label (the setup's name)
  const lineLabel = (line: BreakdownLine) =>
    line.kind === "machining" || line.kind === "setup_cost"
      ? `${text.quote.kinds[line.kind]} ${line.label}`
      : line.kind === "material"
        ? text.quote.kinds.material
        : line.kind === "additional_cost"
          ? line.label
          : `${costText.kinds[line.kind]}${line.kind === "tool_wear" && line.ref ? `: ${line.ref}` : ""}`;
  const source = breakdown.mhr_source;
  const pct = (value: number) => formatNumber(value, { maximumFractionDigits: 2 });
  const totals: [string, number, boolean][] = [
    [text.quote.directCost, breakdown.direct_cost, false],
    [fill(text.quote.overhead, { pct: pct(breakdown.overhead_percentage) }), breakdown.overhead, false],
    [text.quote.manufacturingCost, breakdown.manufacturing_cost, true],
    [fill(text.quote.profit, { pct: pct(breakdown.profit_percentage) }), breakdown.profit, false],
    [text.quote.priceBeforeDiscount, breakdown.price_before_discount, false],
    [
      fill(text.quote.discount, { pct: pct(breakdown.discount_percentage) }),
      -breakdown.discount === 0 ? 0 : -breakdown.discount,
      false,
    ],
    [text.quote.netPrice, breakdown.net_price, true],
    [fill(text.quote.tax, { pct: pct(breakdown.tax_percentage) }), breakdown.tax, false],
  ];
  return (
    <section class="card" aria-labelledby="breakdown-title">
      <h2 id="breakdown-title">{text.quote.breakdown}</h2>
      <p class="muted small">
        {fill(text.quote.mhrLine, {
          mhr: money(breakdown.mhr),
          source: source in text.quote.mhrSources ? text.quote.mhrSources[source as MhrSource] : source,
          time: formatDuration(breakdown.machining_time_s),
        })}
      </p>
      <QuoteWarnings breakdown={breakdown} projectId={projectId} />
      <table class="breakdown">
        <thead>
          <tr>
            <th scope="col">{text.quote.colItem}</th>
            <th scope="col" class="num">
              {text.quote.colAmount}
            </th>
          </tr>
        </thead>
        <tbody>
          {breakdown.lines.map((line, index) => (
            <tr key={`${line.kind}-${line.ref ?? index}`}>
              <td>{lineLabel(line)}</td>
              <td class="num">{money(line.amount)}</td>
            </tr>
          ))}
          {totals.map(([label, amount, strong]) => (
            <tr key={label} class={strong ? "subtotal" : undefined}>
              <th scope="row">{label}</th>
              <td class="num">{money(amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr class="total">
            <th scope="row">{text.quote.total}</th>
            <td class="num" data-testid="quote-total">
              {money(breakdown.total_price)}
            </td>
          </tr>
          <tr>
            <th scope="row">
              {text.quote.unitPrice} ({text.quote.quantity} {formatNumber(breakdown.quantity)})
            </th>
            <td class="num">{money(breakdown.unit_price)}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

function Exports({ projectId }: { projectId: string }) {
  const text = useProjectsText();
  const [error, setError] = useState<unknown>(null);
  const save = async (format: "csv" | "excel", language: "en" | "de") => {
    setError(null);
    try {
      await downloadFile(
        "POST",
        exportUrl(projectId, format, language),
        `quote-${language}.${format === "csv" ? "csv" : "xlsx"}`,
      );
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section class="card" aria-labelledby="export-title">
      <h2 id="export-title">{text.quote.exportTitle}</h2>
      <p class="muted">{text.quote.exportLead}</p>
      <FormError error={error} />
      <p class="actions start">
        {(["en", "de"] as const).flatMap((language) =>
          (["csv", "excel"] as const).map((format) => (
            <button key={`${format}-${language}`} type="button" onClick={() => void save(format, language)}>
              {fill(format === "csv" ? text.quote.exportCsv : text.quote.exportExcel, {
                language: language === "en" ? "English" : "Deutsch",
              })}
            </button>
          )),
        )}
      </p>
    </section>
  );
}

interface Loaded {
  project: Project;
  breakdown: Breakdown;
  job: QuoteJob;
}

export function QuotePage({ id }: { id?: string }) {
  const text = useProjectsText();
  const costText = useCostModelText();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  usePageTitle(loaded ? fill(text.quote.title, { name: loaded.project.name }) : text.project.quote);

  useEffect(() => {
    if (!id) return;
    setLoaded(null);
    setError(null);
    Promise.all([getProject(id), getBreakdown(id), getQuoteJob(id)])
      .then(([project, breakdown, job]) => setLoaded({ project, breakdown, job }))
      .catch(setError);
  }, [id]);

  if (!id || isNotFound(error)) return <ProjectNotFound />;
  if (error) return <FormError error={error} />;
  if (!loaded) return <p class="loading">…</p>;
  const changed = async (job: QuoteJob) => {
    const breakdown = await getBreakdown(id);
    setLoaded({ ...loaded, job, breakdown });
  };
  return (
    <section aria-labelledby="page-title">
      <p>
        <a href={page(`/projects/${encodeURIComponent(id)}`)}>← {loaded.project.name}</a>
      </p>
      <h1 id="page-title">{fill(text.quote.title, { name: loaded.project.name })}</h1>
      <div class="quote-grid">
        <BreakdownTable breakdown={loaded.breakdown} projectId={id} />
        <div>
          <QuoteJobForm projectId={id} job={loaded.job} currency={loaded.breakdown.currency} onSaved={changed} />
          <SetupCostsForm projectId={id} breakdown={loaded.breakdown} onSaved={changed} />
          <CostModelForm
            values={loaded.job.cost_model}
            effective={loaded.breakdown.cost_model}
            title={costText.formTitle}
            lead={costText.formLead}
            onSave={async (patch) => changed(await patchQuoteJob(id, { cost_model: patch }))}
          />
          <Exports projectId={id} />
          <CustomerDocument projectId={id} job={loaded.job} onSaved={changed} />
        </div>
      </div>
      <CostLinesTable breakdown={loaded.breakdown} />
      <QuoteDesignFeedback breakdown={loaded.breakdown} projectId={id} />
      <MhrCalculator projectId={id} currency={loaded.breakdown.currency} onSaved={changed} />
    </section>
  );
}
