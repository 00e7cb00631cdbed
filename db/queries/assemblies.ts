/**
 * The assemblies of an equipment library, under RLS. An assembly is stored whole in `body`
 * (the API's shape, kernel/tools/assembly.ts); `id` is its uuid and `name` a copy of its name.
 * `position` orders a library's assemblies (its tool slots): a new one goes last, a replaced
 * list is numbered from 0 in the order sent.
 *
 * Every change here marks the library changed (updated_at) in the same statement. Callers
 * hold the library's row lock (getLibrary with lock) before appending, so that two appends do
 * not take the same position.
 */
import type { Assembly } from "../../kernel/tools/assembly.ts";
import type { Queryable } from "../request-transaction.ts";

export interface AssemblyRow {
  library_id: string;
  id: string;
  position: number;
  name: string;
  body: Assembly;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "library_id, id, position, name, body, created_at, updated_at";

/** In position order. */
export async function listAssemblies(db: Queryable, libraryId: string): Promise<AssemblyRow[]> {
  const { rows } = await db.query<AssemblyRow>({
    name: "list_library_assemblies",
    text: `select ${COLUMNS} from app_public.library_assemblies where library_id = $1 order by position, created_at, id`,
    values: [libraryId],
  });
  return rows;
}

export async function getAssembly(
  db: Queryable,
  libraryId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AssemblyRow | null> {
  const { rows } = await db.query<AssemblyRow>(
    `select ${COLUMNS} from app_public.library_assemblies where library_id = $1 and id = $2${options.forUpdate ? " for update" : ""}`,
    [libraryId, id],
  );
  return rows[0] ?? null;
}

/**
 * The library's assembly, other than `exceptId`, whose pocket number is `pocketNumber`: the
 * number a new or changed assembly would share (callers hold the equipment lock).
 */
export async function assemblyInPocket(
  db: Queryable,
  libraryId: string,
  pocketNumber: number,
  exceptId: string,
): Promise<Pick<Assembly, "uuid" | "name" | "pocket_number"> | null> {
  const { rows } = await db.query<{ uuid: string; name: string }>(
    `select id as uuid, name from app_public.library_assemblies
      where library_id = $1 and id <> $3 and body -> 'pocket_number' = to_jsonb($2::int)
      order by position limit 1`,
    [libraryId, pocketNumber, exceptId],
  );
  const row = rows[0];
  return row ? { ...row, pocket_number: pocketNumber } : null;
}

/** Appends the assembly to the library. Null when the library holds an assembly of that uuid already. */
export async function insertAssembly(
  db: Queryable,
  libraryId: string,
  assembly: Assembly,
): Promise<AssemblyRow | null> {
  const { rows } = await db.query<AssemblyRow>(
    `with added as (
       insert into app_public.library_assemblies (library_id, id, position, name, body)
       values ($1, $2, (select coalesce(max(position) + 1, 0) from app_public.library_assemblies where library_id = $1), $3, $4::jsonb)
       on conflict (library_id, id) do nothing
       returning ${COLUMNS}
     ), touched as (
       update app_public.equipment_libraries set updated_at = now() where id = $1 and exists (select 1 from added)
     )
     select * from added`,
    [libraryId, assembly.uuid, assembly.name, JSON.stringify(assembly)],
  );
  return rows[0] ?? null;
}

/** The library's assemblies become exactly these, in this order (uuids unique: the caller checked). */
export async function replaceAssemblies(
  db: Queryable,
  libraryId: string,
  assemblies: readonly Assembly[],
): Promise<AssemblyRow[]> {
  // two statements: the new rows may reuse the old rows' keys
  await db.query("delete from app_public.library_assemblies where library_id = $1", [libraryId]);
  const { rows } = await db.query<AssemblyRow>(
    `with added as (
       insert into app_public.library_assemblies (library_id, id, position, name, body)
       select $1, (e.value ->> 'uuid')::uuid, (e.ordinality - 1)::int, e.value ->> 'name', e.value
         from jsonb_array_elements($2::jsonb) with ordinality as e(value, ordinality)
       returning ${COLUMNS}
     ), touched as (
       update app_public.equipment_libraries set updated_at = now() where id = $1
     )
     select * from added order by position`,
    [libraryId, JSON.stringify(assemblies)],
  );
  return rows;
}

/** The assembly's new content (same uuid), keeping its position. Null when there is no such assembly. */
export async function updateAssembly(
  db: Queryable,
  libraryId: string,
  assembly: Assembly,
): Promise<AssemblyRow | null> {
  const { rows } = await db.query<AssemblyRow>(
    `with changed as (
       update app_public.library_assemblies set name = $3, body = $4::jsonb, updated_at = now()
        where library_id = $1 and id = $2
       returning ${COLUMNS}
     ), touched as (
       update app_public.equipment_libraries set updated_at = now() where id = $1 and exists (select 1 from changed)
     )
     select * from changed`,
    [libraryId, assembly.uuid, assembly.name, JSON.stringify(assembly)],
  );
  return rows[0] ?? null;
}

/** The deleted row (its components decide which standalone items became orphans), or null. */
export async function deleteAssembly(db: Queryable, libraryId: string, id: string): Promise<AssemblyRow | null> {
  const { rows } = await db.query<AssemblyRow>(
    `with gone as (
       delete from app_public.library_assemblies where library_id = $1 and id = $2 returning ${COLUMNS}
     ), touched as (
       update app_public.equipment_libraries set updated_at = now() where id = $1 and exists (select 1 from gone)
     )
     select * from gone`,
    [libraryId, id],
  );
  return rows[0] ?? null;
}
