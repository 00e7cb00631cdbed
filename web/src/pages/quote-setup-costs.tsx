/**
 * The project's setup costs edited in place: one amount per setup of the plan, saved as the
 * quote job's fixed-price setup-cost entries (`setup_costs`, keyed by the setup's id, merged by
 * the API with those already there). The breakdown's setup-cost lines name the setups and give
 * today's amounts, whichever layer they come from; only the amounts changed are sent, so a
 * machine's default stays the default where it was not touched.
 */
import { useEffect, useState } from "preact/hooks";
import { type Breakdown, patchQuoteJob, type QuoteJob, type SetupCostEntry } from "../api/quote.ts";
import { FormError } from "../components/errors.tsx";
import { fill } from "../i18n/index.ts";
import { useProjectsText } from "../i18n/projects.ts";
import { SaveActions } from "./quote-forms.tsx";

/**
 * The setup's own name: its machining line's label (a setup-cost line is labelled by its entry's
 * name, which a machine's template may have given)
 */
function setupName(breakdown: Breakdown, ref: string, fallback: string): string {
  return breakdown.lines.find((line) => line.kind === "machining" && line.ref === ref)?.label ?? fallback;
}

function amounts(breakdown: Breakdown): Record<string, string> {
  return Object.fromEntries(
    breakdown.lines.flatMap((line) =>
      line.kind === "setup_cost" && line.ref ? [[line.ref, String(line.amount)]] : [],
    ),
  );
}

export function SetupCostsForm(props: {
  projectId: string;
  breakdown: Breakdown;
  onSaved(job: QuoteJob): Promise<void>;
}) {
  const text = useProjectsText();
  const { breakdown } = props;
  const [draft, setDraft] = useState(amounts(breakdown));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setDraft(amounts(breakdown)), [breakdown]);
  const lines = breakdown.lines.filter((line) => line.kind === "setup_cost" && line.ref);
  if (lines.length === 0) return null;

  const submit = async (event: Event) => {
    event.preventDefault();
    const before = amounts(breakdown);
    const entries: Record<string, SetupCostEntry> = {};
    for (const line of lines) {
      const ref = line.ref as string;
      if (draft[ref] === before[ref]) continue;
      // the spec's entry is strings throughout; the API checks the amount and names the field
      entries[ref] = {
        is_fixed_price: "true",
        name: setupName(breakdown, ref, line.label),
        value: "0",
        unit: breakdown.currency,
        fix_price: (draft[ref] ?? "").trim().replace(",", "."),
      };
    }
    setSaved(false);
    setError(null);
    if (Object.keys(entries).length === 0) return;
    setBusy(true);
    try {
      await props.onSaved(await patchQuoteJob(props.projectId, { setup_costs: entries }));
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="setup-costs-title">
      <h2 id="setup-costs-title">{text.quote.setupCostsTitle}</h2>
      <p class="muted small">{text.quote.setupCostsLead}</p>
      <FormError error={error} />
      <div class="grid-fields">
        {lines.map((line) => {
          const ref = line.ref as string;
          return (
            <div class="field" key={ref}>
              <label for={`setup-cost-${ref}`}>
                {fill(text.quote.setupCostField, {
                  setup: setupName(breakdown, ref, line.label),
                  currency: breakdown.currency,
                })}
              </label>
              <input
                id={`setup-cost-${ref}`}
                inputMode="decimal"
                value={draft[ref]}
                onInput={(event) => setDraft({ ...draft, [ref]: event.currentTarget.value })}
              />
            </div>
          );
        })}
      </div>
      <SaveActions busy={busy} saved={saved} />
    </form>
  );
}
