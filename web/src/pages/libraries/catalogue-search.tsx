/**
 * The external catalogue's search (GET /equipment/external-catalogue/search) with an "Add" per
 * result: the entry's assembly (GET .../{manufacturer}/{article_number}) is posted to the
 * library under a fresh uuid, its components saved to the user's tools and holders too. On a
 * phone each result is a compact row: name, article, diameter and Add, the rest behind Details.
 */
import { useState } from "preact/hooks";
import {
  addAssembly,
  type CatalogueHit,
  type CatalogueResults,
  catalogueAssembly,
  searchCatalogue,
} from "../../api/libraries.ts";
import { FormError } from "../../components/errors.tsx";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { CompactRow } from "./long-list.tsx";
import { useMillimetres } from "./tool-tables.tsx";

export function CatalogueSearch({ libraryId, onAdded }: { libraryId: string; onAdded(name: string): void }) {
  const t = useEquipmentTexts();
  const mm = useMillimetres();
  const [q, setQ] = useState("");
  const [found, setFound] = useState<CatalogueResults | null>(null);
  const [busy, setBusy] = useState(false);
  const [adding, setAdding] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const search = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setFound(await searchCatalogue(q.trim()));
    } catch (caught) {
      setFound(null);
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const add = async (hit: CatalogueHit) => {
    const key = `${hit.manufacturer}/${hit.article_number}`;
    setAdding(key);
    setError(null);
    try {
      const assembly = await catalogueAssembly(hit.manufacturer, hit.article_number);
      const added = await addAssembly(libraryId, { ...assembly, uuid: crypto.randomUUID() });
      onAdded(added.name);
    } catch (caught) {
      setError(caught);
    } finally {
      setAdding(null);
    }
  };

  const th = t.libraries;
  return (
    <section class="card" aria-labelledby="catalogue-title">
      <h2 id="catalogue-title">{t.library.catalogueTitle}</h2>
      <form class="search-row" onSubmit={(event) => void search(event)} noValidate>
        <label for="catalogue-q" class="visually-hidden">
          {t.library.searchLabel}
        </label>
        <input
          id="catalogue-q"
          type="search"
          placeholder={t.library.searchLabel}
          maxLength={200}
          value={q}
          onInput={(event) => setQ(event.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t.library.searching : t.library.search}
        </button>
      </form>
      <FormError error={error} />
      {found === null ? null : found.results.length === 0 ? (
        <p class="muted">{t.library.noResults}</p>
      ) : (
        <>
          <table class="stack compact" aria-label={t.library.catalogueTitle}>
            <thead>
              <tr>
                <th scope="col">{th.colArticle}</th>
                <th scope="col">{th.colName}</th>
                <th scope="col">{th.colType}</th>
                <th scope="col" class="num">
                  {th.colDiameter}
                </th>
                <th scope="col" class="num">
                  {th.colFluteLength}
                </th>
                <th scope="col">
                  <span class="visually-hidden">{t.library.add}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {found.results.map((hit) => {
                const key = `${hit.manufacturer}/${hit.article_number}`;
                return (
                  <CompactRow key={key} name={hit.name}>
                    <td data-label={th.colArticle} class="key">
                      <code>{hit.article_number}</code>
                      <span class="muted small"> {hit.manufacturer}</span>
                    </td>
                    <td data-label={th.colName} class="lead">
                      {hit.name}
                    </td>
                    <td data-label={th.colType} class="extra">
                      {hit.tool_type}
                    </td>
                    <td data-label={th.colDiameter} class="num key">
                      {mm(hit.diameter_mm)}
                    </td>
                    <td data-label={th.colFluteLength} class="num extra">
                      {mm(hit.flute_length_mm)}
                    </td>
                    <td class="key action">
                      <button
                        type="button"
                        disabled={adding !== null}
                        aria-label={`${t.library.add} ${hit.article_number}`}
                        onClick={() => void add(hit)}
                      >
                        {t.library.add}
                      </button>
                    </td>
                  </CompactRow>
                );
              })}
            </tbody>
          </table>
          {found.truncated ? <p class="muted small">{t.library.truncated}</p> : null}
        </>
      )}
    </section>
  );
}
