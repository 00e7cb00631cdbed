/**
 * Holders and tools: the user's standalone holder and tool libraries, and
 * POST /libraries/tools/validate (a dry run). A holder or tool here and a component of the
 * same uuid inside an assembly are the same item; sync_assemblies (default true) keeps the
 * assemblies' copies in step (db/queries/equipment-sync.ts has the rules).
 *
 * Bodies are checked by the kernel's validators (kernel/tools), which name every violation at
 * once with a rule code: a 400 invalid_parameter lists them as details.fields
 * [{field: "body.<path>", code: <rule>, message}] (api/schemas/kernel-checked.ts).
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import {
  assembliesHolding,
  lockEquipment,
  propagateItem,
  removeItemFromAssemblies,
  type InvalidAssembly,
  type ItemKind,
  type SyncResult,
} from "../../db/queries/equipment-sync.ts";
import {
  deleteHolder,
  getHolder,
  insertHolder,
  listHolders,
  updateHolder,
  type StoredHolder,
} from "../../db/queries/holders.ts";
import { deleteTool, getTool, insertTool, listTools, updateTool, type StoredTool } from "../../db/queries/tools.ts";
import type { Queryable } from "../../db/request-transaction.ts";
import { Holder as KernelHolder, holderViolations, validateHolder, type Holder } from "../../kernel/tools/holder.ts";
import { Tool as KernelTool, toolViolations, validateTool, type Tool } from "../../kernel/tools/tool.ts";
import { TOOL_TYPES } from "../../kernel/tools/tool-types.ts";
import { Uuid } from "../../kernel/tools/uuid.ts";
import type { Violation } from "../../kernel/tools/violation.ts";
import { HttpError, invalidParameter, notFound } from "../../http/errors/index.ts";
import { PageQuery, pageOf, toPage } from "../pagination.ts";
import { json, noContent, type Reply } from "../reply.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { defineRoute } from "../route.ts";
import { BooleanQuery, idParams, NoQuery } from "../schemas/common.ts";
import { assumedAndWarningFields, assumedFields, holderAnswer, toolAnswer } from "../schemas/assumed-geometry.ts";
import { HOLDER_GEOMETRY, HolderSchema, TOOL_GEOMETRY, ToolSchema } from "../schemas/equipment.ts";
import {
  addRuleIssue,
  invalidBody,
  kernelChecked,
  mergePatch,
  mergePatchOf,
  normalizeItem,
  patchChecked,
} from "../schemas/kernel-checked.ts";

/** A sync would leave assemblies invalid: 409, nothing changed. */
export function assemblyInvalid(invalid: readonly InvalidAssembly[]): HttpError {
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

const uuidInput = (what: string) =>
  Uuid.optional().describe(
    `the ${what}'s uuid; generated when absent. 409 ${what}_exists when the user has a ${what} of that uuid`,
  );

const HolderCreate = kernelChecked(
  KernelHolder.extend({ uuid: uuidInput("holder"), ...assumedFields }).meta({
    id: "HolderCreate",
    description: HOLDER_GEOMETRY,
  }),
  holderViolations,
  normalizeItem,
);
const ToolCreate = kernelChecked(
  KernelTool.extend({ uuid: uuidInput("tool"), ...assumedAndWarningFields }).meta({
    id: "ToolCreate",
    description: TOOL_GEOMETRY,
  }),
  toolViolations,
  normalizeItem,
);
const ToolValidate = kernelChecked(
  KernelTool.extend(assumedAndWarningFields).meta({ id: "ToolValidate", description: TOOL_GEOMETRY }),
  toolViolations,
);

const PATCH_UUID = Uuid.optional().describe("may be sent (a whole item read back), but must be the path's id");
const HolderPatch = patchChecked(
  mergePatchOf(KernelHolder)
    .extend({ uuid: PATCH_UUID, ...assumedFields })
    .meta({ id: "HolderPatch" }),
);
const ToolPatch = patchChecked(
  mergePatchOf(KernelTool)
    .extend({ uuid: PATCH_UUID, ...assumedAndWarningFields })
    .meta({ id: "ToolPatch" }),
);

const SyncAssembliesQuery = z.strictObject({
  sync_assemblies: BooleanQuery.optional().describe(
    "true (the default): every assembly of the user holding a component of this uuid is changed too. " +
      "false: only the standalone entry changes",
  ),
});

const ToolListQuery = PageQuery.extend({
  tool_type: z.enum(TOOL_TYPES).optional().describe("only tools of this tool_type"),
  diameter_min: z.coerce
    .number()
    .min(0)
    .optional()
    .describe("only tools whose CuttingDiameter is at least this many mm"),
  diameter_max: z.coerce
    .number()
    .min(0)
    .optional()
    .describe("only tools whose CuttingDiameter is at most this many mm (not below diameter_min)"),
}).superRefine((query, ctx) => {
  if (query.diameter_min !== undefined && query.diameter_max !== undefined && query.diameter_min > query.diameter_max) {
    addRuleIssue(
      ctx,
      "diameter_min",
      "min_at_most_max",
      `${query.diameter_min} is above diameter_max (${query.diameter_max})`,
    );
  }
});

const HolderParams = idParams("holder_id");
const ToolParams = idParams("tool_id");

const LIBRARY_PATH = `${API_BASE_PATH}/libraries`;

// ---------------------------------------------------------------------------------------------
// Handlers shared by holders and tools

async function deleteItem(
  db: Queryable,
  kind: ItemKind,
  id: string,
  sync: boolean,
  remove: () => Promise<boolean>,
): Promise<Reply> {
  if (!sync) {
    const users = await assembliesHolding(db, kind, id);
    if (users.length > 0) {
      throw new HttpError(
        409,
        "in_use",
        `${users.length === 1 ? "an assembly holds" : `${users.length} assemblies hold`} this ${kind}; delete with sync_assemblies=true to remove it from them`,
        { assemblies: users },
      );
    }
  } else {
    const synced: SyncResult = await removeItemFromAssemblies(db, kind, id);
    if (!synced.ok) throw assemblyInvalid(synced.invalid);
  }
  await remove();
  return noContent();
}

/** How a PATCH reads, checks and writes one kind of item. */
interface PatchableItem<T> {
  kind: ItemKind;
  get(db: Queryable, id: string, options: { forUpdate: boolean }): Promise<{ id: string; body: unknown } | null>;
  /** the stored item as answered (with what is assumed for it) */
  answer(item: T & { uuid: string }): unknown;
  check(input: unknown): { ok: true; item: T } | { ok: false; violations: Violation[] };
  update(db: Queryable, item: T & { uuid: string }): Promise<{ body: T & { uuid: string } } | null>;
  /** puts the changed item into every assembly holding it */
  propagate(db: Queryable, item: T & { uuid: string }): Promise<SyncResult>;
}

/** A JSON merge patch of a holder or tool, validated whole, synced into assemblies when asked. */
async function patchItem<T extends object>(
  db: Queryable,
  item: PatchableItem<T>,
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

const HOLDER_ITEM: PatchableItem<Holder> = {
  kind: "holder",
  get: getHolder,
  answer: holderAnswer,
  check: (input) => {
    const checked = validateHolder(input);
    return checked.ok ? { ok: true, item: checked.holder } : checked;
  },
  update: updateHolder,
  propagate: (db, holder) => propagateItem(db, "holder", holder),
};

const TOOL_ITEM: PatchableItem<Tool> = {
  kind: "tool",
  get: getTool,
  answer: toolAnswer,
  check: (input) => {
    const checked = validateTool(input);
    return checked.ok ? { ok: true, item: checked.tool } : checked;
  },
  update: updateTool,
  propagate: (db, tool) => propagateItem(db, "tool", tool),
};

const SYNC_ERRORS = {
  409: "assembly_invalid: with sync_assemblies the change would leave an assembly invalid (details.assemblies[].fields); nothing changed",
} as const;

export const holderToolRoutes = [
  defineRoute({
    method: "get",
    path: "/libraries/holders",
    operationId: "listHolders",
    summary: "List the user's holders, newest first",
    tag: "Holders and tools",
    scopes: ["equipment:read"],
    query: PageQuery,
    responses: { 200: { description: "a page of holders", schema: pageOf(HolderSchema) } },
    async handler({ db, query }) {
      const rows = await listHolders(db, query.limit + 1, query.cursor);
      return json(
        200,
        toPage(rows, query.limit, (row) => holderAnswer(row.body)),
      );
    },
  }),
  defineRoute({
    method: "get",
    path: "/libraries/holders/{holder_id}",
    operationId: "getHolder",
    summary: "Read a holder",
    tag: "Holders and tools",
    scopes: ["equipment:read"],
    params: HolderParams,
    query: NoQuery,
    responses: { 200: { description: "the holder", schema: HolderSchema } },
    errors: [404],
    async handler({ db, params }) {
      const row = await getHolder(db, params.holder_id);
      if (!row) throw notFound("holder", params.holder_id);
      return json(200, holderAnswer(row.body));
    },
  }),
  defineRoute({
    method: "post",
    path: "/libraries/holders",
    operationId: "createHolder",
    summary: "Add a holder to the user's holder library",
    description:
      "The body is a holder (adaptive item); its uuid is generated when absent. Every violation of the holder model " +
      "is named at once (400 invalid_parameter, details.fields[].code is the rule). The spec's fields (uuid, name, " +
      "stacking_group, manufacturer) are enough: the holder is stored as given and the answer lists the profile " +
      "assumed for it under assumed (docs/equipment-libraries.md, Assumed geometry).",
    tag: "Holders and tools",
    scopes: ["equipment:write"],
    query: NoQuery,
    body: HolderCreate,
    responses: { 201: { description: "the stored holder, with its uuid", schema: HolderSchema } },
    errors: [409, 413, 415],
    errorCodes: { 409: "holder_exists: the user has a holder of this uuid" },
    async handler({ db, body }) {
      await lockEquipment(db);
      const holder: StoredHolder = { ...body, uuid: body.uuid ?? randomUUID() };
      const row = await insertHolder(db, holder);
      if (!row)
        throw new HttpError(409, "holder_exists", `a holder ${holder.uuid} exists already`, { uuid: holder.uuid });
      return json(201, holderAnswer(row.body), { Location: `${LIBRARY_PATH}/holders/${row.id}` });
    },
  }),
  defineRoute({
    method: "patch",
    path: "/libraries/holders/{holder_id}",
    operationId: "updateHolder",
    summary: "Change a holder (JSON merge patch), and by default the assemblies holding it",
    description:
      "A JSON merge patch (RFC 7396): objects merge key by key, null removes an optional field, arrays " +
      "(segments) are replaced whole. The result is validated as a whole holder. With sync_assemblies=true " +
      "(the default) every assembly of the user holding a component of this uuid gets the changed holder in " +
      "place of its copy (same position); with false only this entry changes.",
    tag: "Holders and tools",
    scopes: ["equipment:write"],
    params: HolderParams,
    query: SyncAssembliesQuery,
    body: HolderPatch,
    responses: { 200: { description: "the changed holder", schema: HolderSchema } },
    errors: [404, 409, 413, 415],
    errorCodes: SYNC_ERRORS,
    async handler({ db, params, query, body }) {
      return patchItem(db, HOLDER_ITEM, params.holder_id, body, query.sync_assemblies ?? true);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/libraries/holders/{holder_id}",
    operationId: "deleteHolder",
    summary: "Delete a holder, and by default remove it from the assemblies holding it",
    description:
      "With sync_assemblies=true (the default) the holder is removed from every assembly of the user holding it; " +
      "an assembly left without components is deleted. With false, a holder that an assembly still holds is not " +
      "deleted: 409 in_use, details.assemblies lists them ({library_id, assembly_id, name}).",
    tag: "Holders and tools",
    scopes: ["equipment:write"],
    params: HolderParams,
    query: SyncAssembliesQuery,
    responses: { 204: { description: "deleted" } },
    errors: [404, 409],
    errorCodes: {
      409: `in_use: sync_assemblies=false and assemblies hold it (details.assemblies); ${SYNC_ERRORS[409]}`,
    },
    async handler({ db, params, query }) {
      await lockEquipment(db);
      const row = await getHolder(db, params.holder_id, { forUpdate: true });
      if (!row) throw notFound("holder", params.holder_id);
      return deleteItem(db, "holder", row.id, query.sync_assemblies ?? true, () => deleteHolder(db, row.id));
    },
  }),
  defineRoute({
    method: "get",
    path: "/libraries/tools",
    operationId: "listTools",
    summary: "List the user's tools, newest first, by type and diameter",
    tag: "Holders and tools",
    scopes: ["equipment:read"],
    query: ToolListQuery,
    responses: { 200: { description: "a page of tools", schema: pageOf(ToolSchema) } },
    async handler({ db, query }) {
      const filter = { toolType: query.tool_type, diameterMin: query.diameter_min, diameterMax: query.diameter_max };
      const rows = await listTools(db, query.limit + 1, filter, query.cursor);
      return json(
        200,
        toPage(rows, query.limit, (row) => toolAnswer(row.body)),
      );
    },
  }),
  defineRoute({
    method: "post",
    path: "/libraries/tools/validate",
    operationId: "validateTool",
    summary: "Check a tool without storing it",
    description:
      "A dry run: 204 when the body is a valid tool, else 400 invalid_parameter naming every violation at once " +
      "(details.fields[]: field body.<path>, code the rule, e.g. at_most_half_diameter, within_overall_length, " +
      "unknown_field). Nothing is stored.",
    tag: "Holders and tools",
    scopes: ["equipment:read"],
    query: NoQuery,
    body: ToolValidate,
    responses: { 204: { description: "the tool is valid" } },
    errors: [413, 415],
    async handler() {
      return noContent();
    },
  }),
  defineRoute({
    method: "get",
    path: "/libraries/tools/{tool_id}",
    operationId: "getTool",
    summary: "Read a tool",
    tag: "Holders and tools",
    scopes: ["equipment:read"],
    params: ToolParams,
    query: NoQuery,
    responses: { 200: { description: "the tool", schema: ToolSchema } },
    errors: [404],
    async handler({ db, params }) {
      const row = await getTool(db, params.tool_id);
      if (!row) throw notFound("tool", params.tool_id);
      return json(200, toolAnswer(row.body));
    },
  }),
  defineRoute({
    method: "post",
    path: "/libraries/tools",
    operationId: "createTool",
    summary: "Add a tool to the user's tool library",
    description:
      "The body is a tool; its uuid is generated when absent. Every violation of the tool model is named at once " +
      "(400 invalid_parameter, details.fields[].code is the rule), as POST /libraries/tools/validate does. Only " +
      "tool_parameters.CuttingDiameter is required: the tool is stored as given, and the answer lists what the " +
      "planner assumes for the rest under assumed, and under warnings what it cannot assume.",
    tag: "Holders and tools",
    scopes: ["equipment:write"],
    query: NoQuery,
    body: ToolCreate,
    responses: { 201: { description: "the stored tool, with its uuid", schema: ToolSchema } },
    errors: [409, 413, 415],
    errorCodes: { 409: "tool_exists: the user has a tool of this uuid" },
    async handler({ db, body }) {
      await lockEquipment(db);
      const tool: StoredTool = { ...body, uuid: body.uuid ?? randomUUID() };
      const row = await insertTool(db, tool);
      if (!row) throw new HttpError(409, "tool_exists", `a tool ${tool.uuid} exists already`, { uuid: tool.uuid });
      return json(201, toolAnswer(row.body), { Location: `${LIBRARY_PATH}/tools/${row.id}` });
    },
  }),
  defineRoute({
    method: "patch",
    path: "/libraries/tools/{tool_id}",
    operationId: "updateTool",
    summary: "Change a tool (JSON merge patch), and by default the assemblies holding it",
    description:
      "A JSON merge patch (RFC 7396): objects (tool_parameters, vendor_data) merge key by key, null removes an " +
      "optional field or parameter, arrays (cutting_data) are replaced whole. The result is validated as a whole " +
      "tool. With sync_assemblies=true (the default) every assembly of the user holding a component of this uuid " +
      "gets the changed tool in place of its copy (same position); with false only this entry changes.",
    tag: "Holders and tools",
    scopes: ["equipment:write"],
    params: ToolParams,
    query: SyncAssembliesQuery,
    body: ToolPatch,
    responses: { 200: { description: "the changed tool", schema: ToolSchema } },
    errors: [404, 409, 413, 415],
    errorCodes: SYNC_ERRORS,
    async handler({ db, params, query, body }) {
      return patchItem(db, TOOL_ITEM, params.tool_id, body, query.sync_assemblies ?? true);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/libraries/tools/{tool_id}",
    operationId: "deleteTool",
    summary: "Delete a tool, and by default remove it from the assemblies holding it",
    description:
      "With sync_assemblies=true (the default) the tool is removed from every assembly of the user holding it; " +
      "an assembly left without components is deleted. With false, a tool that an assembly still holds is not " +
      "deleted: 409 in_use, details.assemblies lists them ({library_id, assembly_id, name}).",
    tag: "Holders and tools",
    scopes: ["equipment:write"],
    params: ToolParams,
    query: SyncAssembliesQuery,
    responses: { 204: { description: "deleted" } },
    errors: [404, 409],
    errorCodes: {
      409: `in_use: sync_assemblies=false and assemblies hold it (details.assemblies); ${SYNC_ERRORS[409]}`,
    },
    async handler({ db, params, query }) {
      await lockEquipment(db);
      const row = await getTool(db, params.tool_id, { forUpdate: true });
      if (!row) throw notFound("tool", params.tool_id);
      return deleteItem(db, "tool", row.id, query.sync_assemblies ?? true, () => deleteTool(db, row.id));
    },
  }),
];
