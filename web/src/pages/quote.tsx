/**
 * Quote: the project's cost breakdown as one table of cost lines and totals with its warnings
 * (quote-cost-lines.tsx), its quote job's values edited in place (PATCH, only the changed
 * fields), the hourly-rate calculator, and the CSV and Excel exports in English and German. Money and numbers in the
 * user's locale.
 */
import { useEffect, useState } from "preact/hooks";
import { page } from "../api/base.ts";
import { getProject, type Project } from "../api/projects.ts";
import { type Breakdown, exportUrl, getBreakdown, getQuoteJob, patchQuoteJob, type QuoteJob } from "../api/quote.ts";
import { downloadFile } from "../api/transfer.ts";
import { FormError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { useProjectsText } from "../i18n/projects.ts";
import { isNotFound, ProjectNotFound } from "./project-not-found.tsx";
import { AdditionalCostsForm } from "./quote-additional-costs.tsx";
import { CustomerDocument } from "./quote-customer-document.tsx";
import { MhrCalculator, QuoteJobForm } from "./quote-forms.tsx";
import { CostLinesTable } from "./quote-cost-lines.tsx";
import { CostModelForm } from "./quote-cost-model.tsx";
import { SetupCostsForm } from "./quote-setup-costs.tsx";
import { useCostModelText } from "../i18n/cost-model.ts";
import { QuoteDesignFeedback } from "./quote-design-feedback.tsx";
import "./projects.css";

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
  const { language } = useI18n();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<unknown>(null);
  usePageTitle(loaded ? fill(text.quote.title, { name: loaded.project.name }) : text.project.quote);

  useEffect(() => {
    if (!id) return;
    setLoaded(null);
    setError(null);
    Promise.all([getProject(id), getBreakdown(id, language), getQuoteJob(id)])
      .then(([project, breakdown, job]) => setLoaded({ project, breakdown, job }))
      .catch(setError);
  }, [id, language]);

  if (!id || isNotFound(error)) return <ProjectNotFound />;
  if (error) return <FormError error={error} />;
  if (!loaded) return <p class="loading">…</p>;
  const changed = async (job: QuoteJob) => {
    const breakdown = await getBreakdown(id, language);
    setLoaded({ ...loaded, job, breakdown });
  };
  return (
    <section aria-labelledby="page-title">
      <p>
        <a href={page(`/projects/${encodeURIComponent(id)}`)}>← {loaded.project.name}</a>
      </p>
      <h1 id="page-title">{fill(text.quote.title, { name: loaded.project.name })}</h1>
      <div class="quote-grid">
        <CostLinesTable breakdown={loaded.breakdown} projectId={id} />
        <div>
          <QuoteJobForm projectId={id} job={loaded.job} currency={loaded.breakdown.currency} onSaved={changed} />
          <SetupCostsForm projectId={id} breakdown={loaded.breakdown} onSaved={changed} />
          <AdditionalCostsForm projectId={id} job={loaded.job} onSaved={changed} />
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
      <QuoteDesignFeedback breakdown={loaded.breakdown} projectId={id} />
      <MhrCalculator projectId={id} currency={loaded.breakdown.currency} onSaved={changed} />
    </section>
  );
}
