/**
 * Projects, always within a request transaction: RLS limits every statement to the caller's
 * live projects, so none of these repeats a user filter.
 */
import type { Queryable } from "../request-transaction.ts";

export interface ProjectRow {
  id: string;
  seq: number;
  name: string;
  customer: string;
  product_id: string;
  material_id: string | null;
  library_id: string | null;
  current_job_id: string | null;
  contact_name: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  contact_company: string | null;
  contact_address: string | null;
  reference: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}

/** the columns a client may set */
export const PROJECT_FIELDS = [
  "name",
  "customer",
  "product_id",
  "material_id",
  "library_id",
  "contact_name",
  "contact_email",
  "contact_phone",
  "contact_company",
  "contact_address",
  "reference",
  "notes",
] as const;

export type ProjectFields = Partial<Record<(typeof PROJECT_FIELDS)[number], string | null>>;

const COLUMNS = `id, seq, name, customer, product_id, material_id, library_id, current_job_id,
  contact_name, contact_email, contact_phone, contact_company, contact_address, reference, notes,
  created_at, updated_at`;

/**
 * Inserts a project. An omitted product_id is the user's first machine, an omitted library_id
 * the user's default library (an explicit null means none). The quote job is created by a
 * trigger in the same transaction.
 */
export async function insertProject(db: Queryable, fields: ProjectFields): Promise<ProjectRow> {
  const { rows } = await db.query<ProjectRow>(
    `insert into app_public.projects (${PROJECT_FIELDS.join(", ")})
     values ($1, $2,
       coalesce($3, (select um.product_id from app_public.user_machines um
                       where um.user_id = app_public.current_user_id() order by um.position limit 1)),
       $4,
       case when $13::boolean then (select l.id from app_public.equipment_libraries l where l.is_default)
            else $5::uuid end,
       $6, $7, $8, $9, $10, $11, $12)
     returning ${COLUMNS}`,
    [...PROJECT_FIELDS.map((f) => fields[f] ?? null), fields.library_id === undefined],
  );
  return rows[0]!;
}

export async function getProject(db: Queryable, id: string): Promise<ProjectRow | null> {
  const { rows } = await db.query<ProjectRow>({
    name: "get_project",
    text: `select ${COLUMNS} from app_public.projects where id = $1`,
    values: [id],
  });
  return rows[0] ?? null;
}

/** For operators (owner connection, which RLS does not bind): whose live project this is; null for none. */
export async function projectOwner(db: Queryable, id: string): Promise<{ userId: string } | null> {
  const { rows } = await db.query<{ user_id: string }>(
    "select user_id from app_public.projects where id = $1 and deleted_at is null",
    [id],
  );
  return rows[0] ? { userId: rows[0].user_id } : null;
}

export async function listProjects(db: Queryable, limit: number, beforeSeq?: number): Promise<ProjectRow[]> {
  const { rows } = await db.query<ProjectRow>({
    name: "list_projects",
    text: `select ${COLUMNS} from app_public.projects
            where ($2::bigint is null or seq < $2) order by seq desc limit $1`,
    values: [limit, beforeSeq ?? null],
  });
  return rows;
}

/** Only the given fields change. Null when the project is not the caller's or is gone. */
export async function updateProject(db: Queryable, id: string, fields: ProjectFields): Promise<ProjectRow | null> {
  const names = PROJECT_FIELDS.filter((f) => fields[f] !== undefined);
  const assignments = names.map((name, i) => `${name} = $${i + 2}`);
  const { rows } = await db.query<ProjectRow>(
    `update app_public.projects set ${[...assignments, "updated_at = now()"].join(", ")}
      where id = $1 returning ${COLUMNS}`,
    [id, ...names.map((n) => fields[n])],
  );
  return rows[0] ?? null;
}

/** Soft delete: hidden from every read at once; a trigger queues the purge. */
export async function softDeleteProject(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query<{ deleted: boolean }>("select app_public.soft_delete_project($1) as deleted", [id]);
  return rows[0]?.deleted === true;
}

export interface PurgedProject {
  projects_deleted: number;
  blobs_deleted: number;
}

/** A soft-deleted project's rows and the blobs no other project of its user uses, in one transaction (app_private.purge_project). */
export async function purgeDeletedProject(db: Queryable, projectId: string): Promise<PurgedProject | null> {
  const { rows } = await db.query<PurgedProject>("select * from app_private.purge_project($1)", [projectId]);
  return rows[0] ?? null;
}
