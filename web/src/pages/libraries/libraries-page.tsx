/**
 * /libraries: the user's equipment libraries (create one, open one), then their standalone
 * tools and holders. Names and their rules are the API's (POST /libraries/equipment).
 */
import "../equipment.css";
import { useLocation } from "preact-iso";
import { useEffect, useState } from "preact/hooks";
import { page } from "../../api/base.ts";
import { createLibrary, type LibrarySummary, listLibraries } from "../../api/libraries.ts";
import { FieldError, FormError, fieldError } from "../../components/errors.tsx";
import { usePageTitle } from "../../components/page-title.ts";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { useI18n } from "../../i18n/index.ts";
import { HoldersTable, ToolsTable } from "./tool-tables.tsx";

function CreateLibraryForm({ onCreated }: { onCreated(id: string): void }) {
  const t = useEquipmentTexts().libraries;
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await createLibrary(name);
      setName("");
      onCreated(created.id);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const nameError = fieldError(error, "library.name");
  return (
    <form onSubmit={(event) => void submit(event)} noValidate class="card inline-form" aria-labelledby="new-library">
      <h2 id="new-library">{t.createTitle}</h2>
      <FormError error={nameError ? null : error} />
      <div class="field">
        <label for="library-name">{t.name}</label>
        <input
          id="library-name"
          type="text"
          maxLength={200}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? "library-name-error" : undefined}
        />
        <FieldError id="library-name-error" message={nameError} />
      </div>
      <button type="submit" class="primary" disabled={busy}>
        {t.create}
      </button>
    </form>
  );
}

export function LibrariesPage() {
  const t = useEquipmentTexts().libraries;
  const { t: common, formatDateTime, formatNumber } = useI18n();
  usePageTitle(t.title);
  const { route } = useLocation();
  const [libraries, setLibraries] = useState<LibrarySummary[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  const reload = async () => {
    try {
      setLibraries((await listLibraries()).items);
    } catch (caught) {
      setError(caught);
    }
  };
  useEffect(() => {
    void reload();
  }, []);

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{t.title}</h1>
      <p class="lead">{t.lead}</p>
      <section aria-labelledby="libraries-title" class="card">
        <h2 id="libraries-title">{t.listTitle}</h2>
        <FormError error={error} />
        {libraries === null ? (
          error ? null : (
            <p class="muted">{common.loading}</p>
          )
        ) : libraries.length === 0 ? (
          <p class="muted">{t.none}</p>
        ) : (
          <table class="stack" aria-labelledby="libraries-title">
            <thead>
              <tr>
                <th scope="col">{t.colName}</th>
                <th scope="col" class="num">
                  {t.colAssemblies}
                </th>
                <th scope="col">{t.colUpdated}</th>
              </tr>
            </thead>
            <tbody>
              {libraries.map((library) => (
                <tr key={library.id}>
                  <td data-label={t.colName}>
                    <a href={page(`/libraries/${library.id}`)}>{library.library.name}</a>
                    {library.is_default ? <span class="badge on">{t.isDefault}</span> : null}
                  </td>
                  <td data-label={t.colAssemblies} class="num">
                    {formatNumber(library.library.assembly_count)}
                  </td>
                  <td data-label={t.colUpdated}>{formatDateTime(library.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <CreateLibraryForm onCreated={(id) => route(page(`/libraries/${id}`))} />
      <ToolsTable />
      <HoldersTable />
    </section>
  );
}
