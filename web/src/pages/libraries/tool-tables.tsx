/**
 * The user's standalone tools and holders (GET /libraries/tools and /libraries/holders, every
 * page up to LOAD_AT_MOST) as long lists: filtered, the first rows shown, compact on a phone.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import {
  type Holder,
  LOAD_AT_MOST,
  listHolders,
  listTools,
  loadAll,
  type Page,
  type Tool,
} from "../../api/libraries.ts";
import { FormError } from "../../components/errors.tsx";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { fill, useI18n } from "../../i18n/index.ts";
import { CompactRow, FilteredList, ListSection } from "./long-list.tsx";

/** a length in mm in the reader's locale; a dash when absent */
export function useMillimetres(): (value: number | null | undefined) => string {
  const { formatNumber } = useI18n();
  return (value) =>
    value === null || value === undefined ? "–" : `${formatNumber(value, { maximumFractionDigits: 3 })} mm`;
}

/**
 * what a filter finds a tool by: its name, type, maker and article, and its diameter as the
 * page writes it ("8,5 mm") and as typed with a point ("8.5")
 */
export function useToolText(): (tool: Tool | undefined, name: string) => string {
  const mm = useMillimetres();
  return (tool, name) => {
    const diameter = tool?.tool_parameters.CuttingDiameter;
    return [
      name,
      tool?.tool_type,
      tool?.manufacturer,
      tool?.article_number,
      diameter === undefined ? undefined : `${mm(diameter)} ${diameter}`,
    ]
      .filter(Boolean)
      .join(" ");
  };
}

type Loaded<T> = { items: T[]; complete: boolean };

function useList<T>(list: (cursor?: string) => Promise<Page<T>>): { loaded: Loaded<T> | null; error: unknown } {
  const [loaded, setLoaded] = useState<Loaded<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    loadAll(list).then(setLoaded, setError);
  }, []);
  return { loaded, error };
}

/** a collapsible card with its heading, the list's loading, error and empty states, and the filtered table */
function ListCard<T>(props: {
  id: string;
  title: string;
  empty: string;
  filterLabel: string;
  list: (cursor?: string) => Promise<Page<T>>;
  text(item: T): string;
  table: (items: readonly T[]) => ComponentChildren;
}) {
  const t = useEquipmentTexts().libraries;
  const { t: common, formatNumber } = useI18n();
  const { loaded, error } = useList<T>(props.list);
  return (
    <ListSection id={props.id} title={props.title} count={loaded?.items.length}>
      <FormError error={error} />
      {loaded === null ? (
        error ? null : (
          <p class="muted">{common.loading}</p>
        )
      ) : loaded.items.length === 0 ? (
        <p class="muted">{props.empty}</p>
      ) : (
        <>
          <FilteredList<T>
            id={props.id}
            label={props.filterLabel}
            items={loaded.items}
            text={props.text}
            render={props.table}
          />
          {loaded.complete ? null : (
            <p class="muted small">{fill(t.moreNotShown, { count: formatNumber(LOAD_AT_MOST) })}</p>
          )}
        </>
      )}
    </ListSection>
  );
}

export function ToolsTable() {
  const texts = useEquipmentTexts();
  const t = texts.libraries;
  const mm = useMillimetres();
  const toolText = useToolText();
  return (
    <ListCard<Tool>
      id="tools-title"
      title={t.toolsTitle}
      empty={t.noTools}
      filterLabel={texts.lists.filterTools}
      list={listTools}
      text={(tool) => toolText(tool, tool.name)}
      table={(items) => (
        <table class="stack compact" aria-labelledby="tools-title">
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
              <CompactRow key={tool.uuid ?? index} name={tool.name}>
                <td data-label={t.colName} class="lead">
                  {tool.name}
                </td>
                <td data-label={t.colType} class="key">
                  {tool.tool_type}
                </td>
                <td data-label={t.colDiameter} class="num key">
                  {mm(tool.tool_parameters.CuttingDiameter)}
                </td>
                <td data-label={t.colCornerRadius} class="num extra">
                  {mm(tool.tool_parameters.CornerRadius)}
                </td>
                <td data-label={t.colFluteLength} class="num extra">
                  {mm(tool.tool_parameters.FluteLength)}
                </td>
                <td data-label={t.colFlutes} class="num key">
                  {tool.tool_parameters.NumberOfFlutes ?? tool.flute_count ?? "–"}
                </td>
                <td data-label={t.colManufacturer} class="extra">
                  {[tool.manufacturer, tool.article_number].filter(Boolean).join(" ") || "–"}
                </td>
              </CompactRow>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}

export function HoldersTable() {
  const texts = useEquipmentTexts();
  const t = texts.libraries;
  const mm = useMillimetres();
  return (
    <ListCard<Holder>
      id="holders-title"
      title={t.holdersTitle}
      empty={t.noHolders}
      filterLabel={texts.lists.filterHolders}
      list={listHolders}
      text={(holder) =>
        [holder.name, holder.stacking_group, holder.spindle_interface, holder.manufacturer, holder.article_number]
          .filter(Boolean)
          .join(" ")
      }
      table={(items) => (
        <table class="stack compact" aria-labelledby="holders-title">
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
              <CompactRow key={holder.uuid ?? index} name={holder.name}>
                <td data-label={t.colName} class="lead">
                  {holder.name}
                </td>
                <td data-label={t.colStacking} class="key">
                  {holder.stacking_group}
                </td>
                <td data-label={t.colInterface} class="key">
                  {holder.spindle_interface ?? "–"}
                </td>
                <td data-label={t.colGauge} class="num extra">
                  {mm(holder.gauge_length_mm)}
                </td>
                <td data-label={t.colManufacturer} class="extra">
                  {[holder.manufacturer, holder.article_number].filter(Boolean).join(" ") || "–"}
                </td>
              </CompactRow>
            ))}
          </tbody>
        </table>
      )}
    />
  );
}
