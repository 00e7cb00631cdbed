/**
 * Settings > Quote settings: the shop's details the customer's quote document prints (name,
 * address, terms, validity and delivery time), saved with PATCH /quote/settings, only the
 * fields changed. The ranges are the API's, shown beside the field it names.
 */
import { useState } from "preact/hooks";
import { patchQuoteSettings, type QuoteSettings, type QuoteSettingsPatch } from "../../api/machines.ts";
import { FieldError, FormError, fieldError } from "../../components/errors.tsx";
import { useQuoteCustomerTexts } from "../../i18n/quote-customer.ts";
import { SaveActions } from "../quote-forms.tsx";

type Field = "shop_name" | "shop_address" | "terms" | "validity_days" | "delivery_days";
const FIELDS: Field[] = ["shop_name", "shop_address", "terms", "validity_days", "delivery_days"];

function toDraft(settings: QuoteSettings): Record<Field, string> {
  const out = {} as Record<Field, string>;
  for (const field of FIELDS) out[field] = String(settings[field]);
  return out;
}

export function ShopDetailsForm(props: { settings: QuoteSettings; onSaved(settings: QuoteSettings): void }) {
  const t = useQuoteCustomerTexts();
  const [draft, setDraft] = useState(toDraft(props.settings));
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const labels: Record<Field, string> = {
    shop_name: t.shopName,
    shop_address: t.shopAddress,
    terms: t.terms,
    validity_days: t.validityDays,
    delivery_days: t.settingsDeliveryDays,
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setSaved(false);
    setError(null);
    try {
      const before = toDraft(props.settings);
      const patch: Record<string, string | number> = {};
      for (const field of FIELDS) {
        if (draft[field] === before[field]) continue;
        const text = draft[field];
        const days = field === "validity_days" || field === "delivery_days";
        // a word that is no whole number goes as it is: the API names the field it refuses
        patch[field] = days && /^\d+$/.test(text.trim()) ? Number(text) : text;
      }
      if (Object.keys(patch).length > 0) {
        const next = await patchQuoteSettings(patch as QuoteSettingsPatch);
        setDraft(toDraft(next));
        props.onSaved(next);
      }
      setSaved(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const input = (field: Field) => {
    const id = `qs-${field}`;
    const message = fieldError(error, field);
    const multiline = field === "shop_address" || field === "terms";
    const common = {
      id,
      value: draft[field],
      "aria-invalid": message ? true : undefined,
      "aria-describedby": message ? `${id}-error` : undefined,
    };
    const onInput = (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
      setDraft({ ...draft, [field]: event.currentTarget.value });
    return (
      <div class="field" key={field}>
        <label for={id}>{labels[field]}</label>
        {multiline ? (
          <textarea {...common} rows={field === "terms" ? 5 : 3} onInput={onInput} />
        ) : (
          <input {...common} type="text" inputMode={field === "shop_name" ? undefined : "numeric"} onInput={onInput} />
        )}
        <FieldError id={`${id}-error`} message={message} />
      </div>
    );
  };

  return (
    <form class="card" aria-labelledby="shop-details-title" onSubmit={(event) => void submit(event)} noValidate>
      <h2 id="shop-details-title">{t.shopTitle}</h2>
      <FormError error={error} />
      {input("shop_name")}
      {input("shop_address")}
      {input("terms")}
      <div class="field-grid">
        {input("validity_days")}
        {input("delivery_days")}
      </div>
      <SaveActions busy={busy} saved={saved} />
    </form>
  );
}
