/**
 * Keeps the copies of one item in step: an assembly holds full copies of its components, and
 * a component is the same item as the user's standalone holder or tool of the same uuid
 * (holders for `adaptive_item` components, tools for `parametric_cutting_tool` ones). The
 * routes choose what to sync with their query options; the rules are these:
 *
 * | request                                            | default | what else changes                                                  |
 * |----------------------------------------------------|---------|--------------------------------------------------------------------|
 * | POST assembly ?add_to_library=true                  | false   | every component upserted into holders/tools by uuid                 |
 * | PATCH assembly ?sync_library=true                   | false   | every component of the result upserted; components the edit removed that no assembly of the user still holds are deleted from holders/tools |
 * | DELETE assembly ?sync_library=true                  | true    | its components that no remaining assembly holds are deleted from holders/tools |
 * | PATCH holder/tool ?sync_assemblies=true              | true    | every assembly holding the uuid gets the new item in place of the old (same position) |
 * | DELETE holder/tool ?sync_assemblies=true             | true    | the component is removed from every assembly holding it; an assembly left empty is deleted |
 * | DELETE holder/tool ?sync_assemblies=false, in use    |         | nothing: 409 in_use naming the assemblies                          |
 * | PATCH holder/tool ?sync_assemblies=false             |         | nothing: the assemblies keep their copies                           |
 *
 * - "Upsert" inserts the item or makes the entry of its uuid equal to it; an equal entry is
 *   left untouched. An upsert never rewrites other assemblies that hold the same uuid.
 * - "Orphan": a standalone item whose uuid no assembly of the user (in any library) holds as
 *   a component of the same kind. Orphans are only deleted where the table says so, and only
 *   among the components the request removed (the library's other items are not looked at).
 * - An assembly rewritten by a sync is validated as a whole again (validateAssembly: an edited
 *   tool's shank may no longer fit its holder). If any would be invalid, nothing is written
 *   and the caller answers 409 assembly_invalid naming them.
 * - Assemblies holding an item are found by containment, which the GIN index on
 *   (body -> 'components') jsonb_path_ops serves:
 *     body -> 'components' @> '[{"parametric_cutting_tool": {"uuid": "<uuid>"}}]'
 *   uuids are stored lowercase (the routes normalise them) so that containment matches.
 *
 * Concurrency: every equipment write of a user (libraries, assemblies, holders, tools) first
 * takes lockEquipment, a transaction-scoped advisory lock per user, so one user's syncs run
 * one after the other and an orphan check cannot race an insert that would keep the item.
 * The rows a sync reads and rewrites are also locked (FOR UPDATE) in the request's one
 * transaction, so a writer that skipped the advisory lock still could not lose an update.
 */
import { validateAssembly, type Assembly, type AssemblyComponent } from "../../kernel/tools/assembly.ts";
import type { Violation } from "../../kernel/tools/violation.ts";
import type { Queryable } from "../request-transaction.ts";
import { touchLibraries } from "./equipment-libraries.ts";
import { upsertHolders, type StoredHolder } from "./holders.ts";
import { upsertTools, type StoredTool } from "./tools.ts";

export type ItemKind = "holder" | "tool";

/** The component_type (and object key) of each kind, and its standalone table. */
const KINDS = {
  holder: { key: "adaptive_item", table: "app_public.holders" },
  tool: { key: "parametric_cutting_tool", table: "app_public.tools" },
} as const;

export interface AssemblyRef {
  library_id: string;
  assembly_id: string;
  name: string;
}

export interface InvalidAssembly extends AssemblyRef {
  violations: Violation[];
}

export type SyncResult =
  | { ok: true; updated: AssemblyRef[]; deleted: AssemblyRef[] }
  | { ok: false; invalid: InvalidAssembly[] };

interface HoldingRow {
  library_id: string;
  id: string;
  name: string;
  body: Assembly;
}

/**
 * Serialises the caller's equipment writes (the same key for every route): held to the end
 * of the transaction. Take it before reading what the request will change.
 */
export async function lockEquipment(db: Queryable): Promise<void> {
  await db.query(
    "select pg_advisory_xact_lock(hashtextextended('swarf.equipment:' || app_public.current_user_id()::text, 0))",
  );
}

function containment(kind: ItemKind, uuid: string): string {
  return JSON.stringify([{ [KINDS[kind].key]: { uuid: uuid.toLowerCase() } }]);
}

function componentKind(component: AssemblyComponent): ItemKind {
  return component.component_type === "adaptive_item" ? "holder" : "tool";
}

function componentUuid(component: AssemblyComponent): string {
  const uuid =
    component.component_type === "adaptive_item"
      ? component.adaptive_item.uuid
      : component.parametric_cutting_tool.uuid;
  return uuid.toLowerCase();
}

function refOf(row: HoldingRow): AssemblyRef {
  return { library_id: row.library_id, assembly_id: row.id, name: row.name };
}

async function holding(db: Queryable, kind: ItemKind, uuid: string, forUpdate: boolean): Promise<HoldingRow[]> {
  const { rows } = await db.query<HoldingRow>(
    `select library_id, id, name, body from app_public.library_assemblies
      where body -> 'components' @> $1::jsonb
      order by library_id, position, id${forUpdate ? " for update" : ""}`,
    [containment(kind, uuid)],
  );
  return rows;
}

/** The assemblies of the user (any library) that hold the item as a component. */
export async function assembliesHolding(db: Queryable, kind: ItemKind, uuid: string): Promise<AssemblyRef[]> {
  return (await holding(db, kind, uuid, false)).map(refOf);
}

/** Upserts every component into the user's holders and tools by uuid (add_to_library, sync_library). */
export async function saveComponents(db: Queryable, components: readonly AssemblyComponent[]): Promise<void> {
  const holders = new Map<string, StoredHolder>();
  const tools = new Map<string, StoredTool>();
  for (const component of components) {
    if (component.component_type === "adaptive_item")
      holders.set(component.adaptive_item.uuid, component.adaptive_item);
    else tools.set(component.parametric_cutting_tool.uuid, component.parametric_cutting_tool);
  }
  await upsertHolders(db, [...holders.values()]);
  await upsertTools(db, [...tools.values()]);
}

/**
 * Deletes the standalone entries of these components that no assembly of the user holds any
 * more. Returns the uuids deleted, by kind.
 */
export async function deleteOrphans(
  db: Queryable,
  components: readonly AssemblyComponent[],
): Promise<Record<ItemKind, string[]>> {
  const deleted: Record<ItemKind, string[]> = { holder: [], tool: [] };
  for (const kind of ["holder", "tool"] as const) {
    const uuids = [...new Set(components.filter((c) => componentKind(c) === kind).map(componentUuid))];
    if (uuids.length === 0) continue;
    const { key, table } = KINDS[kind];
    const { rows } = await db.query<{ id: string }>(
      `delete from ${table} item
        where item.id = any($1::uuid[])
          and not exists (
            select 1 from app_public.library_assemblies a
             where a.body -> 'components' @> jsonb_build_array(jsonb_build_object($2::text, jsonb_build_object('uuid', item.id::text))))
        returning item.id`,
      [uuids, key],
    );
    deleted[kind] = rows.map((r) => r.id);
  }
  return deleted;
}

/** Components of before that after lacks (same kind and uuid). */
export function removedComponents(
  before: readonly AssemblyComponent[],
  after: readonly AssemblyComponent[],
): AssemblyComponent[] {
  const kept = new Set(after.map((c) => `${componentKind(c)}:${componentUuid(c)}`));
  return before.filter((c) => !kept.has(`${componentKind(c)}:${componentUuid(c)}`));
}

/**
 * Rewrites the assemblies holding the item: each gets components(old) instead of its list,
 * validated as a whole; an empty list deletes the assembly. Nothing is written when any
 * result is invalid.
 */
async function rewriteHolding(
  db: Queryable,
  kind: ItemKind,
  uuid: string,
  rewrite: (components: AssemblyComponent[]) => AssemblyComponent[],
): Promise<SyncResult> {
  const rows = await holding(db, kind, uuid, true);
  const changed: { row: HoldingRow; body: Assembly }[] = [];
  const emptied: HoldingRow[] = [];
  const invalid: InvalidAssembly[] = [];
  for (const row of rows) {
    const components = rewrite(row.body.components);
    if (components.length === 0) {
      emptied.push(row);
      continue;
    }
    const checked = validateAssembly({ ...row.body, components });
    if (checked.ok) changed.push({ row, body: checked.assembly });
    else invalid.push({ ...refOf(row), violations: checked.violations });
  }
  if (invalid.length > 0) return { ok: false, invalid };
  if (changed.length > 0) {
    await db.query(
      `update app_public.library_assemblies a set body = v.body, name = v.body ->> 'name', updated_at = now()
         from jsonb_to_recordset($1::jsonb) as v(library_id uuid, id uuid, body jsonb)
        where a.library_id = v.library_id and a.id = v.id`,
      [JSON.stringify(changed.map(({ row, body }) => ({ library_id: row.library_id, id: row.id, body })))],
    );
  }
  if (emptied.length > 0) {
    await db.query(
      `delete from app_public.library_assemblies a
        using jsonb_to_recordset($1::jsonb) as v(library_id uuid, id uuid)
        where a.library_id = v.library_id and a.id = v.id`,
      [JSON.stringify(emptied.map((row) => ({ library_id: row.library_id, id: row.id })))],
    );
  }
  await touchLibraries(db, [...changed.map(({ row }) => row.library_id), ...emptied.map((row) => row.library_id)]);
  return { ok: true, updated: changed.map(({ row }) => refOf(row)), deleted: emptied.map(refOf) };
}

/** sync_assemblies on PATCH: the item replaces its old copy in every assembly holding it, in place. */
export function propagateItem(db: Queryable, kind: "holder", item: StoredHolder): Promise<SyncResult>;
export function propagateItem(db: Queryable, kind: "tool", item: StoredTool): Promise<SyncResult>;
export function propagateItem(db: Queryable, kind: ItemKind, item: StoredHolder | StoredTool): Promise<SyncResult> {
  const uuid = item.uuid.toLowerCase();
  const replacement = (
    kind === "holder"
      ? { component_type: "adaptive_item", adaptive_item: item }
      : { component_type: "parametric_cutting_tool", parametric_cutting_tool: item }
  ) as AssemblyComponent;
  return rewriteHolding(db, kind, uuid, (components) =>
    components.map((c) => (componentKind(c) === kind && componentUuid(c) === uuid ? replacement : c)),
  );
}

/** sync_assemblies on DELETE: the item leaves every assembly holding it; an emptied assembly is deleted. */
export function removeItemFromAssemblies(db: Queryable, kind: ItemKind, uuid: string): Promise<SyncResult> {
  const id = uuid.toLowerCase();
  return rewriteHolding(db, kind, id, (components) =>
    components.filter((c) => !(componentKind(c) === kind && componentUuid(c) === id)),
  );
}
