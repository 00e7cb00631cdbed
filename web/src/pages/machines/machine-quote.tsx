/**
 * One machine's quote configuration (GET/PATCH /libraries/machines/{id}/quote): its name in
 * quotes and hourly rate edited in place, the rate quotes take and where it comes from, and
 * the setup-cost template (add, remove), and the machine's layer of the cost model (the quote
 * page's form; an empty field shows the quote settings' value it falls through to). The MHR
 * calculator is beside it (mhr-form.tsx).
 */
import { useEffect, useState } from "preact/hooks";
import {
  addSetupCost,
  getMachineQuote,
  getQuoteSettings,
  type MachineQuote,
  patchMachineQuote,
  removeSetupCost,
} from "../../api/machines.ts";
import { FieldError, FormError, fieldError } from "../../components/errors.tsx";
import type { CostModelValues } from "../../api/cost-model.ts";
import { useCostModelText } from "../../i18n/cost-model.ts";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { useI18n } from "../../i18n/index.ts";
import { CostModelForm } from "../quote-cost-model.tsx";
import { MhrForm } from "./mhr-form.tsx";
import { parseNumber } from "./numbers.ts";

function RateForm({ quote, onSaved }: { quote: MachineQuote; onSaved(next: MachineQuote): void }) {
  const t = useEquipmentTexts().machines;
  const [name, setName] = useState(quote.name);
  const [rate, setRate] = useState(quote.mhr_value === null ? "" : String(quote.mhr_value));
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const id = quote.product_id;
  useEffect(() => {
    setName(quote.name);
    setRate(quote.mhr_value === null ? "" : String(quote.mhr_value));
  }, [quote]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setSaved(false);
    try {
      const mhr = rate.trim() === "" ? null : parseNumber(rate, "mhr_value", t.notANumber);
      onSaved(await patchMachineQuote(id, { name: name.trim() === "" ? null : name, mhr_value: mhr }));
      setSaved(true);
    } catch (caught) {
      setError(caught);
    }
  };
  const nameError = fieldError(error, "name");
  const rateError = fieldError(error, "mhr_value");
  return (
    <form onSubmit={(event) => void submit(event)} noValidate class="field-row">
      <div class="field">
        <label for={`${id}-name`}>{t.quoteName}</label>
        <input
          id={`${id}-name`}
          type="text"
          maxLength={200}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
          aria-invalid={nameError ? true : undefined}
        />
        <FieldError id={`${id}-name-error`} message={nameError} />
      </div>
      <div class="field">
        <label for={`${id}-mhr`}>{t.mhrValue}</label>
        <input
          id={`${id}-mhr`}
          type="text"
          inputMode="decimal"
          value={rate}
          onInput={(event) => setRate(event.currentTarget.value)}
          aria-invalid={rateError ? true : undefined}
          aria-describedby={`${id}-mhr-hint`}
        />
        <p class="muted small" id={`${id}-mhr-hint`}>
          {t.mhrHint}
        </p>
        <FieldError id={`${id}-mhr-error`} message={rateError} />
      </div>
      <div class="field field-action">
        <button type="submit" class="primary">
          {t.save}
        </button>
        {saved ? (
          <span class="muted small" role="status">
            {t.saved}
          </span>
        ) : null}
      </div>
      {nameError || rateError ? null : <FormError error={error} />}
    </form>
  );
}

function SetupCosts({ quote, onChange }: { quote: MachineQuote; onChange(next: MachineQuote): void }) {
  const t = useEquipmentTexts().machines;
  const { formatMoney } = useI18n();
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [unit, setUnit] = useState("EUR");
  const [error, setError] = useState<unknown>(null);
  const id = quote.product_id;

  const add = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      onChange(await addSetupCost(id, { name, value: parseNumber(value, "value", t.notANumber), unit }));
      setName("");
      setValue("");
    } catch (caught) {
      setError(caught);
    }
  };
  const remove = async (index: number) => {
    setError(null);
    try {
      onChange(await removeSetupCost(id, index));
    } catch (caught) {
      setError(caught);
    }
  };
  const nameError = fieldError(error, "name");
  const valueError = fieldError(error, "value");
  return (
    <section aria-labelledby={`${id}-costs`}>
      <h3 id={`${id}-costs`}>{t.setupCostsTitle}</h3>
      <p class="muted small">{t.setupCostsLead}</p>
      {quote.setup_costs.length === 0 ? (
        <p class="muted">{t.noSetupCosts}</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t.costName}</th>
              <th scope="col" class="num">
                {t.costValue}
              </th>
              <th scope="col">
                <span class="visually-hidden">{t.removeCost}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {quote.setup_costs.map((cost) => (
              <tr key={cost.index}>
                <td data-label="#">{cost.index + 1}</td>
                <td data-label={t.costName}>{cost.name}</td>
                <td data-label={t.costValue} class="num">
                  {formatMoney(cost.value, "EUR")}
                  {cost.unit === "EUR/h" ? " /h" : ""}
                </td>
                <td>
                  <button type="button" class="link-danger" onClick={() => void remove(cost.index)}>
                    {t.removeCost}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={(event) => void add(event)} noValidate class="field-row">
        <div class="field">
          <label for={`${id}-cost-name`}>{t.costName}</label>
          <input
            id={`${id}-cost-name`}
            type="text"
            maxLength={200}
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
            aria-invalid={nameError ? true : undefined}
          />
          <FieldError id={`${id}-cost-name-error`} message={nameError} />
        </div>
        <div class="field">
          <label for={`${id}-cost-value`}>{t.costValue}</label>
          <input
            id={`${id}-cost-value`}
            type="text"
            inputMode="decimal"
            value={value}
            onInput={(event) => setValue(event.currentTarget.value)}
            aria-invalid={valueError ? true : undefined}
          />
          <FieldError id={`${id}-cost-value-error`} message={valueError} />
        </div>
        <div class="field">
          <label for={`${id}-cost-unit`}>{t.costUnit}</label>
          <select id={`${id}-cost-unit`} value={unit} onChange={(event) => setUnit(event.currentTarget.value)}>
            <option value="EUR">{t.unitOnce}</option>
            <option value="EUR/h">{t.unitHourly}</option>
          </select>
        </div>
        <div class="field field-action">
          <button type="submit">{t.addCost}</button>
        </div>
      </form>
      {nameError || valueError ? null : <FormError error={error} />}
    </section>
  );
}

export function MachineQuotePanel({ productId }: { productId: string }) {
  const t = useEquipmentTexts().machines;
  const { t: common, formatMoney } = useI18n();
  const costText = useCostModelText();
  const [quote, setQuote] = useState<MachineQuote | null>(null);
  const [settings, setSettings] = useState<CostModelValues | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);

  const reload = async () => {
    try {
      const [machine, defaults] = await Promise.all([getMachineQuote(productId), getQuoteSettings()]);
      setQuote(machine);
      setSettings(defaults.cost_model);
    } catch (caught) {
      setError(caught);
    }
  };
  useEffect(() => {
    void reload();
  }, [productId]);

  if (quote === null) return error ? <FormError error={error} /> : <p class="muted">{common.loading}</p>;
  const source = t.source[quote.effective_mhr.source] ?? quote.effective_mhr.source;
  return (
    <div class="machine-quote">
      <p class="effective">
        {t.effective}:{" "}
        <strong data-testid={`effective-mhr-${productId}`}>{formatMoney(quote.effective_mhr.value, "EUR")} /h</strong>{" "}
        <span class="muted small">
          ({source}
          {quote.mhr_value_source ? `, ${t.source[quote.mhr_value_source] ?? quote.mhr_value_source}` : ""})
        </span>
      </p>
      <RateForm quote={quote} onSaved={setQuote} />
      <SetupCosts quote={quote} onChange={setQuote} />
      <CostModelForm
        values={quote.cost_model}
        effective={settings}
        title={costText.machineTitle}
        lead={costText.machineLead}
        idPrefix={`${productId}-cost`}
        level={3}
        onSave={async (patch) => setQuote(await patchMachineQuote(productId, { cost_model: patch }))}
      />
      <MhrForm productId={productId} record={quote.mhr} onSaved={() => void reload()} />
    </div>
  );
}
