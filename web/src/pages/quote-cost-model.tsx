/**
 * The cost model's form (docs/quote.md, "Cost model"): setup, operator and programming rates
 * and times, tool wear by family. One form for every layer: on the quote page the quote job's
 * (an empty field falls through to the machine and the settings, whose value shows as its
 * placeholder), on a machine's quote configuration the machine's (falls through to the
 * settings), on the quote settings page the deepest layer. Only changed fields are sent; what the user
 * typed goes as typed when it is no number, so the API's 400 names the field beside it.
 */
import { useEffect, useState } from "preact/hooks";
import type { CostModelField, CostModelPatch, CostModelValues, WearFamily } from "../api/cost-model.ts";
import { FieldError, FormError, fieldError } from "../components/errors.tsx";
import { COST_MODEL_FIELDS, useCostModelText, WEAR_FAMILIES } from "../i18n/cost-model.ts";
import { fill, useI18n } from "../i18n/index.ts";

const WEAR_KEYS = WEAR_FAMILIES.map((family) => `tool_wear.${family}`);
const KEYS = [...COST_MODEL_FIELDS, ...WEAR_KEYS];

function layerValue(values: CostModelValues, key: string): number | undefined {
  if (key.startsWith("tool_wear.")) return values.tool_wear?.[key.slice("tool_wear.".length) as WearFamily];
  return values[key as CostModelField];
}

function toDraft(values: CostModelValues): Record<string, string> {
  return Object.fromEntries(KEYS.map((key) => [key, layerValue(values, key)?.toString() ?? ""]));
}

export function CostModelForm(props: {
  /** the layer's own values */
  values: CostModelValues;
  /** what an empty field falls through to (the quote page); none: every field has a value */
  effective?: CostModelValues;
  title: string;
  lead: string;
  /** makes the form's ids unique where several forms share a page (one per machine) */
  idPrefix?: string;
  /** the heading's level: 3 inside a machine's card */
  level?: 2 | 3;
  onSave(patch: CostModelPatch): Promise<void>;
}) {
  const text = useCostModelText();
  const { formatNumber } = useI18n();
  const prefix = props.idPrefix ?? "cost";
  const Heading = props.level === 3 ? "h3" : "h2";
  const SubHeading = props.level === 3 ? "h4" : "h3";
  const [draft, setDraft] = useState(toDraft(props.values));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setDraft(toDraft(props.values)), [props.values]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const before = toDraft(props.values);
    const patch: CostModelPatch = {};
    const wear: NonNullable<CostModelPatch["tool_wear"]> = {};
    for (const key of KEYS) {
      if (draft[key] === before[key]) continue;
      const raw = (draft[key] ?? "").trim().replace(",", ".");
      const number = raw === "" ? Number.NaN : Number(raw);
      const value = raw === "" ? null : Number.isFinite(number) ? number : raw;
      if (key.startsWith("tool_wear.")) wear[key.slice("tool_wear.".length) as WearFamily] = value;
      else patch[key as CostModelField] = value;
    }
    if (Object.keys(wear).length > 0) patch.tool_wear = wear;
    setSaved(false);
    setError(null);
    if (Object.keys(patch).length === 0) return;
    setBusy(true);
    try {
      await props.onSave(patch);
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const field = (key: string, label: string) => {
    const problem = fieldError(error, `cost_model.${key}`);
    const id = `${prefix}-${key.replace(".", "-")}`;
    const fallback = props.effective ? layerValue(props.effective, key) : undefined;
    return (
      <div class="field" key={key}>
        <label for={id}>{label}</label>
        <input
          id={id}
          inputMode="decimal"
          value={draft[key]}
          placeholder={
            fallback === undefined
              ? undefined
              : fill(text.inherited, { value: formatNumber(fallback, { maximumFractionDigits: 4 }) })
          }
          onInput={(event) => {
            setDraft({ ...draft, [key]: event.currentTarget.value });
            if (problem) setError(null);
          }}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
        />
        <FieldError id={`${id}-error`} message={problem} />
      </div>
    );
  };

  const named = KEYS.some((key) => fieldError(error, `cost_model.${key}`));
  return (
    <form class="card" noValidate onSubmit={(event) => void submit(event)} aria-labelledby={`${prefix}-model-title`}>
      <Heading id={`${prefix}-model-title`}>{props.title}</Heading>
      <p class="muted small">{props.lead}</p>
      <FormError error={named ? null : error} />
      <div class="grid-fields">{COST_MODEL_FIELDS.map((key) => field(key, text.fields[key]))}</div>
      <SubHeading>{text.toolWear}</SubHeading>
      <div class="grid-fields">
        {WEAR_FAMILIES.map((family) => field(`tool_wear.${family}`, text.families[family]))}
      </div>
      <p class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? text.saving : text.save}
        </button>
        {saved ? <span role="status">{text.saved}</span> : null}
      </p>
    </form>
  );
}
