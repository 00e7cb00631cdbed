/**
 * /libraries/<id>: one equipment library's assemblies as a long list (pocket, tool, type,
 * diameter, corner radius, flute length, holder; filtered, the first rows shown, compact on a
 * phone), removable with a confirmation; below it the catalogue search that adds to it, and
 * the Fusion 360 import.
 */
import "../equipment.css";
import { useRoute } from "preact-iso";
import { useEffect, useState } from "preact/hooks";
import { page } from "../../api/base.ts";
import { ApiError } from "../../api/client.ts";
import { type Assembly, getLibrary, holderOf, type Library, removeAssembly, toolOf } from "../../api/libraries.ts";
import { Confirm } from "../../components/confirm.tsx";
import { FormError } from "../../components/errors.tsx";
import { usePageTitle } from "../../components/page-title.ts";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { fill, useI18n } from "../../i18n/index.ts";
import { CatalogueSearch } from "./catalogue-search.tsx";
import { FusionImport } from "./fusion-import.tsx";
import { CompactRow, FilteredList, ListSection } from "./long-list.tsx";
import { useMillimetres, useToolText } from "./tool-tables.tsx";

function AssembliesTable({ assemblies, onRemove }: { assemblies: Assembly[]; onRemove(a: Assembly): void }) {
  const texts = useEquipmentTexts();
  const t = texts.libraries;
  const mm = useMillimetres();
  const toolText = useToolText();
  return (
    <FilteredList<Assembly>
      id="assemblies"
      label={texts.lists.filterAssemblies}
      items={assemblies}
      text={(assembly) =>
        `${toolText(toolOf(assembly), assembly.name)} ${holderOf(assembly)?.name ?? ""} T${assembly.pocket_number ?? ""}`
      }
      render={(rows) => (
        <table class="stack compact" aria-labelledby="assemblies-title">
          <thead>
            <tr>
              <th scope="col" class="num">
                {texts.library.colPocket}
              </th>
              <th scope="col">{t.colName}</th>
              <th scope="col">{t.colType}</th>
              <th scope="col" class="num">
                {t.colDiameter}
              </th>
              <th scope="col" class="num">
                {t.colCornerRadius}
              </th>
              <th scope="col" class="num">
                {t.colFluteLength}
              </th>
              <th scope="col" class="num">
                {t.colOverallLength}
              </th>
              <th scope="col">{texts.library.colHolder}</th>
              <th scope="col">
                <span class="visually-hidden">{texts.library.remove}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((assembly) => {
              const tool = toolOf(assembly);
              const parameters = tool?.tool_parameters ?? {};
              return (
                <CompactRow key={assembly.uuid} name={assembly.name}>
                  <td data-label={texts.library.colPocket} class="num key">
                    {assembly.pocket_number ?? "–"}
                  </td>
                  <td data-label={t.colName} class="lead">
                    {assembly.name}
                  </td>
                  <td data-label={t.colType} class="key">
                    {tool?.tool_type ?? "–"}
                  </td>
                  <td data-label={t.colDiameter} class="num key">
                    {mm(parameters.CuttingDiameter)}
                  </td>
                  <td data-label={t.colCornerRadius} class="num extra">
                    {mm(parameters.CornerRadius)}
                  </td>
                  <td data-label={t.colFluteLength} class="num extra">
                    {mm(parameters.FluteLength)}
                  </td>
                  <td data-label={t.colOverallLength} class="num extra">
                    {mm(parameters.OverallLength)}
                  </td>
                  <td data-label={texts.library.colHolder} class="extra">
                    {holderOf(assembly)?.name ?? "–"}
                  </td>
                  <td class="extra action">
                    <button type="button" class="link-danger" onClick={() => onRemove(assembly)}>
                      {texts.library.remove}
                    </button>
                  </td>
                </CompactRow>
              );
            })}
          </tbody>
        </table>
      )}
    />
  );
}

export function LibraryPage() {
  const texts = useEquipmentTexts();
  const { t: common } = useI18n();
  const { params } = useRoute();
  const id = params.id ?? "";
  const [library, setLibrary] = useState<Library | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, setPending] = useState<Assembly | null>(null);
  usePageTitle(library?.library.name ?? texts.libraries.title);

  const reload = async () => {
    try {
      setLibrary(await getLibrary(id));
    } catch (caught) {
      setError(caught);
    }
  };
  useEffect(() => {
    setLibrary(null);
    setError(null);
    void reload();
  }, [id]);

  const remove = async (assembly: Assembly) => {
    setPending(null);
    setError(null);
    try {
      await removeAssembly(id, assembly.uuid);
      setNotice(fill(texts.library.removed, { name: assembly.name }));
      await reload();
    } catch (caught) {
      setError(caught);
    }
  };

  const back = (
    <p>
      <a href={page("/libraries")}>← {texts.library.back}</a>
    </p>
  );
  if (library === null) {
    const missing = error instanceof ApiError && (error.status === 404 || error.status === 400);
    return (
      <section aria-labelledby="page-title">
        {back}
        <h1 id="page-title">{missing ? texts.library.notFound : texts.libraries.title}</h1>
        {error ? <FormError error={error} /> : <p class="muted">{common.loading}</p>}
      </section>
    );
  }

  const assemblies = library.library.assemblies;
  return (
    <section aria-labelledby="page-title">
      {back}
      <h1 id="page-title">{library.library.name}</h1>
      {library.description ? <p class="lead">{library.description}</p> : null}
      <div role="status">{notice ? <p class="notice">{notice}</p> : null}</div>
      <FormError error={error} />
      <ListSection id="assemblies-title" title={texts.library.assembliesTitle} count={assemblies.length}>
        {assemblies.length === 0 ? (
          <p class="muted">{texts.library.noAssemblies}</p>
        ) : (
          <AssembliesTable assemblies={assemblies} onRemove={setPending} />
        )}
      </ListSection>
      <CatalogueSearch
        libraryId={library.id}
        onAdded={(name) => {
          setNotice(fill(texts.library.added, { name }));
          void reload();
        }}
      />
      <FusionImport
        libraryId={library.id}
        onImported={(message) => {
          setNotice(message);
          void reload();
        }}
      />
      {pending ? (
        <Confirm
          message={fill(texts.library.removeConfirm, { name: pending.name })}
          confirmLabel={texts.library.removeYes}
          onConfirm={() => void remove(pending)}
          onCancel={() => setPending(null)}
        />
      ) : null}
    </section>
  );
}
