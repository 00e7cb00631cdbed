/**
 * A long list made for reading: a section that collapses (details/summary), a filter over what
 * was loaded and the first rows with "Show all N" (for a list longer than those first rows),
 * and rows that on a phone are compact cards whose lesser fields wait behind the row's own
 * Details button. A table marks its cells
 * `lead` (the card's title), `key` (shown on the card) or `extra` (behind Details); the table
 * itself stays a table, so at full width every column is there as before.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { useEquipmentTexts } from "../../i18n/equipment.ts";
import { fill, useI18n } from "../../i18n/index.ts";

/** rows shown before "Show all": ten keep a list of 100 tools within a screen or two */
export const FIRST_ROWS = 10;

export function ListSection(props: { id: string; title: string; count?: number; children: ComponentChildren }) {
  const { formatNumber } = useI18n();
  return (
    <section class="card list-section" aria-labelledby={props.id}>
      <details open>
        <summary>
          <h2 id={props.id}>
            {props.title}
            {props.count === undefined ? null : <span class="muted"> ({formatNumber(props.count)})</span>}
          </h2>
        </summary>
        {props.children}
      </details>
    </section>
  );
}

/** every word typed must occur in the item's text, in any letter case */
function matcher(query: string): (text: string) => boolean {
  const words = query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  return (text) => words.every((word) => text.includes(word));
}

export function FilteredList<T>(props: {
  id: string;
  label: string;
  items: readonly T[];
  /** what the filter searches in an item: its name, type, diameter and the like */
  text(item: T): string;
  render(rows: readonly T[]): ComponentChildren;
}) {
  const t = useEquipmentTexts().lists;
  const { formatNumber } = useI18n();
  const [query, setQuery] = useState("");
  const [all, setAll] = useState(false);
  const long = props.items.length > FIRST_ROWS;
  // a list that shrank to its first rows loses its filter field, and with it the query
  const typed = long ? query.trim() : "";
  // a thousand short strings per keystroke: nothing to cache
  const matchesQuery = matcher(typed);
  const matches = props.items.filter((item) => matchesQuery(props.text(item).toLocaleLowerCase()));
  const shown = all ? matches : matches.slice(0, FIRST_ROWS);
  const matched = formatNumber(matches.length);
  const shownAtFirst = formatNumber(FIRST_ROWS);
  const filterId = `${props.id}-filter`;
  return (
    <>
      {/* a list that fits its first rows needs neither a filter nor "Show all" */}
      {long ? (
        <div class="field list-filter">
          <label for={filterId}>{props.label}</label>
          <input
            id={filterId}
            type="search"
            placeholder={t.filterHint}
            maxLength={200}
            value={query}
            onInput={(event) => {
              // another query, another list: it starts again at its first rows
              setQuery(event.currentTarget.value);
              setAll(false);
            }}
          />
        </div>
      ) : null}
      <div role="status" class="muted small list-status">
        {typed === ""
          ? null
          : matches.length === 0
            ? fill(t.noMatch, { query: typed })
            : fill(t.matching, { count: matched, total: formatNumber(props.items.length) })}
      </div>
      {shown.length > 0 ? <div class="table-scroll">{props.render(shown)}</div> : null}
      {matches.length > FIRST_ROWS ? (
        <p class="list-more">
          {all ? null : <span class="muted small">{fill(t.showing, { shown: shownAtFirst, total: matched })}</span>}
          <button type="button" onClick={() => setAll(!all)}>
            {all ? fill(t.showFewer, { shown: shownAtFirst }) : fill(t.showAll, { total: matched })}
          </button>
        </p>
      ) : null}
    </>
  );
}

/**
 * A row whose `extra` cells a phone shows only after its Details button; the button's cell
 * comes last, so at full width, where it is hidden, the columns stay under their headings.
 */
export function CompactRow(props: { name: string; children: ComponentChildren }) {
  const t = useEquipmentTexts().lists;
  const [open, setOpen] = useState(false);
  return (
    <tr class={open ? "open" : undefined}>
      {props.children}
      <td class="row-toggle">
        <button
          type="button"
          aria-expanded={open}
          aria-label={fill(t.detailsOf, { name: props.name })}
          onClick={() => setOpen(!open)}
        >
          {t.details}
        </button>
      </td>
    </tr>
  );
}
