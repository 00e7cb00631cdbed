/**
 * The quote page's forms: the project's quote job edited in place (only changed fields are
 * sent, the API checks them) and the hourly-rate calculator (a preview through
 * POST /quote/mhr/calculate, with the machine page's inputs and words; its result can be made
 * the project's rate override).
 */
import { useEffect, useState } from "preact/hooks";
import { calculateMhr, type MhrInputs, patchQuoteJob, type QuoteJob, type QuoteJobPatch } from "../api/quote.ts";
import { MHR_INPUTS, REQUIRED_MHR_INPUTS } from "../api/machines.ts";
import { FieldError, FormError, fieldError } from "../components/errors.tsx";
import { useEquipmentTexts } from "../i18n/equipment.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { useProjectsText } from "../i18n/projects.ts";

type NumberField =
  | "quantity"
  | "overhead_percentage"
  | "profit"
  | "discount"
  | "tax"
  | "material_fixed_price"
  | "material_surcharge_percentage";

function toDraft(job: QuoteJob): Record<string, string> {
  return {
    quantity: String(job.quantity),
    mhr_override: job.mhr_override === null ? "" : String(job.mhr_override),
    overhead_percentage: String(job.overhead_percentage),
    profit: String(job.profit),
    discount: String(job.discount),
    tax: String(job.tax),
    material_fixed_price: String(job.material_fixed_price),
    material_surcharge_percentage: String(job.material_surcharge_percentage),
  };
}

/** a quote form's Save button, "Saving…" while it is busy, and "Saved." once it is done */
export function SaveActions({ busy, saved }: { busy: boolean; saved: boolean }) {
  const text = useProjectsText();
  return (
    <p class="actions">
      <button type="submit" class="primary" disabled={busy}>
        {busy ? text.quote.saving : text.quote.save}
      </button>
      {saved ? <span role="status">{text.quote.saved}</span> : null}
    </p>
  );
}

export function QuoteJobForm(props: {
  projectId: string;
  job: QuoteJob;
  currency: string;
  onSaved(job: QuoteJob): Promise<void>;
}) {
  const text = useProjectsText();
  const [draft, setDraft] = useState(toDraft(props.job));
  const [fixed, setFixed] = useState(props.job.material_is_fixed_price);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setDraft(toDraft(props.job));
    setFixed(props.job.material_is_fixed_price);
  }, [props.job]);

  const fields: [NumberField | "mhr_override", string][] = [
    ["quantity", text.quote.quantity],
    ["mhr_override", fill(text.quote.mhrOverride, { currency: props.currency })],
    ["overhead_percentage", text.quote.overheadPct],
    ["profit", text.quote.profitPct],
    ["discount", text.quote.discountPct],
    ["tax", text.quote.taxPct],
    ["material_surcharge_percentage", text.quote.surchargePct],
    ["material_fixed_price", fill(text.quote.materialFixedPrice, { currency: props.currency })],
  ];

  const submit = async (event: Event) => {
    event.preventDefault();
    const before = toDraft(props.job);
    const patch: Record<string, number | string | boolean | null> = {};
    for (const [field] of fields) {
      if (draft[field] === before[field]) continue;
      const raw = (draft[field] ?? "").trim().replace(",", ".");
      // an empty override clears it; text that is no number goes as typed: the API names what is wrong
      const number = raw === "" ? Number.NaN : Number(raw);
      patch[field] = field === "mhr_override" && raw === "" ? null : Number.isFinite(number) ? number : raw;
    }
    if (fixed !== props.job.material_is_fixed_price) patch.material_is_fixed_price = fixed;
    setSaved(false);
    setError(null);
    if (Object.keys(patch).length === 0) return;
    setBusy(true);
    try {
      const job = await patchQuoteJob(props.projectId, patch as QuoteJobPatch);
      await props.onSaved(job);
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const named = fields.some(([field]) => fieldError(error, field));
  return (
    <form class="card" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="overrides-title">
      <h2 id="overrides-title">{text.quote.overrides}</h2>
      <FormError error={named ? null : error} />
      <div class="grid-fields">
        {fields.map(([field, label]) => {
          const problem = fieldError(error, field);
          return (
            <div class="field" key={field}>
              <label for={`quote-${field}`}>{label}</label>
              <input
                id={`quote-${field}`}
                inputMode="decimal"
                value={draft[field]}
                placeholder={field === "mhr_override" ? text.quote.mhrOverrideHint : undefined}
                onInput={(event) => {
                  setDraft({ ...draft, [field]: event.currentTarget.value });
                  // the complaint was about what stood there before
                  if (problem) setError(null);
                }}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `quote-${field}-error` : undefined}
              />
              <FieldError id={`quote-${field}-error`} message={problem} />
            </div>
          );
        })}
      </div>
      <label class="check">
        <input type="checkbox" checked={fixed} onChange={(event) => setFixed(event.currentTarget.checked)} />{" "}
        {text.quote.materialFixed}
      </label>
      <SaveActions busy={busy} saved={saved} />
    </form>
  );
}

export function MhrCalculator(props: { projectId: string; currency: string; onSaved(job: QuoteJob): Promise<void> }) {
  const text = useProjectsText();
  const { formatMoney } = useI18n();
  // the same inputs, with the same words, as the machine page's rate form
  const machineTexts = useEquipmentTexts().machines;
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [mhr, setMhr] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);

  const calculate = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setMhr(null);
    const body: Record<string, number | string> = {};
    for (const field of MHR_INPUTS) {
      const raw = (inputs[field] ?? "").trim().replace(",", ".");
      if (raw !== "") body[field] = Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    try {
      setMhr((await calculateMhr(body as MhrInputs)).calculated_mhr);
    } catch (caught) {
      setError(caught);
    }
  };

  const use = async () => {
    if (mhr === null) return;
    setError(null);
    try {
      await props.onSaved(await patchQuoteJob(props.projectId, { mhr_override: Math.round(mhr * 100) / 100 }));
    } catch (caught) {
      setError(caught);
    }
  };

  const named = MHR_INPUTS.some((field) => fieldError(error, field));
  return (
    <form class="card" noValidate onSubmit={(event) => void calculate(event)} aria-labelledby="mhr-title">
      <h2 id="mhr-title">{text.quote.mhrTitle}</h2>
      <p class="muted">{text.quote.mhrLead}</p>
      <FormError error={named ? null : error} />
      <div class="grid-fields">
        {MHR_INPUTS.map((field) => {
          const problem = fieldError(error, field);
          return (
            <div class="field" key={field}>
              <label for={`mhr-${field}`}>
                {machineTexts.inputs[field]}
                {REQUIRED_MHR_INPUTS.has(field) ? null : <span class="muted small"> ({machineTexts.optional})</span>}
              </label>
              <input
                id={`mhr-${field}`}
                inputMode="decimal"
                value={inputs[field] ?? ""}
                onInput={(event) => setInputs({ ...inputs, [field]: event.currentTarget.value })}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `mhr-${field}-error` : undefined}
              />
              <FieldError id={`mhr-${field}-error`} message={problem} />
            </div>
          );
        })}
      </div>
      <p class="actions">
        <button type="submit" class="primary">
          {text.quote.calculate}
        </button>
        {mhr !== null ? (
          <>
            <strong role="status">{fill(text.quote.calculated, { mhr: formatMoney(mhr, props.currency) })}</strong>
            <button type="button" onClick={() => void use()}>
              {text.quote.useRate}
            </button>
          </>
        ) : null}
      </p>
    </form>
  );
}
