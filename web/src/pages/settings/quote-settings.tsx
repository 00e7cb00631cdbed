/**
 * Settings > Quote settings (GET/PATCH /quote/settings): the user's quote defaults. Only the
 * fields changed are sent; the ranges are the API's, shown beside the field it names.
 */
import "../equipment.css";
import { useEffect, useState } from "preact/hooks";
import {
  getQuoteSettings,
  patchQuoteSettings,
  type QuoteSettings,
  type QuoteSettingsPatch,
} from "../../api/machines.ts";
import { FieldError, FormError, fieldError } from "../../components/errors.tsx";
import { usePageTitle } from "../../components/page-title.ts";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { fill, useI18n } from "../../i18n/index.ts";
import { parseNumber } from "../machines/numbers.ts";
import { CostModelForm } from "../quote-cost-model.tsx";
import { useCostModelText } from "../../i18n/cost-model.ts";

import { ShopDetailsForm } from "./quote-shop-details.tsx";

type Field =
  | "overhead_percentage"
  | "profit"
  | "discount"
  | "tax"
  | "material_surcharge_percentage"
  | "default_mhr"
  | "default_cost_per_m2"
  | "default_energy_cost";
const PERCENTAGES: Field[] = ["overhead_percentage", "profit", "discount", "tax", "material_surcharge_percentage"];
const RATES: Field[] = ["default_mhr", "default_cost_per_m2", "default_energy_cost"];
const FIELDS = [...PERCENTAGES, ...RATES];

type Texts = Record<Field, string>;

function textsOf(settings: QuoteSettings): Texts {
  const out = {} as Texts;
  for (const field of FIELDS) {
    const value = settings[field];
    out[field] = value === null ? "" : String(value);
  }
  return out;
}

export function QuoteSettingsPage() {
  const t = useEquipmentTexts().quoteSettings;
  const costText = useCostModelText();
  const { t: common, formatDateTime } = useI18n();
  usePageTitle(t.title);
  const [settings, setSettings] = useState<QuoteSettings | null>(null);
  const [values, setValues] = useState<Texts | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    getQuoteSettings().then((found) => {
      setSettings(found);
      setValues(textsOf(found));
    }, setError);
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!settings || !values) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const patch: Record<string, number | null> = {};
      for (const field of FIELDS) {
        const text = values[field].trim();
        const value = field === "default_mhr" && text === "" ? null : parseNumber(text, field, t.notANumber);
        if (value !== settings[field]) patch[field] = value;
      }
      if (Object.keys(patch).length === 0) {
        setNotice(t.nothingChanged);
        return;
      }
      const saved = await patchQuoteSettings(patch as QuoteSettingsPatch);
      setSettings(saved);
      setValues(textsOf(saved));
      setNotice(t.saved);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const input = (field: Field, hint?: string) => {
    const message = fieldError(error, field);
    const id = `qs-${field}`;
    const described = [hint ? `${id}-hint` : "", message ? `${id}-error` : ""].filter(Boolean).join(" ");
    return (
      <div class="field" key={field}>
        <label for={id}>{t[field]}</label>
        <input
          id={id}
          type="text"
          inputMode="decimal"
          value={values?.[field] ?? ""}
          onInput={(event) => values && setValues({ ...values, [field]: event.currentTarget.value })}
          aria-invalid={message ? true : undefined}
          aria-describedby={described || undefined}
        />
        {hint ? (
          <p class="muted small" id={`${id}-hint`}>
            {hint}
          </p>
        ) : null}
        <FieldError id={`${id}-error`} message={message} />
      </div>
    );
  };

  const anyFieldError = FIELDS.some((field) => fieldError(error, field));
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t.title}</h1>
      <p class="lead">{t.lead}</p>
      {settings === null || values === null ? (
        error ? (
          <FormError error={error} />
        ) : (
          <p class="muted">{common.loading}</p>
        )
      ) : (
        <form class="card" onSubmit={(event) => void submit(event)} noValidate>
          <div role="status">{notice ? <p class="notice">{notice}</p> : null}</div>
          {anyFieldError ? null : <FormError error={error} />}
          <div class="field-grid">{PERCENTAGES.map((field) => input(field))}</div>
          <div class="field-grid">
            {input("default_mhr", t.defaultMhrHint)}
            {input("default_cost_per_m2")}
            {input("default_energy_cost")}
          </div>
          <div class="actions start">
            <button type="submit" class="primary" disabled={busy}>
              {busy ? t.saving : t.save}
            </button>
            <span class="muted small">{fill(t.updated, { when: formatDateTime(settings.updated_at) })}</span>
          </div>
        </form>
      )}
      {settings ? (
        <CostModelForm
          values={settings.cost_model}
          title={costText.settingsTitle}
          lead={costText.settingsLead}
          onSave={async (patch) => {
            const saved = await patchQuoteSettings({ cost_model: patch });
            setSettings(saved);
            setValues(textsOf(saved));
          }}
        />
      ) : null}
      {settings ? <ShopDetailsForm settings={settings} onSaved={setSettings} /> : null}
    </section>
  );
}
