/** The user's standalone tools and holders as tables (GET /libraries/tools and /libraries/holders). */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { type Holder, listHolders, listTools, type Page, type Tool } from "../../api/libraries.ts";
import { FormError } from "../../components/errors.tsx";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { useI18n } from "../../i18n/index.ts";

/** a length in mm in the reader's locale; a dash when absent */
export function useMillimetres(): (value: number | null | undefined) => string {
  const { formatNumber } = useI18n();
  return (value) =>
    value === null || value === undefined ? "–" : `${formatNumber(value, { maximumFractionDigits: 3 })} mm`;
}

function useList<T>(load: () => Promise<Page<T>>): { page: Page<T> | null; error: unknown } {
  const [page, setPage] = useState<Page<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    load().then(setPage, setError);
  }, []);
  return { page, error };
}

/** a card with its heading, the list's loading, error and empty states, and the table once loaded */
function ListCard<T>(props: {
  id: string;
  title: string;
  empty: string;
  load: () => Promise<Page<T>>;
  table: (items: T[]) => ComponentChildren;
}) {
  const t = useEquipmentTexts().libraries;
  const { t: common } = useI18n();
  const { page, error } = useList<T>(props.load);
  return (
    <section aria-labelledby={props.id} class="card">
      <h2 id={props.id}>{props.title}</h2>
      <FormError error={error} />
      {page === null ? (
        error ? null : (
          <p class="muted">{common.loading}</p>
        )
      ) : page.items.length === 0 ? (
        <p class="muted">{props.empty}</p>
      ) : (
        <div class="table-scroll">
          {props.table(page.items)}
          {page.next_cursor ? <p class="muted small">{t.moreNotShown}</p> : null}
        </div>
      )}
    </section>
  );
}

export function ToolsTable() {
  const t = useEquipmentTexts().libraries;
  const mm = useMillimetres();
  return (
    <ListCard<Tool>
      id="tools-title"
      title={t.toolsTitle}
      empty={t.noTools}
      load={listTools}
      table={(items) => (
        <table class="stack" aria-labelledby="tools-title">
          <thead>
            <tr>
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
                {t.colFlutes}
              </th>
              <th scope="col">{t.colManufacturer}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((tool, index) => (
              <tr key={tool.uuid ?? index}>
                <td data-label={t.colName}>{tool.name}</td>
                <td data-label={t.colType}>{tool.tool_type}</td>
                <td data-label={t.colDiameter} class="num">
                  {mm(tool.tool_parameters.CuttingDiameter)}
                </td>
                <td data-label={t.colCornerRadius} class="num">
                  {mm(tool.tool_parameters.CornerRadius)}
                </td>
                <td data-label={t.colFluteLength} class="num">
                  {mm(tool.tool_parameters.FluteLength)}
                </td>
                <td data-label={t.colFlutes} class="num">
                  {tool.tool_parameters.NumberOfFlutes ?? tool.flute_count ?? "–"}
                </td>
                <td data-label={t.colManufacturer}>
                  {[tool.manufacturer, tool.article_number].filter(Boolean).join(" ") || "–"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}

export function HoldersTable() {
  const t = useEquipmentTexts().libraries;
  const mm = useMillimetres();
  return (
    <ListCard<Holder>
      id="holders-title"
      title={t.holdersTitle}
      empty={t.noHolders}
      load={listHolders}
      table={(items) => (
        <table class="stack" aria-labelledby="holders-title">
          <thead>
            <tr>
              <th scope="col">{t.colName}</th>
              <th scope="col">{t.colStacking}</th>
              <th scope="col">{t.colInterface}</th>
              <th scope="col" class="num">
                {t.colGauge}
              </th>
              <th scope="col">{t.colManufacturer}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((holder, index) => (
              <tr key={holder.uuid ?? index}>
                <td data-label={t.colName}>{holder.name}</td>
                <td data-label={t.colStacking}>{holder.stacking_group}</td>
                <td data-label={t.colInterface}>{holder.spindle_interface ?? "–"}</td>
                <td data-label={t.colGauge} class="num">
                  {mm(holder.gauge_length_mm)}
                </td>
                <td data-label={t.colManufacturer}>
                  {[holder.manufacturer, holder.article_number].filter(Boolean).join(" ") || "–"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}
