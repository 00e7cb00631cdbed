/**
 * The job's own structure beside the 3D view: setups, their blocks, their operations, as an
 * accessible tree (WAI-ARIA's tree pattern: one tab stop, arrows move, Right opens or goes in,
 * Left closes or goes out, Home and End, Enter or Space selects). Each operation is named by
 * what it is ("Roughing, end mill Ø10") and shows its tool, time and figures.
 */
import { useRef, useState } from "preact/hooks";
import type { ViewerOperation, ViewerSetup } from "../../../contracts/viewer.ts";
import { fill, useI18n } from "../i18n/index.ts";
import { formatDuration } from "../i18n/projects.ts";
import { kindColour } from "./kind-colours.ts";
import { useViewerText, type ViewerText } from "./viewer-text.ts";

/** What is chosen: a setup, one of its blocks, or one operation (by its index in the setup). */
export type Selection =
  | { kind: "setup"; setup: number }
  | { kind: "block"; setup: number; block: number }
  | { kind: "operation"; setup: number; operation: number };

interface Item {
  key: string;
  level: number;
  parent: string | null;
  expandable: boolean;
  selection: Selection;
}

const keyOf = (selection: Selection): string =>
  selection.kind === "setup"
    ? `s${selection.setup}`
    : selection.kind === "block"
      ? `s${selection.setup}b${selection.block}`
      : `s${selection.setup}o${selection.operation}`;

export function operationName(text: ViewerText, operation: ViewerOperation, format: (n: number) => string): string {
  const kind = text.kinds[operation.kind] ?? operation.kind;
  const tool =
    text.toolTypes[operation.tool.tool_type] ?? text.toolKinds[operation.tool.kind] ?? operation.tool.tool_type;
  return `${kind}, ${tool} Ø${format(operation.tool.diameter_mm)}`;
}

/** The items a keyboard can reach: every setup, and the children of open ones. */
function visibleItems(setups: ViewerSetup[], open: Set<string>): Item[] {
  const items: Item[] = [];
  for (const setup of setups) {
    const s = setup.index;
    const setupKey = `s${s}`;
    items.push({ key: setupKey, level: 1, parent: null, expandable: true, selection: { kind: "setup", setup: s } });
    if (!open.has(setupKey)) continue;
    setup.blocks.forEach((block, b) => {
      const blockKey = `s${s}b${b}`;
      items.push({
        key: blockKey,
        level: 2,
        parent: setupKey,
        expandable: true,
        selection: { kind: "block", setup: s, block: b },
      });
      if (!open.has(blockKey)) return;
      for (const operation of block.operations) {
        const o = setup.operation_ids.indexOf(operation.id);
        items.push({
          key: `s${s}o${o}`,
          level: 3,
          parent: blockKey,
          expandable: false,
          selection: { kind: "operation", setup: s, operation: o },
        });
      }
    });
  }
  return items;
}

export function OperationTree(props: {
  setups: ViewerSetup[];
  selected: Selection;
  onSelect: (selection: Selection) => void;
}) {
  const text = useViewerText();
  const { formatNumber } = useI18n();
  const number = (value: number) => formatNumber(value, { maximumFractionDigits: 2 });
  const [open, setOpen] = useState<Set<string>>(
    () => new Set(["s0", ...(props.setups[0]?.blocks.map((_, b) => `s0b${b}`) ?? [])]),
  );
  const [focused, setFocused] = useState(keyOf(props.selected));
  const tree = useRef<HTMLDivElement>(null);
  const items = visibleItems(props.setups, open);
  const selectedKey = keyOf(props.selected);

  const focus = (key: string) => {
    setFocused(key);
    tree.current?.querySelector<HTMLElement>(`[data-key="${key}"]`)?.focus();
  };
  const toggle = (key: string, to: boolean) => {
    const next = new Set(open);
    if (to) next.add(key);
    else next.delete(key);
    setOpen(next);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const at = items.findIndex((item) => item.key === focused);
    const item = items[at];
    if (!item) return;
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    switch (event.key) {
      case "ArrowDown":
        handled();
        if (items[at + 1]) focus(items[at + 1]!.key);
        break;
      case "ArrowUp":
        handled();
        if (items[at - 1]) focus(items[at - 1]!.key);
        break;
      case "Home":
        handled();
        focus(items[0]!.key);
        break;
      case "End":
        handled();
        focus(items[items.length - 1]!.key);
        break;
      case "ArrowRight":
        handled();
        if (item.expandable && !open.has(item.key)) toggle(item.key, true);
        else if (item.expandable && items[at + 1]?.parent === item.key) focus(items[at + 1]!.key);
        break;
      case "ArrowLeft":
        handled();
        if (item.expandable && open.has(item.key)) toggle(item.key, false);
        else if (item.parent) focus(item.parent);
        break;
      case "Enter":
      case " ":
        handled();
        props.onSelect(item.selection);
        break;
    }
  };

  const itemProps = (selection: Selection, label: string, expandable: boolean, level: number) => {
    const key = keyOf(selection);
    return {
      role: "treeitem" as const,
      "data-key": key,
      "aria-level": level,
      "aria-label": label,
      "aria-selected": key === selectedKey,
      ...(expandable ? { "aria-expanded": open.has(key) } : {}),
      tabIndex: key === focused ? 0 : -1,
      onFocus: (event: FocusEvent) => {
        if (event.target === event.currentTarget) setFocused(key);
      },
      onClick: (event: MouseEvent) => {
        event.stopPropagation();
        setFocused(key);
        props.onSelect(selection);
        if (expandable && key === selectedKey) toggle(key, !open.has(key));
      },
    };
  };

  return (
    <div class="viewer-tree" role="tree" aria-label={text.tree} ref={tree} onKeyDown={onKeyDown}>
      {props.setups.map((setup) => {
        const s = setup.index;
        const v = setup.verification;
        return (
          <div key={s} {...itemProps({ kind: "setup", setup: s }, setup.name, true, 1)}>
            <span class="tree-row">
              <strong>{setup.name}</strong>{" "}
              <span class="muted small">
                {setup.work_offset} · {formatDuration(setup.machining_time_s)}
              </span>
              <span class="muted small tree-figures">
                {fill(text.verification, {
                  gouges: v.gouges,
                  rapids: v.rapids_through_material,
                  holder: v.holder_collisions,
                })}
              </span>
            </span>
            {open.has(`s${s}`) ? (
              // biome-ignore lint/a11y/useSemanticElements: a tree's group, not a form's
              <div role="group">
                {setup.blocks.map((block, b) => (
                  <div key={block.id} {...itemProps({ kind: "block", setup: s, block: b }, block.name, true, 2)}>
                    <span class="tree-row">{block.name}</span>
                    {open.has(`s${s}b${b}`) ? (
                      // biome-ignore lint/a11y/useSemanticElements: a tree's group, not a form's
                      <div role="group">
                        {block.operations.map((operation) => {
                          const o = setup.operation_ids.indexOf(operation.id);
                          const name = operationName(text, operation, number);
                          const tool = operation.tool;
                          return (
                            <div
                              key={operation.id}
                              {...itemProps({ kind: "operation", setup: s, operation: o }, name, false, 3)}
                            >
                              <span class="tree-row">
                                <span
                                  class="swatch"
                                  style={{ background: kindColour(operation.kind) }}
                                  aria-hidden="true"
                                />
                                {name}
                                <span class="muted small tree-figures">
                                  {fill(tool.number === null ? text.toolNoNumber : text.tool, {
                                    number: tool.number ?? "",
                                    name: tool.name,
                                    diameter: number(tool.diameter_mm),
                                  })}
                                  {" · "}
                                  {fill(text.time, { time: formatDuration(operation.machining_time_s) })}
                                  {" · "}
                                  {fill(text.moves, { count: formatNumber(operation.move_count) })}
                                  {operation.engagement
                                    ? ` · ${fill(text.engagement, { pct: number(operation.engagement.radial_p99_pct) })}`
                                    : ""}
                                  {operation.scallop_mm !== null
                                    ? ` · ${fill(text.scallop, { mm: formatNumber(operation.scallop_mm, { maximumFractionDigits: 3 }) })}`
                                    : ""}
                                </span>
                              </span>
                            </div>
                          );
                        })}
                      </div>
                    ) : null}
                  </div>
                ))}
              </div>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
