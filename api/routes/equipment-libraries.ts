/**
 * Equipment libraries and their assemblies. A library holds an ordered list of assemblies (the
 * tool slots); an assembly holds full copies of its components (holders, extensions, the
 * cutting tool). add_to_library and sync_library keep the user's standalone holder and tool
 * libraries in step with them (db/queries/equipment-sync.ts has the rules, docs/
 * equipment-libraries.md the whole model).
 *
 * Assemblies are checked by the kernel (validateAssembly: every component's own rules and the
 * stacking rules), every violation named at once as body.<path> with its rule as code.
 */
import { z } from "zod";
import {
  assemblyInPocket,
  deleteAssembly,
  getAssembly,
  insertAssembly,
  listAssemblies,
  replaceAssemblies,
  updateAssembly,
  type AssemblyRow,
} from "../../db/queries/assemblies.ts";
import {
  clearDefaultLibrary,
  deleteLibrary,
  getLibrary,
  insertLibrary,
  listLibraries,
  updateLibrary,
  type LibraryRow,
  type LibrarySummaryRow,
} from "../../db/queries/equipment-libraries.ts";
import type { Queryable } from "../../db/request-transaction.ts";
import { deleteOrphans, lockEquipment, removedComponents, saveComponents } from "../../db/queries/equipment-sync.ts";
import {
  Assembly as KernelAssembly,
  assemblyViolations,
  MAX_COMPONENTS,
  validateAssembly,
} from "../../kernel/tools/assembly.ts";
import { duplicatePocketNumbers, pocketNumberTaken } from "../../kernel/tools/pocket-numbers.ts";
import { isUuid } from "../../kernel/tools/uuid.ts";
import { isRecord, type Violation } from "../../kernel/tools/violation.ts";
import { HttpError, invalidParameter, notFound } from "../../http/errors/index.ts";
import { PageQuery, pageOf, toPage } from "../pagination.ts";
import { json, noContent } from "../reply.ts";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { defineRoute } from "../route.ts";
import { BooleanQuery, Id, idParams, NoQuery, Timestamp } from "../schemas/common.ts";
import { assemblyAnswer, assemblyWithoutReadOnly, assumedAndWarningFields } from "../schemas/assumed-geometry.ts";
import { HolderSchema, ToolSchema } from "../schemas/equipment.ts";
import { addRuleIssue, invalidBody, kernelChecked, mergePatch, normalizeItem } from "../schemas/kernel-checked.ts";

/** More than this in one request is not a library but a mistake (the JSON body limit comes first anyway). */
export const MAX_ASSEMBLIES_PER_REQUEST = 1000;

// ---------------------------------------------------------------------------------------------
// Schemas

export const AssemblyComponentSchema = z
  .discriminatedUnion("component_type", [
    z.strictObject({ component_type: z.literal("adaptive_item"), adaptive_item: HolderSchema }),
    z.strictObject({ component_type: z.literal("parametric_cutting_tool"), parametric_cutting_tool: ToolSchema }),
  ])
  .meta({
    id: "AssemblyComponent",
    description:
      "component_type and the object it names: a holder (adaptive_item) or the cutting tool (parametric_cutting_tool)",
  });

/** An assembly as the API takes and shows it (the kernel's model, components documented by kind). */
export const AssemblySchema = KernelAssembly.extend({
  uuid: KernelAssembly.shape.uuid.describe("client-supplied; unique within its library"),
  components: z
    .array(AssemblyComponentSchema)
    .min(1)
    .max(MAX_COMPONENTS)
    .describe(
      "spindle side first: a Holder, optional Extensions or Adapters, the cutting tool last; component uuids unique",
    ),
  ...assumedAndWarningFields,
}).meta({
  id: "Assembly",
  description:
    "An ordered stack of components filling one tool slot. Components need only the fields the spec shows: what the planner " +
    "needs and they lack (a holder's profile, the tool's stick-out, a drill's point...) is assumed on the safe side and listed " +
    "under assumed; an assembly without a Holder is planned with an assumed one above its first component",
});

/** An assembly with its uuids (its own and its components') lowercased. */
function normalizeAssembly(input: unknown): unknown {
  if (!isRecord(input)) return input;
  const out: Record<string, unknown> = { ...input };
  if (typeof out.uuid === "string") out.uuid = out.uuid.toLowerCase();
  if (Array.isArray(out.components)) {
    out.components = out.components.map((component: unknown) => {
      if (!isRecord(component) || typeof component.component_type !== "string") return component;
      const key = component.component_type;
      return isRecord(component[key]) ? { ...component, [key]: normalizeItem(component[key]) } : component;
    });
  }
  return out;
}

function prefixed(violations: Violation[], prefix: string): Violation[] {
  return violations.map((v) => ({ ...v, field: v.field ? `${prefix}.${v.field}` : prefix }));
}

/** Every violation of every assembly of a list, and uuids that repeat within it. */
function assemblyListViolations(input: unknown): Violation[] {
  if (!Array.isArray(input)) return [{ field: "", rule: "type", message: "must be an array of assemblies" }];
  const out: Violation[] = [];
  if (input.length > MAX_ASSEMBLIES_PER_REQUEST) {
    out.push({
      field: "",
      rule: "too_long",
      message: `at most ${MAX_ASSEMBLIES_PER_REQUEST} assemblies in one request`,
    });
  }
  const seen = new Map<string, number>();
  input.forEach((assembly: unknown, index) => {
    out.push(...prefixed(assemblyViolations(assembly), String(index)));
    if (isRecord(assembly) && isUuid(assembly.uuid)) {
      const key = assembly.uuid.toLowerCase();
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else out.push({ field: `${index}.uuid`, rule: "unique", message: `is also the uuid of assemblies.${first}` });
    }
  });
  out.push(...duplicatePocketNumbers(input));
  return out;
}

/** A 400 at body.pocket_number when another assembly of the library has the number the assembly takes. */
async function refuseTakenPocket(db: Queryable, libraryId: string, assembly: KernelAssembly): Promise<void> {
  if (assembly.pocket_number === undefined) return;
  const other = await assemblyInPocket(db, libraryId, assembly.pocket_number, assembly.uuid);
  if (other) throw invalidBody([pocketNumberTaken(assembly, other, "the library's assembly")]);
}

/** A valid uuid standing in for the one a PATCH body need not send (the path gives it). */
const PROBE_UUID = "00000000-0000-4000-8000-000000000000";

/**
 * The violations of an assembly PATCH body on its own: the fields sent, checked as the
 * assembly's (components with every component and stacking rule). Nothing else of an assembly
 * depends on its components, so the merged result fails only where the body does.
 */
function assemblyPatchViolations(input: unknown): Violation[] {
  if (!isRecord(input)) return [{ field: "", rule: "type", message: "must be an object" }];
  const out: Violation[] = [];
  if (Object.keys(input).length === 0) out.push({ field: "", rule: "non_empty", message: "send at least one field" });
  const probe: Record<string, unknown> = { uuid: PROBE_UUID, name: "probe", components: [], ...input };
  for (const key of ["manufacturer", "description", "pocket_number"]) if (probe[key] === null) delete probe[key];
  const sentComponents = Object.hasOwn(input, "components");
  out.push(
    ...assemblyViolations(probe).filter(
      (v) => sentComponents || !(v.field === "components" || v.field.startsWith("components.")),
    ),
  );
  return out;
}

const AssemblyCreate = kernelChecked(AssemblySchema, assemblyViolations, normalizeAssembly, assemblyWithoutReadOnly);
const AssemblyList = kernelChecked(
  z.array(AssemblySchema).max(MAX_ASSEMBLIES_PER_REQUEST),
  assemblyListViolations,
  (list) => (list as unknown[]).map(normalizeAssembly),
  (list) => (Array.isArray(list) ? list.map(assemblyWithoutReadOnly) : list),
);

const AssemblyPatch = kernelChecked(
  z
    .strictObject({
      uuid: KernelAssembly.shape.uuid
        .optional()
        .describe("may be sent (a whole assembly read back), but must be the path's assembly_id"),
      name: KernelAssembly.shape.name.optional(),
      manufacturer: KernelAssembly.shape.manufacturer.unwrap().nullable().optional().describe("null removes it"),
      description: KernelAssembly.shape.description.unwrap().nullable().optional().describe("null removes it"),
      pocket_number: KernelAssembly.shape.pocket_number
        .unwrap()
        .nullable()
        .optional()
        .describe(`${KernelAssembly.shape.pocket_number.description}; null removes it`),
      components: AssemblySchema.shape.components.optional().describe("replaces the whole list when sent"),
      ...assumedAndWarningFields,
    })
    .meta({ id: "AssemblyPatch" }),
  assemblyPatchViolations,
  normalizeAssembly,
  assemblyWithoutReadOnly,
);

const LibraryName = z.string().trim().min(1).max(200);
const Description = z.string().max(2000);
const RemoteData = z.record(z.string(), z.unknown());

const LibraryCreate = z
  .strictObject({
    library: z.strictObject({
      name: LibraryName,
      assemblies: AssemblyList.optional().describe("the assemblies, in slot order; uuids unique. Default none"),
    }),
    description: Description.optional().describe("default empty"),
    is_remote: z.boolean().optional().describe("default false"),
    remote_data: RemoteData.optional().describe("default {}"),
    is_default: z
      .boolean()
      .optional()
      .describe("true makes this the user's default library (the previous default loses it). Default false"),
  })
  .meta({ id: "EquipmentLibraryCreate" });

const LibraryPatch = z
  .strictObject({
    library: z
      .strictObject({
        name: LibraryName.optional(),
        assemblies: AssemblyList.optional().describe("replaces the library's whole list of assemblies, in this order"),
      })
      .superRefine((library, ctx) => {
        if (Object.keys(library).length === 0) addRuleIssue(ctx, "", "non_empty", "send name or assemblies");
      })
      .optional(),
    description: Description.optional(),
    is_remote: z.boolean().optional(),
    remote_data: RemoteData.optional().describe("replaces the stored object"),
    is_default: z
      .boolean()
      .optional()
      .describe(
        "true makes this the user's default library (the previous default loses it); false only clears it, leaving the user without a default",
      ),
  })
  .superRefine((body, ctx) => {
    if (Object.keys(body).length === 0) addRuleIssue(ctx, "", "non_empty", "send at least one field");
  })
  .meta({ id: "EquipmentLibraryPatch" });

const libraryFields = {
  id: Id,
  description: z.string(),
  is_remote: z.boolean(),
  remote_data: RemoteData,
  is_default: z.boolean().describe("the user's default library, which new projects use; at most one is"),
  created_at: Timestamp,
  updated_at: Timestamp.describe("the library or one of its assemblies last changed"),
};

export const EquipmentLibrarySchema = z
  .object({
    id: libraryFields.id,
    library: z.object({ name: z.string(), assemblies: z.array(AssemblySchema).describe("in slot order") }),
    description: libraryFields.description,
    is_remote: libraryFields.is_remote,
    remote_data: libraryFields.remote_data,
    is_default: libraryFields.is_default,
    created_at: libraryFields.created_at,
    updated_at: libraryFields.updated_at,
  })
  .meta({ id: "EquipmentLibrary" });

const EquipmentLibrarySummary = z
  .object({
    id: libraryFields.id,
    library: z.object({ name: z.string(), assembly_count: z.number().int().describe("how many assemblies it holds") }),
    description: libraryFields.description,
    is_remote: libraryFields.is_remote,
    remote_data: libraryFields.remote_data,
    is_default: libraryFields.is_default,
    created_at: libraryFields.created_at,
    updated_at: libraryFields.updated_at,
  })
  .meta({ id: "EquipmentLibrarySummary" });

function rest(row: LibraryRow) {
  return {
    description: row.description,
    is_remote: row.is_remote,
    remote_data: row.remote_data,
    is_default: row.is_default,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toLibrary(row: LibraryRow, assemblies: readonly AssemblyRow[]): z.input<typeof EquipmentLibrarySchema> {
  return {
    id: row.id,
    library: { name: row.name, assemblies: assemblies.map((a) => assemblyAnswer(a.body)) },
    ...rest(row),
  };
}

function toSummary(row: LibrarySummaryRow): z.input<typeof EquipmentLibrarySummary> {
  return { id: row.id, library: { name: row.name, assembly_count: row.assembly_count }, ...rest(row) };
}

const LibraryParams = idParams("library_id");
const AssemblyParams = z.strictObject({ library_id: Id, assembly_id: Id });

const LIBRARY_PATH = `${API_BASE_PATH}/libraries/equipment`;
const TAG = "Equipment libraries";

export const equipmentLibraryRoutes = [
  defineRoute({
    method: "get",
    path: "/libraries/equipment",
    operationId: "listEquipmentLibraries",
    summary: "List the user's equipment libraries, newest first",
    description: "Summaries: each library's name and how many assemblies it holds (GET one for the assemblies).",
    tag: TAG,
    scopes: ["libraries:read"],
    query: PageQuery,
    responses: { 200: { description: "a page of library summaries", schema: pageOf(EquipmentLibrarySummary) } },
    async handler({ db, query }) {
      const rows = await listLibraries(db, query.limit + 1, query.cursor);
      return json(200, toPage(rows, query.limit, toSummary));
    },
  }),
  defineRoute({
    method: "get",
    path: "/libraries/equipment/{library_id}",
    operationId: "getEquipmentLibrary",
    summary: "Read an equipment library with its assemblies",
    tag: TAG,
    scopes: ["libraries:read"],
    params: LibraryParams,
    query: NoQuery,
    responses: { 200: { description: "the library, its assemblies in slot order", schema: EquipmentLibrarySchema } },
    errors: [404],
    async handler({ db, params }) {
      const row = await getLibrary(db, params.library_id);
      if (!row) throw notFound("equipment library", params.library_id);
      return json(200, toLibrary(row, await listAssemblies(db, row.id)));
    },
  }),
  defineRoute({
    method: "post",
    path: "/libraries/equipment",
    operationId: "createEquipmentLibrary",
    summary: "Create an equipment library",
    description:
      "Each assembly is validated (every component's rules and the stacking rules, all violations at once, " +
      "as body.library.assemblies.<n>.<path>); assembly uuids and pocket numbers must be unique within the library. is_default=true " +
      "moves the user's default here. The standalone holder and tool libraries are not changed.",
    tag: TAG,
    scopes: ["equipment:write"],
    query: NoQuery,
    body: LibraryCreate,
    bodyLimit: "library",
    idempotent: true,
    responses: { 201: { description: "the new library with its server-assigned id", schema: EquipmentLibrarySchema } },
    errors: [409, 413, 415, 422],
    async handler({ db, body }) {
      await lockEquipment(db);
      if (body.is_default) await clearDefaultLibrary(db, null);
      const row = await insertLibrary(db, {
        name: body.library.name,
        description: body.description ?? "",
        is_remote: body.is_remote ?? false,
        remote_data: body.remote_data ?? {},
        is_default: body.is_default ?? false,
      });
      const assemblies = body.library.assemblies ? await replaceAssemblies(db, row.id, body.library.assemblies) : [];
      return json(201, toLibrary(row, assemblies), { Location: `${LIBRARY_PATH}/${row.id}` });
    },
  }),
  defineRoute({
    method: "patch",
    path: "/libraries/equipment/{library_id}",
    operationId: "updateEquipmentLibrary",
    summary: "Change some fields of an equipment library; fields not sent stay as they are",
    description:
      "library.assemblies, when sent, replaces the whole list (validated as on create). is_default=true moves the " +
      "user's default here; false only clears it. The standalone holder and tool libraries are not changed.",
    tag: TAG,
    scopes: ["equipment:write"],
    params: LibraryParams,
    query: NoQuery,
    body: LibraryPatch,
    bodyLimit: "library",
    responses: { 200: { description: "the changed library", schema: EquipmentLibrarySchema } },
    errors: [404, 409, 413, 415],
    async handler({ db, params, body }) {
      await lockEquipment(db);
      const existing = await getLibrary(db, params.library_id, { lock: true });
      if (!existing) throw notFound("equipment library", params.library_id);
      if (body.is_default === true) await clearDefaultLibrary(db, existing.id);
      const row = await updateLibrary(db, existing.id, {
        name: body.library?.name,
        description: body.description,
        is_remote: body.is_remote,
        remote_data: body.remote_data,
        is_default: body.is_default,
      });
      const assemblies = body.library?.assemblies
        ? await replaceAssemblies(db, existing.id, body.library.assemblies)
        : await listAssemblies(db, existing.id);
      return json(200, toLibrary(row!, assemblies));
    },
  }),
  defineRoute({
    method: "delete",
    path: "/libraries/equipment/{library_id}",
    operationId: "deleteEquipmentLibrary",
    summary: "Delete an equipment library and its assemblies",
    description:
      "Projects that used it keep no library (library_id null). Deleting the default library leaves the user " +
      "without one until another is made default. The standalone holder and tool libraries are not changed.",
    tag: TAG,
    scopes: ["equipment:write"],
    params: LibraryParams,
    query: NoQuery,
    responses: { 204: { description: "deleted" } },
    errors: [404],
    async handler({ db, params }) {
      await lockEquipment(db);
      if (!(await deleteLibrary(db, params.library_id))) throw notFound("equipment library", params.library_id);
      return noContent();
    },
  }),
  defineRoute({
    method: "post",
    path: "/libraries/equipment/{library_id}/assemblies",
    operationId: "createAssembly",
    summary: "Add an assembly to an equipment library (as its last slot)",
    description:
      "The body is an assembly with a client-supplied uuid, validated with every component and stacking rule; its " +
      "pocket_number, when given, must not be another assembly's of the library (400 unique at body.pocket_number). " +
      "With add_to_library=true each component is also saved in the user's holder or tool library by its uuid " +
      "(inserted, or the existing entry of that uuid made equal to it); assemblies elsewhere holding that uuid are not changed. " +
      "Components with only the spec's fields are accepted: they are stored as given, and the answer lists under assumed " +
      "what the planner takes for the rest (a holder's profile for the tool's shank, the stick-out...).",
    tag: TAG,
    scopes: ["equipment:write"],
    params: LibraryParams,
    query: z.strictObject({
      add_to_library: BooleanQuery.optional().describe(
        "true: also save each component as a standalone holder or tool (upsert by uuid). Default false",
      ),
    }),
    body: AssemblyCreate,
    responses: { 201: { description: "the stored assembly", schema: AssemblySchema } },
    errors: [404, 409, 413, 415],
    errorCodes: { 409: "assembly_exists: the library holds an assembly of this uuid" },
    async handler({ db, params, query, body }) {
      await lockEquipment(db);
      const library = await getLibrary(db, params.library_id, { lock: true });
      if (!library) throw notFound("equipment library", params.library_id);
      await refuseTakenPocket(db, library.id, body);
      const row = await insertAssembly(db, library.id, body);
      if (!row) {
        throw new HttpError(409, "assembly_exists", `the library holds an assembly ${body.uuid} already`, {
          library_id: library.id,
          assembly_id: body.uuid,
        });
      }
      if (query.add_to_library ?? false) await saveComponents(db, row.body.components);
      return json(201, assemblyAnswer(row.body));
    },
  }),
  defineRoute({
    method: "patch",
    path: "/libraries/equipment/{library_id}/assemblies/{assembly_id}",
    operationId: "updateAssembly",
    summary: "Change an assembly; fields not sent stay as they are",
    description:
      "name, manufacturer, description, pocket_number (null removes the last three) and components (replaced whole " +
      "when sent); the result is validated as a whole assembly, its pocket number unique within the library. With sync_library=true every component of the result is " +
      "saved in the user's holder or tool library (upsert by uuid), and the components the edit removed are " +
      "deleted from those libraries unless an assembly of the user (in any library) still holds them.",
    tag: TAG,
    scopes: ["equipment:write"],
    params: AssemblyParams,
    query: z.strictObject({
      sync_library: BooleanQuery.optional().describe(
        "true: propagate the components to the user's holder and tool libraries and delete orphaned ones. Default false",
      ),
    }),
    body: AssemblyPatch,
    responses: { 200: { description: "the changed assembly", schema: AssemblySchema } },
    errors: [404, 413, 415],
    async handler({ db, params, query, body }) {
      await lockEquipment(db);
      const row = await getAssembly(db, params.library_id, params.assembly_id, { forUpdate: true });
      if (!row) throw notFound("assembly", params.assembly_id);
      if (body.uuid !== undefined && body.uuid !== row.id) {
        throw invalidParameter([
          { field: "body.uuid", code: "immutable", message: `must be the path's assembly_id ${row.id}` },
        ]);
      }
      const checked = validateAssembly(mergePatch(row.body, body));
      if (!checked.ok) throw invalidBody(checked.violations);
      await refuseTakenPocket(db, row.library_id, { ...checked.assembly, uuid: row.id });
      const updated = (await updateAssembly(db, row.library_id, { ...checked.assembly, uuid: row.id }))!;
      if (query.sync_library ?? false) {
        await saveComponents(db, updated.body.components);
        await deleteOrphans(db, removedComponents(row.body.components, updated.body.components));
      }
      return json(200, assemblyAnswer(updated.body));
    },
  }),
  defineRoute({
    method: "delete",
    path: "/libraries/equipment/{library_id}/assemblies/{assembly_id}",
    operationId: "deleteAssembly",
    summary: "Remove an assembly from an equipment library",
    description:
      "With sync_library=true (the default for DELETE) its components are deleted from the user's holder and " +
      "tool libraries unless another assembly of the user (in any library) still holds them.",
    tag: TAG,
    scopes: ["equipment:write"],
    params: AssemblyParams,
    query: z.strictObject({
      sync_library: BooleanQuery.optional().describe(
        "true: delete the components no other assembly holds from the user's holder and tool libraries. Default true",
      ),
    }),
    responses: { 204: { description: "deleted" } },
    errors: [404],
    async handler({ db, params, query }) {
      await lockEquipment(db);
      const row = await deleteAssembly(db, params.library_id, params.assembly_id);
      if (!row) throw notFound("assembly", params.assembly_id);
      if (query.sync_library ?? true) await deleteOrphans(db, row.body.components);
      return noContent();
    },
  }),
];
