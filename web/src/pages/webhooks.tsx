/**
 * Settings > Webhooks, through the public API's /webhooks routes: register (URL and event
 * types; the secret shown once), enable or disable, rotate the secret, delete, and each
 * endpoint's delivery log with its attempts and a Redeliver button.
 */
import { useEffect, useState } from "preact/hooks";
import {
  createWebhook,
  type Delivery,
  deleteWebhook,
  EVENT_TYPES,
  listDeliveries,
  listWebhooks,
  redeliver,
  rotateWebhookSecret,
  setWebhookEnabled,
  type Webhook,
} from "../api/webhooks.ts";
import { Confirm } from "../components/confirm.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { FieldError, FormError, fieldError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { fill, useI18n } from "../i18n/index.ts";

function RegisterForm({ onCreated }: { onCreated(secret: string): void }) {
  const { t } = useI18n();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const toggle = (type: string) => {
    const next = new Set(events);
    if (next.has(type)) next.delete(type);
    else next.add(type);
    setEvents(next);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await createWebhook(
        url.trim(),
        EVENT_TYPES.filter((type) => events.has(type)),
      );
      setUrl("");
      setEvents(new Set());
      onCreated(created.secret);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const urlError = fieldError(error, "url");
  const eventsError = fieldError(error, "event_types");
  return (
    <form onSubmit={(event) => void submit(event)} noValidate class="card" aria-labelledby="register-title">
      <h2 id="register-title">{t.webhooks.createTitle}</h2>
      <FormError error={urlError || eventsError ? null : error} />
      <div class="field">
        <label for="webhook-url">{t.webhooks.url}</label>
        <input
          id="webhook-url"
          type="url"
          inputMode="url"
          placeholder="https://example.com/swarf-events"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
          aria-invalid={urlError ? true : undefined}
          aria-describedby={urlError ? "webhook-url-error" : undefined}
        />
        <FieldError id="webhook-url-error" message={urlError} />
      </div>
      <fieldset aria-describedby="events-hint">
        <legend>{t.webhooks.eventTypes}</legend>
        <div class="checks">
          {EVENT_TYPES.map((type) => (
            <label key={type}>
              <input type="checkbox" checked={events.has(type)} onChange={() => toggle(type)} />
              <code>{type}</code>
            </label>
          ))}
        </div>
        <p class="muted small" id="events-hint">
          {t.webhooks.allEventsHint}
        </p>
        <FieldError id="events-error" message={eventsError} />
      </fieldset>
      <button type="submit" class="primary" disabled={busy}>
        {busy ? t.webhooks.creating : t.webhooks.create}
      </button>
    </form>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const { t, formatDateTime, formatNumber } = useI18n();
  const [items, setItems] = useState<Delivery[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = async () => {
    try {
      setItems((await listDeliveries(webhook.id)).items);
    } catch (caught) {
      setError(caught);
    }
  };
  useEffect(() => {
    void load();
  }, [webhook.id]);

  const again = async (delivery: Delivery) => {
    setError(null);
    try {
      await redeliver(webhook.id, delivery.id);
      setNotice(t.webhooks.redelivered);
      await load();
    } catch (caught) {
      setError(caught);
    }
  };

  if (items === null) return error ? <FormError error={error} /> : <p class="muted">{t.loading}</p>;
  return (
    <div class="deliveries">
      <div role="status">{notice ? <p class="notice">{notice}</p> : null}</div>
      <FormError error={error} />
      {items.length === 0 ? (
        <p class="muted">{t.webhooks.noDeliveries}</p>
      ) : (
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">{t.webhooks.colEvent}</th>
              <th scope="col">{t.webhooks.colStatus}</th>
              <th scope="col">{t.webhooks.colCreated}</th>
              <th scope="col">{t.webhooks.colAttempts}</th>
              <th scope="col">
                <span class="visually-hidden">{t.webhooks.colActions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((delivery) => (
              <tr key={delivery.id}>
                <td data-label={t.webhooks.colEvent}>
                  <code>{delivery.event_type}</code>
                </td>
                <td data-label={t.webhooks.colStatus}>{t.webhooks.status[delivery.status]}</td>
                <td data-label={t.webhooks.colCreated}>{formatDateTime(delivery.created_at)}</td>
                <td data-label={t.webhooks.colAttempts}>
                  <ol class="attempts small">
                    {delivery.attempts.map((attempt) => (
                      <li key={attempt.attempt}>
                        {fill(t.webhooks.attemptLine, {
                          attempt: attempt.attempt,
                          outcome: t.webhooks.outcome[attempt.outcome],
                          status: attempt.status_code ?? t.webhooks.noStatus,
                          ms: formatNumber(attempt.duration_ms),
                        })}
                        {attempt.error ? <span class="muted"> ({attempt.error})</span> : null}
                      </li>
                    ))}
                  </ol>
                </td>
                <td>
                  {delivery.status === "delivered" || delivery.status === "failed" ? (
                    <button type="button" onClick={() => void again(delivery)}>
                      {t.webhooks.redeliver}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

type Pending = { kind: "rotate" | "remove"; webhook: Webhook };

function Endpoint({ webhook, onChange, onAsk }: { webhook: Webhook; onChange(): void; onAsk(p: Pending): void }) {
  const { t, formatDateTime } = useI18n();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const toggleEnabled = async () => {
    setError(null);
    try {
      await setWebhookEnabled(webhook.id, !webhook.enabled);
      onChange();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <li class="endpoint card">
      <div class="endpoint-head">
        <p class="endpoint-url">
          <code>{webhook.url}</code>{" "}
          <span class={`badge ${webhook.enabled ? "on" : "off"}`}>
            {webhook.enabled ? t.webhooks.enabled : t.webhooks.disabled}
          </span>
        </p>
        <p class="muted small">
          {webhook.event_types.length === 0 ? t.webhooks.allEvents : webhook.event_types.join(", ")} ·{" "}
          {formatDateTime(webhook.created_at)}
        </p>
        {webhook.disabled_reason ? <p class="small">{webhook.disabled_reason}</p> : null}
      </div>
      <FormError error={error} />
      <div class="actions">
        <button type="button" onClick={() => void toggleEnabled()}>
          {webhook.enabled ? t.webhooks.disable : t.webhooks.enable}
        </button>
        <button type="button" onClick={() => onAsk({ kind: "rotate", webhook })}>
          {t.webhooks.rotate}
        </button>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t.webhooks.hideDeliveries : t.webhooks.deliveries}
        </button>
        <button type="button" class="link-danger" onClick={() => onAsk({ kind: "remove", webhook })}>
          {t.webhooks.remove}
        </button>
      </div>
      {open ? <Deliveries webhook={webhook} /> : null}
    </li>
  );
}

export function WebhooksPage() {
  const { t } = useI18n();
  usePageTitle(t.webhooks.title);
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<unknown>(null);

  const reload = async () => {
    try {
      setWebhooks((await listWebhooks()).items);
    } catch (caught) {
      setError(caught);
    }
  };
  useEffect(() => {
    void reload();
  }, []);

  const act = async ({ kind, webhook }: Pending) => {
    setPending(null);
    setError(null);
    try {
      if (kind === "rotate") setSecret((await rotateWebhookSecret(webhook.id)).secret);
      else await deleteWebhook(webhook.id);
      await reload();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t.webhooks.title}</h1>
      <p class="lead">{t.webhooks.lead}</p>
      {secret ? (
        <section class="secret" aria-labelledby="secret-title">
          <h2 id="secret-title">{t.webhooks.secretTitle}</h2>
          <p>{t.webhooks.secretLead}</p>
          <div class="secret-row">
            <code data-testid="webhook-secret">{secret}</code>
            <CopyButton text={secret} />
            <button type="button" onClick={() => setSecret(null)}>
              {t.keys.done}
            </button>
          </div>
        </section>
      ) : null}
      <RegisterForm
        onCreated={(created) => {
          setSecret(created);
          void reload();
        }}
      />
      <section aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">{t.webhooks.listTitle}</h2>
        <FormError error={error} />
        {webhooks === null ? (
          <p class="muted">{t.loading}</p>
        ) : webhooks.length === 0 ? (
          <p class="muted">{t.webhooks.none}</p>
        ) : (
          <ul class="endpoints">
            {webhooks.map((webhook) => (
              <Endpoint key={webhook.id} webhook={webhook} onChange={() => void reload()} onAsk={setPending} />
            ))}
          </ul>
        )}
      </section>
      {pending ? (
        <Confirm
          message={fill(pending.kind === "rotate" ? t.webhooks.rotateConfirm : t.webhooks.removeConfirm, {
            url: pending.webhook.url,
          })}
          confirmLabel={pending.kind === "rotate" ? t.webhooks.rotateYes : t.webhooks.removeYes}
          onConfirm={() => void act(pending)}
          onCancel={() => setPending(null)}
        />
      ) : null}
    </section>
  );
}
