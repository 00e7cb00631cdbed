/**
 * Holders and tools: the user's standalone holder and tool libraries (one route factory for both
 * kinds, ./shared/library-item-routes.ts), and POST /libraries/tools/validate (a dry run).
 *
 * Bodies are checked by the kernel's validators (kernel/tools), which name every violation at
 * once with a rule code: a 400 invalid_parameter lists them as details.fields
 * [{field: "body.<path>", code: <rule>, message}] (api/schemas/kernel-checked.ts).
 */
import { z } from "zod";
import { propagateItem } from "../../db/queries/equipment-sync.ts";
import { deleteHolder, getHolder, insertHolder, listHolders, updateHolder } from "../../db/queries/holders.ts";
import { deleteTool, getTool, insertTool, listTools, updateTool } from "../../db/queries/tools.ts";
import { Holder as KernelHolder, holderViolations, validateHolder, type Holder } from "../../kernel/tools/holder.ts";
import { Tool as KernelTool, toolViolations, validateTool, type Tool } from "../../kernel/tools/tool.ts";
import { TOOL_TYPES } from "../../kernel/tools/tool-types.ts";
import { Uuid } from "../../kernel/tools/uuid.ts";
import { PageQuery } from "../pagination.ts";
import { noContent } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { NoQuery } from "../schemas/common.ts";
import { assumedAndWarningFields, assumedFields, holderAnswer, toolAnswer } from "../schemas/assumed-geometry.ts";
import { HOLDER_GEOMETRY, HolderSchema, TOOL_GEOMETRY, ToolSchema } from "../schemas/equipment.ts";
import { addRuleIssue, kernelChecked, mergePatchOf, normalizeItem, patchChecked } from "../schemas/kernel-checked.ts";
import { libraryItemRoutes, type LibraryItem } from "./shared/library-item-routes.ts";

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

const HOLDERS: LibraryItem<Holder, "holder_id", typeof PageQuery> = {
  kind: "holder",
  plural: "holders",
  operationNoun: "Holder",
  idParam: "holder_id",
  schema: HolderSchema,
  listQuery: PageQuery,
  listSummary: "List the user's holders, newest first",
  list: (db, limit, query) => listHolders(db, limit, query.cursor),
  createBody: HolderCreate,
  createDescription:
    "The body is a holder (adaptive item); its uuid is generated when absent. Every violation of the holder model " +
    "is named at once (400 invalid_parameter, details.fields[].code is the rule). The spec's fields (uuid, name, " +
    "stacking_group, manufacturer) are enough: the holder is stored as given and the answer lists the profile " +
    "assumed for it under assumed (docs/equipment-libraries.md, Assumed geometry).",
  patchBody: HolderPatch,
  patchDescription:
    "A JSON merge patch (RFC 7396): objects merge key by key, null removes an optional field, arrays " +
    "(segments) are replaced whole. The result is validated as a whole holder. With sync_assemblies=true " +
    "(the default) every assembly of the user holding a component of this uuid gets the changed holder in " +
    "place of its copy (same position); with false only this entry changes.",
  get: getHolder,
  insert: insertHolder,
  update: updateHolder,
  remove: deleteHolder,
  answer: holderAnswer,
  check: (input) => {
    const checked = validateHolder(input);
    return checked.ok ? { ok: true, item: checked.holder } : checked;
  },
  propagate: (db, holder) => propagateItem(db, "holder", holder),
};

const TOOLS: LibraryItem<Tool, "tool_id", typeof ToolListQuery> = {
  kind: "tool",
  plural: "tools",
  operationNoun: "Tool",
  idParam: "tool_id",
  schema: ToolSchema,
  listQuery: ToolListQuery,
  listSummary: "List the user's tools, newest first, by type and diameter",
  list: (db, limit, query) =>
    listTools(
      db,
      limit,
      { toolType: query.tool_type, diameterMin: query.diameter_min, diameterMax: query.diameter_max },
      query.cursor,
    ),
  createBody: ToolCreate,
  createDescription:
    "The body is a tool; its uuid is generated when absent. Every violation of the tool model is named at once " +
    "(400 invalid_parameter, details.fields[].code is the rule), as POST /libraries/tools/validate does. Only " +
    "tool_parameters.CuttingDiameter is required: the tool is stored as given, and the answer lists what the " +
    "planner assumes for the rest under assumed, and under warnings what it cannot assume.",
  patchBody: ToolPatch,
  patchDescription:
    "A JSON merge patch (RFC 7396): objects (tool_parameters, vendor_data) merge key by key, null removes an " +
    "optional field or parameter, arrays (cutting_data) are replaced whole. The result is validated as a whole " +
    "tool. With sync_assemblies=true (the default) every assembly of the user holding a component of this uuid " +
    "gets the changed tool in place of its copy (same position); with false only this entry changes.",
  get: getTool,
  insert: insertTool,
  update: updateTool,
  remove: deleteTool,
  answer: toolAnswer,
  check: (input) => {
    const checked = validateTool(input);
    return checked.ok ? { ok: true, item: checked.tool } : checked;
  },
  propagate: (db, tool) => propagateItem(db, "tool", tool),
};

const holders = libraryItemRoutes(HOLDERS);
const tools = libraryItemRoutes(TOOLS);

export const holderToolRoutes = [
  holders.list,
  holders.read,
  holders.create,
  holders.update,
  holders.remove,
  tools.list,
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
  tools.read,
  tools.create,
  tools.update,
  tools.remove,
];
