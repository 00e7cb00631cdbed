/**
 * The MHR calculator of one machine: the VDI 3258 inputs posted to POST /libraries/machines/
 * {id}/mhr, which computes, stores and applies the rate; the page shows the API's result. The
 * optional inputs left empty take the API's defaults (the quote settings', or 1).
 */
import { useState } from "preact/hooks";
import {
  MHR_INPUTS,
  type MhrInput,
  type MhrInputs,
  type MhrRecord,
  REQUIRED_MHR_INPUTS,
  saveMhr,
} from "../../api/machines.ts";
import { FieldError, FormError, fieldError } from "../../components/errors.tsx";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { useI18n } from "../../i18n/index.ts";
import { parseNumber } from "./numbers.ts";

type Texts = Record<MhrInput, string>;

export function MhrForm({
  productId,
  record,
  onSaved,
}: {
  productId: string;
  record: Omit<MhrRecord, "product_id"> | null;
  onSaved(record: MhrRecord): void;
}) {
  const t = useEquipmentTexts().machines;
  const { formatMoney } = useI18n();
  const [values, setValues] = useState<Texts>(() => {
    const start = {} as Texts;
    for (const name of MHR_INPUTS) start[name] = record ? String(record.inputs[name]) : "";
    return start;
  });
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<number | null>(record?.calculated_mhr ?? null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const inputs: Partial<MhrInputs> = {};
      for (const name of MHR_INPUTS) {
        const text = values[name];
        if (text.trim() === "" && !REQUIRED_MHR_INPUTS.has(name)) continue;
        inputs[name] = parseNumber(text, name, t.notANumber);
      }
      const saved = await saveMhr(productId, inputs);
      setResult(saved.calculated_mhr);
      onSaved(saved);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const anyFieldError = MHR_INPUTS.some((name) => fieldError(error, name));
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-labelledby={`${productId}-mhr-title`}>
      <h3 id={`${productId}-mhr-title`}>{t.mhrTitle}</h3>
      <p class="muted small">{t.mhrLead}</p>
      {anyFieldError ? null : <FormError error={error} />}
      <div class="field-grid">
        {MHR_INPUTS.map((name) => {
          const id = `${productId}-${name}`;
          const message = fieldError(error, name);
          return (
            <div class="field" key={name}>
              <label for={id}>
                {t.inputs[name]}
                {REQUIRED_MHR_INPUTS.has(name) ? null : <span class="muted small"> ({t.optional})</span>}
              </label>
              <input
                id={id}
                type="text"
                inputMode="decimal"
                value={values[name]}
                onInput={(event) => setValues({ ...values, [name]: event.currentTarget.value })}
                aria-invalid={message ? true : undefined}
                aria-describedby={message ? `${id}-error` : undefined}
              />
              <FieldError id={`${id}-error`} message={message} />
            </div>
          );
        })}
      </div>
      <div class="actions start">
        <button type="submit" class="primary" disabled={busy}>
          {t.calculate}
        </button>
        {result !== null ? (
          <p class="result" role="status">
            {t.calculated}: <strong data-testid={`calculated-mhr-${productId}`}>{formatMoney(result, "EUR")} /h</strong>
          </p>
        ) : null}
      </div>
    </form>
  );
}
