/**
 * Settings > API keys: create (a name and scopes, all ticked by default), the plaintext shown
 * once with a Copy button, the list, and revoke with a confirmation. Everything is the app
 * routes' (.../app/keys): the name's rules and the scopes are the server's.
 */
import { useEffect, useState } from "preact/hooks";
import { type ApiKey, type CreatedApiKey, createKey, listKeys, listScopes, revokeKey } from "../api/app-routes.ts";
import { Confirm } from "../components/confirm.tsx";
import { CopyButton } from "../components/copy-button.tsx";
import { FieldError, FormError, fieldError } from "../components/errors.tsx";
import { usePageTitle } from "../components/page-title.ts";
import { fill, useI18n } from "../i18n/index.ts";

function CreateKeyForm({ scopes, onCreated }: { scopes: string[]; onCreated(key: CreatedApiKey): void }) {
  const { t } = useI18n();
  const [chosen, setChosen] = useState<Set<string>>(new Set(scopes));
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => setChosen(new Set(scopes)), [scopes]);

  const toggle = (scope: string) => {
    const next = new Set(chosen);
    if (next.has(scope)) next.delete(scope);
    else next.add(scope);
    setChosen(next);
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await createKey(
        name,
        scopes.filter((scope) => chosen.has(scope)),
      );
      setName("");
      setChosen(new Set(scopes));
      onCreated(created);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const nameError = fieldError(error, "name");
  const scopesError = fieldError(error, "scopes");
  return (
    <form onSubmit={(event) => void submit(event)} noValidate class="card" aria-labelledby="create-key-title">
      <h2 id="create-key-title">{t.keys.createTitle}</h2>
      <FormError error={nameError || scopesError ? null : error} />
      <div class="field">
        <label for="key-name">{t.keys.name}</label>
        <input
          id="key-name"
          type="text"
          maxLength={100}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? "key-name-error" : undefined}
        />
        <FieldError id="key-name-error" message={nameError} />
      </div>
      <fieldset aria-describedby={scopesError ? "key-scopes-error" : undefined}>
        <legend>{t.keys.scopes}</legend>
        <div class="checks">
          {scopes.map((scope) => (
            <label key={scope}>
              <input type="checkbox" checked={chosen.has(scope)} onChange={() => toggle(scope)} />
              <code>{scope}</code>
            </label>
          ))}
        </div>
        <FieldError id="key-scopes-error" message={scopesError} />
      </fieldset>
      <button type="submit" class="primary" disabled={busy}>
        {busy ? t.keys.creating : t.keys.create}
      </button>
    </form>
  );
}

function NewKey({ created, onDone }: { created: CreatedApiKey; onDone(): void }) {
  const { t } = useI18n();
  return (
    <section class="secret" aria-labelledby="new-key-title">
      <h2 id="new-key-title">{t.keys.createdTitle}</h2>
      <p>{t.keys.createdLead}</p>
      <div class="secret-row">
        <code data-testid="new-key">{created.key}</code>
        <CopyButton text={created.key} />
        <button type="button" onClick={onDone}>
          {t.keys.done}
        </button>
      </div>
    </section>
  );
}

function KeyList({ keys, scopes, onRevoke }: { keys: ApiKey[]; scopes: string[]; onRevoke(key: ApiKey): void }) {
  const { t, formatDateTime } = useI18n();
  if (keys.length === 0) return <p class="muted">{t.keys.none}</p>;
  return (
    <table class="stack">
      <thead>
        <tr>
          <th scope="col">{t.keys.colName}</th>
          <th scope="col">{t.keys.colPrefix}</th>
          <th scope="col">{t.keys.colScopes}</th>
          <th scope="col">{t.keys.colCreated}</th>
          <th scope="col">{t.keys.colLastUsed}</th>
          <th scope="col">
            <span class="visually-hidden">{t.keys.colActions}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.id}>
            <td data-label={t.keys.colName}>{key.name}</td>
            <td data-label={t.keys.colPrefix}>
              <code>{key.prefix}</code>
            </td>
            <td data-label={t.keys.colScopes} class="small">
              {scopes.length > 0 && scopes.every((scope) => key.scopes.includes(scope))
                ? t.keys.allScopes
                : key.scopes.join(", ")}
            </td>
            <td data-label={t.keys.colCreated}>{formatDateTime(key.created_at)}</td>
            <td data-label={t.keys.colLastUsed}>
              {key.last_used_at ? formatDateTime(key.last_used_at) : t.keys.never}
            </td>
            <td>
              <button type="button" class="link-danger" onClick={() => onRevoke(key)}>
                {t.keys.revoke}
                <span class="visually-hidden"> {key.name}</span>
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function KeysPage() {
  const { t } = useI18n();
  usePageTitle(t.keys.title);
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [scopes, setScopes] = useState<string[]>([]);

  useEffect(() => {
    listScopes()
      .then(({ scopes: all }) => setScopes(all))
      .catch(setError);
  }, []);

  const reload = async () => {
    try {
      setKeys((await listKeys()).items);
    } catch (caught) {
      setError(caught);
    }
  };
  useEffect(() => {
    void reload();
  }, []);

  const revoke = async (key: ApiKey) => {
    setRevoking(null);
    setError(null);
    try {
      await revokeKey(key.id);
      await reload();
      setNotice(fill(t.keys.revoked, { name: key.name }));
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t.keys.title}</h1>
      <p class="lead">{t.keys.lead}</p>
      {created ? <NewKey created={created} onDone={() => setCreated(null)} /> : null}
      <CreateKeyForm
        scopes={scopes}
        onCreated={(key) => {
          setNotice(null);
          setCreated(key);
          void reload();
        }}
      />
      <section class="card" aria-labelledby="key-list-title">
        <h2 id="key-list-title">{t.keys.listTitle}</h2>
        <div role="status">{notice ? <p class="notice">{notice}</p> : null}</div>
        <FormError error={error} />
        {keys === null ? (
          <p class="muted">{t.loading}</p>
        ) : (
          <KeyList keys={keys} scopes={scopes} onRevoke={setRevoking} />
        )}
      </section>
      {revoking ? (
        <Confirm
          message={fill(t.keys.revokeConfirm, { name: revoking.name })}
          confirmLabel={t.keys.revokeYes}
          onConfirm={() => void revoke(revoking)}
          onCancel={() => setRevoking(null)}
        />
      ) : null}
    </section>
  );
}
