/**
 * The quote page's customer's document (docs/quote.md, "The customer's document"): the quote
 * job's customer, part name, quantities, validity and delivery edited in place (only changed
 * fields are sent, the API checks them), and the PDF and Excel downloads in English and German.
 */
import { useState } from "preact/hooks";
import { customerExportUrl, getQuoteJob, patchQuoteJob, type QuoteJob, type QuoteJobPatch } from "../api/quote.ts";
import { downloadFile } from "../api/transfer.ts";
import { FieldError, FormError, fieldError } from "../components/errors.tsx";
import { fill } from "../i18n/index.ts";
import { useQuoteCustomerTexts } from "../i18n/quote-customer.ts";
import { SaveActions } from "./quote-forms.tsx";

type Field = "customer_name" | "customer_address" | "part_name" | "quantity_breaks" | "valid_until" | "delivery_days";

function toDraft(job: QuoteJob): Record<Field, string> {
  return {
    customer_name: job.customer_name,
    customer_address: job.customer_address,
    part_name: job.part_name ?? "",
    quantity_breaks: job.quantity_breaks.join(", "),
    valid_until: job.valid_until ?? "",
    delivery_days: job.delivery_days === null ? "" : String(job.delivery_days),
  };
}

/** "1, 10, 50" as numbers; a word that is no number stays a string, for the API to refuse by name */
function breaksOf(text: string): (number | string)[] {
  return text
    .split(/[,;\s]+/)
    .filter((word) => word !== "")
    .map((word) => (/^\d+$/.test(word) ? Number(word) : word));
}

export function CustomerDocument(props: { projectId: string; job: QuoteJob; onSaved(job: QuoteJob): Promise<void> }) {
  const t = useQuoteCustomerTexts();
  const [draft, setDraft] = useState(toDraft(props.job));
  const [number, setNumber] = useState(props.job.quote_number);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setSaved(false);
    setError(null);
    try {
      const before = toDraft(props.job);
      const patch: Record<string, unknown> = {};
      if (draft.customer_name !== before.customer_name) patch.customer_name = draft.customer_name;
      if (draft.customer_address !== before.customer_address) patch.customer_address = draft.customer_address;
      if (draft.part_name !== before.part_name)
        patch.part_name = draft.part_name.trim() === "" ? null : draft.part_name;
      if (draft.quantity_breaks !== before.quantity_breaks) patch.quantity_breaks = breaksOf(draft.quantity_breaks);
      if (draft.valid_until !== before.valid_until)
        patch.valid_until = draft.valid_until === "" ? null : draft.valid_until;
      if (draft.delivery_days !== before.delivery_days)
        patch.delivery_days =
          draft.delivery_days.trim() === ""
            ? null
            : /^\d+$/.test(draft.delivery_days.trim())
              ? Number(draft.delivery_days)
              : draft.delivery_days;
      if (Object.keys(patch).length > 0) {
        const job = await patchQuoteJob(props.projectId, patch as QuoteJobPatch);
        setDraft(toDraft(job));
        await props.onSaved(job);
      }
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const download = async (format: "pdf" | "excel", language: "en" | "de") => {
    setError(null);
    try {
      await downloadFile(
        "POST",
        customerExportUrl(props.projectId, format, language),
        `quote-${language}.${format === "pdf" ? "pdf" : "xlsx"}`,
      );
      setNumber((await getQuoteJob(props.projectId)).quote_number);
    } catch (caught) {
      setError(caught);
    }
  };

  const field = (
    name: Field,
    label: string,
    options: { hint?: string; multiline?: boolean; placeholder?: string } = {},
  ) => {
    const id = `customer-${name.replace(/_/g, "-")}`;
    const message = fieldError(error, name) ?? fieldError(error, `${name}.0`);
    const described = [options.hint ? `${id}-hint` : "", message ? `${id}-error` : ""].filter(Boolean).join(" ");
    const common = {
      id,
      value: draft[name],
      "aria-invalid": message ? true : undefined,
      "aria-describedby": described || undefined,
    };
    return (
      <div class="field" key={name}>
        <label for={id}>{label}</label>
        {options.multiline ? (
          <textarea
            {...common}
            rows={3}
            onInput={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })}
          />
        ) : (
          <input
            {...common}
            type="text"
            placeholder={options.placeholder}
            onInput={(event) => setDraft({ ...draft, [name]: event.currentTarget.value })}
          />
        )}
        {options.hint ? (
          <p class="muted small" id={`${id}-hint`}>
            {options.hint}
          </p>
        ) : null}
        <FieldError id={`${id}-error`} message={message} />
      </div>
    );
  };

  return (
    <section class="card" aria-labelledby="customer-document-title">
      <h2 id="customer-document-title">{t.title}</h2>
      <p class="muted">{t.lead}</p>
      <form aria-labelledby="customer-document-title" onSubmit={(event) => void submit(event)} noValidate>
        <FormError error={error} />
        {field("customer_name", t.customerName)}
        {field("customer_address", t.customerAddress, { multiline: true })}
        {field("part_name", t.partName, { hint: t.partNameHint })}
        {field("quantity_breaks", t.quantityBreaks, { hint: t.quantityBreaksHint })}
        {field("valid_until", t.validUntil, { hint: t.validUntilHint, placeholder: "YYYY-MM-DD" })}
        {field("delivery_days", t.deliveryDays, { hint: t.deliveryDaysHint })}
        <SaveActions busy={busy} saved={saved} />
      </form>
      <p class="muted small" data-testid="quote-number">
        {number ? fill(t.number, { number }) : t.noNumber}
      </p>
      <p class="actions start">
        {(["en", "de"] as const).flatMap((language) =>
          (["pdf", "excel"] as const).map((format) => (
            <button key={`${format}-${language}`} type="button" onClick={() => void download(format, language)}>
              {fill(format === "pdf" ? t.pdf : t.excel, { language: language === "en" ? "English" : "Deutsch" })}
            </button>
          )),
        )}
      </p>
    </section>
  );
}
