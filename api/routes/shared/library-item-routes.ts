/**
 * The routes of one kind of standalone library item (holder or tool): list, read, create,
 * merge-patch and delete, from one description of the kind. Both kinds answer alike, so their
 * routes differ only in what the description says; a change here changes both.
 *
 * A holder or tool here and a component of the same uuid inside an assembly are the same item:
 * sync_assemblies (default true) keeps the assemblies' copies in step
 * (db/queries/equipment-sync.ts has the rules).
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  assembliesHolding,
  lockEquipment,
  removeItemFromAssemblies,
  type InvalidAssembly,
  type ItemKind,
  type SyncResult,
} from "../../../db/queries/equipment-sync.ts";
import type { Queryable } from "../../../db/request-transaction.ts";
import type { Violation } from "../../../kernel/tools/violation.ts";
import { API_BASE_PATH } from "../../../http/base-path.ts";
import { HttpError, invalidParameter, notFound } from "../../../http/errors/index.ts";
import { pageOf, toPage } from "../../pagination.ts";
import { json, noContent, type Reply } from "../../reply.ts";
import { defineRoute, type RouteSpec } from "../../route.ts";
import { BooleanQuery, idParams, NoQuery } from "../../schemas/common.ts";
import { invalidBody, mergePatch } from "../../schemas/kernel-checked.ts";

/** An item as stored: its uuid is always set. */
type Stored<T> = T & { uuid: string };

interface ItemRow<T> {
  id: string;
  seq: number;
  body: Stored<T>;
}

/** What differs between holders and tools: names, schemas, texts and the item's queries. */
export interface LibraryItem<T extends object, K extends string, LQ extends z.ZodType<{ limit: number }>> {
  kind: ItemKind;
  /** in paths and texts: holders */
  plural: string;
  /** in operation ids: Holder (listHolders, getHolder, ...) */
  operationNoun: string;
  /** the path parameter: holder_id */
  idParam: K;
  /** the item as answered */
  schema: z.ZodType;
  listQuery: LQ;
  listSummary: string;
  /** newest first, at most limit rows */
  list(db: Queryable, limit: number, query: z.output<LQ>): Promise<ItemRow<T>[]>;
  /** the create body: the item with an optional uuid */
  createBody: z.ZodType<T & { uuid?: string | undefined }>;
  createDescription: string;
  /** the merge-patch body */
  patchBody: z.ZodType<Record<string, unknown>>;
  patchDescription: string;
  get(db: Queryable, id: string, options?: { forUpdate?: boolean }): Promise<ItemRow<T> | null>;
  /** null when the user has an item of that uuid already */
  insert(db: Queryable, item: Stored<T>): Promise<ItemRow<T> | null>;
  update(db: Queryable, item: Stored<T>): Promise<ItemRow<T> | null>;
  remove(db: Queryable, id: string): Promise<boolean>;
  /** the stored item as answered (with what is assumed for it) */
  answer(item: Stored<T>): unknown;
  /** the kernel's validator, run on the patched item as a whole */
  check(input: unknown): { ok: true; item: T } | { ok: false; violations: Violation[] };
  /** puts the changed item into every assembly holding it */
  propagate(db: Queryable, item: Stored<T>): Promise<SyncResult>;
}

const TAG = "Holders and tools";
const LIBRARY_PATH = `${API_BASE_PATH}/libraries`;

const SyncAssembliesQuery = z.strictObject({
  sync_assemblies: BooleanQuery.optional().describe(
    "true (the default): every assembly of the user holding a component of this uuid is changed too. " +
      "false: only the standalone entry changes",
  ),
});

const SYNC_ERRORS = {
  409: "assembly_invalid: with sync_assemblies the change would leave an assembly invalid (details.assemblies[].fields); nothing changed",
} as const;

/** A sync would leave assemblies invalid: 409, nothing changed. */
function assemblyInvalid(invalid: readonly InvalidAssembly[]): HttpError {
  return new HttpError(
    409,
    "assembly_invalid",
    `the change would make ${invalid.length === 1 ? "an assembly" : `${invalid.length} assemblies`} invalid; nothing was changed`,
    {
      assemblies: invalid.map((a) => ({
        library_id: a.library_id,
        assembly_id: a.assembly_id,
        name: a.name,
        fields: a.violations.map((v) => ({ field: v.field, code: v.rule, message: v.message })),
      })),
    },
  );
}

function immutableUuid(sent: unknown, id: string): void {
  if (typeof sent === "string" && sent.toLowerCase() !== id) {
    throw invalidParameter([
      { field: "body.uuid", code: "immutable", message: `the uuid of ${id} cannot change; create a new item instead` },
    ]);
  }
}

/** A JSON merge patch of an item, validated whole, synced into assemblies when asked. */
async function patchItem<T extends object>(
  db: Queryable,
  item: LibraryItem<T, string, z.ZodType<{ limit: number }>>,
  id: string,
  body: Record<string, unknown>,
  sync: boolean,
): Promise<Reply> {
  await lockEquipment(db);
  const row = await item.get(db, id, { forUpdate: true });
  if (!row) throw notFound(item.kind, id);
  immutableUuid(body.uuid, row.id);
  const checked = item.check(mergePatch(row.body, body));
  if (!checked.ok) throw invalidBody(checked.violations);
  const changed = { ...checked.item, uuid: row.id };
  if (sync) {
    const synced = await item.propagate(db, changed);
    if (!synced.ok) throw assemblyInvalid(synced.invalid);
  }
  const updated = await item.update(db, changed);
  return json(200, item.answer(updated!.body));
}

/** Deletes an item; with sync, out of every assembly too, else refused while an assembly holds it. */
async function deleteItem<T extends object>(
  db: Queryable,
  item: LibraryItem<T, string, z.ZodType<{ limit: number }>>,
  id: string,
  sync: boolean,
): Promise<Reply> {
  await lockEquipment(db);
  const row = await item.get(db, id, { forUpdate: true });
  if (!row) throw notFound(item.kind, id);
  if (!sync) {
    const users = await assembliesHolding(db, item.kind, row.id);
    if (users.length > 0) {
      throw new HttpError(
        409,
        "in_use",
        `${users.length === 1 ? "an assembly holds" : `${users.length} assemblies hold`} this ${item.kind}; delete with sync_assemblies=true to remove it from them`,
        { assemblies: users },
      );
    }
  } else {
    const synced = await removeItemFromAssemblies(db, item.kind, row.id);
    if (!synced.ok) throw assemblyInvalid(synced.invalid);
  }
  await item.remove(db, row.id);
  return noContent();
}

/** The item's routes by what they do; the route file places them in the route table. */
export function libraryItemRoutes<T extends object, K extends string, LQ extends z.ZodType<{ limit: number }>>(
  item: LibraryItem<T, K, LQ>,
): Record<"list" | "read" | "create" | "update" | "remove", RouteSpec> {
  const { kind, plural, operationNoun: noun } = item;
  const collection = `/libraries/${plural}`;
  const one = `${collection}/{${item.idParam}}`;
  // zod infers no output for a key that is a type parameter; the schema is the same
  const Params = idParams(item.idParam) as z.ZodType<Record<K, string>>;
  const list = defineRoute({
    method: "get",
    path: collection,
    operationId: `list${noun}s`,
    summary: item.listSummary,
    tag: TAG,
    scopes: ["equipment:read"],
    query: item.listQuery,
    responses: { 200: { description: `a page of ${plural}`, schema: pageOf(item.schema) } },
    async handler({ db, query }) {
      const rows = await item.list(db, query.limit + 1, query);
      return json(
        200,
        toPage(rows, query.limit, (row) => item.answer(row.body)),
      );
    },
  });
  const read = defineRoute({
    method: "get",
    path: one,
    operationId: `get${noun}`,
    summary: `Read a ${kind}`,
    tag: TAG,
    scopes: ["equipment:read"],
    params: Params,
    query: NoQuery,
    responses: { 200: { description: `the ${kind}`, schema: item.schema } },
    errors: [404],
    async handler({ db, params }) {
      const id = params[item.idParam];
      const row = await item.get(db, id);
      if (!row) throw notFound(kind, id);
      return json(200, item.answer(row.body));
    },
  });
  const create = defineRoute({
    method: "post",
    path: collection,
    operationId: `create${noun}`,
    summary: `Add a ${kind} to the user's ${kind} library`,
    description: item.createDescription,
    tag: TAG,
    scopes: ["equipment:write"],
    query: NoQuery,
    body: item.createBody,
    responses: { 201: { description: `the stored ${kind}, with its uuid`, schema: item.schema } },
    errors: [409, 413, 415],
    errorCodes: { 409: `${kind}_exists: the user has a ${kind} of this uuid` },
    async handler({ db, body }) {
      await lockEquipment(db);
      const stored: Stored<T> = { ...body, uuid: body.uuid ?? randomUUID() };
      const row = await item.insert(db, stored);
      if (!row)
        throw new HttpError(409, `${kind}_exists`, `a ${kind} ${stored.uuid} exists already`, { uuid: stored.uuid });
      return json(201, item.answer(row.body), { Location: `${LIBRARY_PATH}/${plural}/${row.id}` });
    },
  });
  const update = defineRoute({
    method: "patch",
    path: one,
    operationId: `update${noun}`,
    summary: `Change a ${kind} (JSON merge patch), and by default the assemblies holding it`,
    description: item.patchDescription,
    tag: TAG,
    scopes: ["equipment:write"],
    params: Params,
    query: SyncAssembliesQuery,
    body: item.patchBody,
    responses: { 200: { description: `the changed ${kind}`, schema: item.schema } },
    errors: [404, 409, 413, 415],
    errorCodes: SYNC_ERRORS,
    async handler({ db, params, query, body }) {
      return patchItem(db, item, params[item.idParam], body, query.sync_assemblies ?? true);
    },
  });
  const remove = defineRoute({
    method: "delete",
    path: one,
    operationId: `delete${noun}`,
    summary: `Delete a ${kind}, and by default remove it from the assemblies holding it`,
    description:
      `With sync_assemblies=true (the default) the ${kind} is removed from every assembly of the user holding it; ` +
      `an assembly left without components is deleted. With false, a ${kind} that an assembly still holds is not ` +
      "deleted: 409 in_use, details.assemblies lists them ({library_id, assembly_id, name}).",
    tag: TAG,
    scopes: ["equipment:write"],
    params: Params,
    query: SyncAssembliesQuery,
    responses: { 204: { description: "deleted" } },
    errors: [404, 409],
    errorCodes: {
      409: `in_use: sync_assemblies=false and assemblies hold it (details.assemblies); ${SYNC_ERRORS[409]}`,
    },
    async handler({ db, params, query }) {
      return deleteItem(db, item, params[item.idParam], query.sync_assemblies ?? true);
    },
  });
  return { list, read, create, update, remove };
}
