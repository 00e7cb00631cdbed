/**
 * The project's additional costs (the quote job's `additional_costs`, docs/quote.md): groups of
 * labelled amounts, each group per part (times the quantity) or once per order. Groups are
 * added, edited and removed in place; Save sends only the groups that changed (a group sent
 * replaces that group) and null for each group removed, as the API merges them by group id.
 * What the user typed goes as typed when it is no number, so the API's 400 names the field.
 */
import { useEffect, useState } from "preact/hooks";
import { type AdditionalCostGroupPatch, patchQuoteJob, type QuoteJob } from "../api/quote.ts";
import { FieldError, FormError, fieldError } from "../components/errors.tsx";
import { useCostModelText } from "../i18n/cost-model.ts";
import { fill } from "../i18n/index.ts";
import { SaveActions } from "./quote-forms.tsx";

interface DraftGroup {
  id: string;
  title: string;
  perUnit: boolean;
  costs: { label: string; cost: string }[];
}

function toDraft(groups: QuoteJob["additional_costs"]): DraftGroup[] {
  return Object.entries(groups).map(([id, group]) => ({
    id,
    title: group.Title,
    perUnit: group.per_unit,
    costs: group.Costs.map((cost) => ({ label: cost.label, cost: String(cost.cost) })),
  }));
}

function toGroup(draft: DraftGroup): AdditionalCostGroupPatch {
  return {
    Title: draft.title,
    per_unit: draft.perUnit,
    Costs: draft.costs.map((cost) => {
      const raw = cost.cost.trim().replace(",", ".");
      const number = raw === "" ? Number.NaN : Number(raw);
      return { label: cost.label, cost: Number.isFinite(number) ? number : raw };
    }),
  };
}

/** a group id not taken yet: the API keys groups by any string */
function freshId(groups: DraftGroup[]): string {
  let n = groups.length + 1;
  while (groups.some((group) => group.id === `group-${n}`)) n += 1;
  return `group-${n}`;
}

export function AdditionalCostsForm(props: {
  projectId: string;
  job: QuoteJob;
  onSaved(job: QuoteJob): Promise<void>;
}) {
  const text = useCostModelText().additional;
  const [draft, setDraft] = useState(toDraft(props.job.additional_costs));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setDraft(toDraft(props.job.additional_costs)), [props.job]);

  const update = (index: number, change: (group: DraftGroup) => DraftGroup) =>
    setDraft(draft.map((group, i) => (i === index ? change(group) : group)));

  const submit = async (event: Event) => {
    event.preventDefault();
    const before = props.job.additional_costs;
    const patch: Record<string, AdditionalCostGroupPatch | null> = {};
    for (const group of draft) {
      const next = toGroup(group);
      if (JSON.stringify(next) !== JSON.stringify(before[group.id])) patch[group.id] = next;
    }
    for (const id of Object.keys(before)) if (!draft.some((group) => group.id === id)) patch[id] = null;
    setSaved(false);
    setError(null);
    if (Object.keys(patch).length === 0) return;
    setBusy(true);
    try {
      await props.onSaved(await patchQuoteJob(props.projectId, { additional_costs: patch }));
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const issue = (path: string) => fieldError(error, `additional_costs.${path}`);
  const named = draft.some(
    (group) =>
      issue(`${group.id}.Title`) ||
      group.costs.some((_, i) => issue(`${group.id}.Costs.${i}.label`) || issue(`${group.id}.Costs.${i}.cost`)),
  );
  return (
    <form class="card" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="additional-costs-title">
      <h2 id="additional-costs-title">{text.title}</h2>
      <p class="muted small">{text.lead}</p>
      <FormError error={named ? null : error} />
      {draft.length === 0 ? <p class="muted">{text.none}</p> : null}
      {draft.map((group, g) => {
        const base = `additional-${group.id}`;
        const titleError = issue(`${group.id}.Title`);
        return (
          <fieldset key={group.id} class="additional-group">
            <legend>{group.title || fill(text.untitled, { n: g + 1 })}</legend>
            <div class="field">
              <label for={`${base}-title`}>{text.groupTitle}</label>
              <input
                id={`${base}-title`}
                maxLength={200}
                value={group.title}
                onInput={(event) => update(g, (x) => ({ ...x, title: event.currentTarget.value }))}
                aria-invalid={titleError ? true : undefined}
              />
              <FieldError id={`${base}-title-error`} message={titleError} />
            </div>
            <label class="check">
              <input
                type="checkbox"
                checked={group.perUnit}
                onChange={(event) => update(g, (x) => ({ ...x, perUnit: event.currentTarget.checked }))}
              />{" "}
              {text.perUnit}
            </label>
            {group.costs.map((cost, c) => {
              const labelError = issue(`${group.id}.Costs.${c}.label`);
              const costError = issue(`${group.id}.Costs.${c}.cost`);
              const setCost = (change: Partial<typeof cost>) =>
                update(g, (x) => ({ ...x, costs: x.costs.map((y, i) => (i === c ? { ...y, ...change } : y)) }));
              return (
                <div class="grid-fields" key={`${group.id}-${c}`}>
                  <div class="field">
                    <label for={`${base}-${c}-label`}>{fill(text.costLabel, { n: c + 1 })}</label>
                    <input
                      id={`${base}-${c}-label`}
                      maxLength={200}
                      value={cost.label}
                      onInput={(event) => setCost({ label: event.currentTarget.value })}
                      aria-invalid={labelError ? true : undefined}
                    />
                    <FieldError id={`${base}-${c}-label-error`} message={labelError} />
                  </div>
                  <div class="field">
                    <label for={`${base}-${c}-cost`}>{fill(text.costAmount, { n: c + 1 })}</label>
                    <input
                      id={`${base}-${c}-cost`}
                      inputMode="decimal"
                      value={cost.cost}
                      onInput={(event) => setCost({ cost: event.currentTarget.value })}
                      aria-invalid={costError ? true : undefined}
                      aria-describedby={costError ? `${base}-${c}-cost-error` : undefined}
                    />
                    <FieldError id={`${base}-${c}-cost-error`} message={costError} />
                  </div>
                  <div class="field field-action">
                    <button
                      type="button"
                      class="link-danger"
                      onClick={() => update(g, (x) => ({ ...x, costs: x.costs.filter((_, i) => i !== c) }))}
                    >
                      {fill(text.removeCost, { n: c + 1 })}
                    </button>
                  </div>
                </div>
              );
            })}
            <p class="actions start">
              <button
                type="button"
                onClick={() => update(g, (x) => ({ ...x, costs: [...x.costs, { label: "", cost: "" }] }))}
              >
                {text.addCost}
              </button>
              <button type="button" class="link-danger" onClick={() => setDraft(draft.filter((_, i) => i !== g))}>
                {text.removeGroup}
              </button>
            </p>
          </fieldset>
        );
      })}
      <p class="actions start">
        <button
          type="button"
          onClick={() =>
            setDraft([...draft, { id: freshId(draft), title: "", perUnit: false, costs: [{ label: "", cost: "" }] }])
          }
        >
          {text.addGroup}
        </button>
      </p>
      <SaveActions busy={busy} saved={saved} />
    </form>
  );
}
