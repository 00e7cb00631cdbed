/**
 * Projects: create, list, read, change, delete (soft). A create or change answers the project
 * with `warnings`: a material_id sent by another of the material's names (stored as its id), a
 * machine the current stock does not fit in some setups (project-inputs.ts).
 */
import { z } from "zod";
import { currentJob } from "../../db/queries/jobs.ts";
import { machineTravel } from "../../db/queries/machines-materials.ts";
import type { Queryable } from "../../db/request-transaction.ts";
import {
  getProject,
  insertProject,
  listProjects,
  softDeleteProject,
  updateProject,
  type ProjectRow,
} from "../../db/queries/projects.ts";
import { notFound } from "../../http/errors/index.ts";
import { PageQuery, pageOf, toPage } from "../pagination.ts";
import { json, noContent } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { Id, idParams, NoQuery, Timestamp } from "../schemas/common.ts";
import { requestWarnings, resolveMaterial, stockTravelWarnings, type RequestWarning } from "./shared/project-inputs.ts";

const text = (max: number) => z.string().max(max);
const MachineRef = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "a product_id from GET /libraries/machines");
const MaterialRef = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .describe(
    "a material id from GET /libraries/materials, or another of its names: a designation (EN AW-6061, 1.4301, AISI 304, C45), " +
      "a common alias (aluminum-6061, SS304, Ti64), matched without case, spaces or punctuation. Stored as the id, with a " +
      "material_alias warning; a name of no material is 400 invalid_parameter (unknown_reference) with details.nearest",
  );

const contactFields = {
  contact_name: text(200).nullable(),
  contact_email: z.email().max(320).nullable(),
  contact_phone: text(50).nullable(),
  contact_company: text(200).nullable(),
  contact_address: text(1000).nullable(),
  reference: text(200).nullable().describe("the customer's order or RFQ reference"),
  notes: text(10_000).nullable(),
};

const Project = z
  .object({
    id: Id,
    name: z.string(),
    customer: z.string(),
    product_id: z.string().describe("the machine"),
    material_id: z.string().nullable(),
    library_id: Id.nullable().describe("the equipment library"),
    current_job_id: Id.nullable().describe("the latest saved CAM job; null before the first save"),
    ...contactFields,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "Project" });

const ProjectCreate = z
  .strictObject({
    name: text(200).trim().min(1),
    customer: text(200).default("").describe('default: "" (none)'),
    product_id: MachineRef.optional().describe("default: the user's first assigned machine"),
    material_id: MaterialRef.nullable().optional(),
    library_id: Id.nullable().optional().describe("default: the user's default equipment library"),
    ...Object.fromEntries(Object.entries(contactFields).map(([k, v]) => [k, v.optional()])),
  })
  .meta({ id: "ProjectCreate" });

const ProjectPatch = z
  .strictObject({
    name: text(200).trim().min(1).optional(),
    customer: text(200).optional(),
    product_id: MachineRef.optional(),
    material_id: MaterialRef.nullable().optional(),
    library_id: Id.nullable().optional(),
    ...Object.fromEntries(Object.entries(contactFields).map(([k, v]) => [k, v.optional()])),
  })
  .refine((body) => Object.keys(body).length > 0, { message: "send at least one field" })
  .meta({ id: "ProjectPatch" });

const ProjectSaved = Project.extend({
  warnings: requestWarnings.describe(
    "what the request's values did besides being stored: material_alias, stock_exceeds_travel; empty when nothing",
  ),
}).meta({ id: "ProjectSaved" });

function toProject(row: ProjectRow): z.input<typeof Project> {
  const { seq: _seq, created_at, updated_at, ...rest } = row;
  return { ...rest, created_at: created_at.toISOString(), updated_at: updated_at.toISOString() };
}

const ProjectParams = idParams("project_id");

export const projectRoutes = [
  defineRoute({
    method: "post",
    path: "/projects",
    operationId: "createProject",
    summary: "Create a project (and its quote job)",
    tag: "Projects",
    scopes: ["projects:write"],
    query: NoQuery,
    body: ProjectCreate,
    idempotent: true,
    responses: { 201: { description: "the new project", schema: ProjectSaved } },
    errors: [409, 413, 415, 422],
    async handler({ db, body }) {
      const material = typeof body.material_id === "string" ? await resolveMaterial(db, body.material_id) : null;
      const row = await insertProject(db, material ? { ...body, material_id: material.id } : body);
      const saved: z.input<typeof ProjectSaved> = { ...toProject(row), warnings: material?.warnings ?? [] };
      return json(201, saved, { Location: `/backend-api/api/public/v1/projects/${row.id}` });
    },
  }),
  defineRoute({
    method: "get",
    path: "/projects",
    operationId: "listProjects",
    summary: "List projects, newest first",
    tag: "Projects",
    scopes: ["projects:read"],
    query: PageQuery,
    responses: { 200: { description: "a page of projects", schema: pageOf(Project) } },
    async handler({ db, query }) {
      const rows = await listProjects(db, query.limit + 1, query.cursor);
      return json(200, toPage(rows, query.limit, toProject));
    },
  }),
  defineRoute({
    method: "get",
    path: "/projects/{project_id}",
    operationId: "getProject",
    summary: "Read a project",
    tag: "Projects",
    scopes: ["projects:read"],
    params: ProjectParams,
    query: NoQuery,
    responses: { 200: { description: "the project", schema: Project } },
    errors: [404],
    async handler({ db, params }) {
      const row = await getProject(db, params.project_id);
      if (!row) throw notFound("project", params.project_id);
      return json(200, toProject(row));
    },
  }),
  defineRoute({
    method: "patch",
    path: "/projects/{project_id}",
    operationId: "updateProject",
    summary: "Change some fields of a project; fields not sent stay as they are",
    tag: "Projects",
    scopes: ["projects:write"],
    params: ProjectParams,
    query: NoQuery,
    body: ProjectPatch,
    responses: { 200: { description: "the changed project", schema: ProjectSaved } },
    errors: [404, 413, 415],
    async handler({ db, params, body }) {
      const material = typeof body.material_id === "string" ? await resolveMaterial(db, body.material_id) : null;
      const row = await updateProject(db, params.project_id, material ? { ...body, material_id: material.id } : body);
      if (!row) throw notFound("project", params.project_id);
      const warnings: RequestWarning[] = [...(material?.warnings ?? [])];
      if (body.product_id !== undefined) warnings.push(...(await machineWarnings(db, row)));
      const saved: z.input<typeof ProjectSaved> = { ...toProject(row), warnings };
      return json(200, saved);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/projects/{project_id}",
    operationId: "deleteProject",
    summary: "Delete a project: gone from every read at once, its data purged in the background",
    tag: "Projects",
    scopes: ["projects:write"],
    params: ProjectParams,
    query: NoQuery,
    responses: { 204: { description: "deleted" } },
    errors: [404],
    async handler({ db, params }) {
      if (!(await softDeleteProject(db, params.project_id))) throw notFound("project", params.project_id);
      return noContent();
    },
  }),
];

/** The stock_exceeds_travel warnings of the project's machine against its current stock (none without stock). */
async function machineWarnings(db: Queryable, project: ProjectRow): Promise<RequestWarning[]> {
  const current = await currentJob(db, project.id);
  const job = current?.job;
  const machine = await machineTravel(db, project.product_id);
  if (!job?.stock || !machine) return [];
  return stockTravelWarnings(machine, job.stock, job.plan?.summary ?? null);
}
