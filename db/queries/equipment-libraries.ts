/**
 * Equipment libraries (the rows themselves; their assemblies are in assemblies.ts), always
 * within a request transaction: RLS limits every statement to the caller's libraries.
 *
 * At most one library of a user is the default (a unique partial index). Moving it is two
 * statements, clearing the old default before setting the new one (a unique index is checked
 * row by row, so one statement swapping both could trip over itself), under the user's
 * equipment lock (equipment-sync.ts) so that two moves do not race.
 */
import type { Queryable } from "../request-transaction.ts";

export interface LibraryRow {
  id: string;
  seq: number;
  name: string;
  description: string;
  is_remote: boolean;
  remote_data: Record<string, unknown>;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface LibrarySummaryRow extends LibraryRow {
  assembly_count: number;
}

/** the columns a client may set */
export interface LibraryFields {
  name: string;
  description: string;
  is_remote: boolean;
  remote_data: Record<string, unknown>;
  is_default: boolean;
}

const COLUMNS = `l.id, l.seq, l.name, l.description, l.is_remote, l.remote_data, l.is_default, l.created_at, l.updated_at`;

/** Newest first, with how many assemblies each holds. */
export async function listLibraries(db: Queryable, limit: number, beforeSeq?: number): Promise<LibrarySummaryRow[]> {
  const { rows } = await db.query<LibrarySummaryRow>({
    name: "list_equipment_libraries",
    text: `select ${COLUMNS},
              (select count(*) from app_public.library_assemblies a where a.library_id = l.id)::int as assembly_count
             from app_public.equipment_libraries l
            where ($2::bigint is null or l.seq < $2)
            order by l.seq desc limit $1`,
    values: [limit, beforeSeq ?? null],
  });
  return rows;
}

/**
 * lock: takes the row (FOR NO KEY UPDATE) so that changes to the library's assemblies queue
 * behind each other (the position of an appended assembly is read from its siblings).
 */
export async function getLibrary(
  db: Queryable,
  id: string,
  options: { lock?: boolean } = {},
): Promise<LibraryRow | null> {
  const { rows } = await db.query<LibraryRow>(
    `select ${COLUMNS} from app_public.equipment_libraries l where l.id = $1${options.lock ? " for no key update" : ""}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function insertLibrary(db: Queryable, fields: LibraryFields): Promise<LibraryRow> {
  const { rows } = await db.query<LibraryRow>(
    `insert into app_public.equipment_libraries as l (name, description, is_remote, remote_data, is_default)
     values ($1, $2, $3, $4::jsonb, $5)
     returning ${COLUMNS}`,
    [fields.name, fields.description, fields.is_remote, JSON.stringify(fields.remote_data), fields.is_default],
  );
  return rows[0]!;
}

const UPDATABLE = ["name", "description", "is_remote", "remote_data", "is_default"] as const;

/** Only the given fields change (updated_at always). Null when the library is not the caller's. */
export async function updateLibrary(
  db: Queryable,
  id: string,
  fields: Partial<LibraryFields>,
): Promise<LibraryRow | null> {
  const names = UPDATABLE.filter((f) => fields[f] !== undefined);
  const assignments = names.map((name, i) =>
    name === "remote_data" ? `${name} = $${i + 2}::jsonb` : `${name} = $${i + 2}`,
  );
  const { rows } = await db.query<LibraryRow>(
    `update app_public.equipment_libraries as l set ${[...assignments, "updated_at = now()"].join(", ")}
      where l.id = $1 returning ${COLUMNS}`,
    [id, ...names.map((n) => (n === "remote_data" ? JSON.stringify(fields[n]) : fields[n]))],
  );
  return rows[0] ?? null;
}

/**
 * Takes is_default from every library of the caller but keepId (all when null): the first
 * half of moving the default. Returns the ids that lost it.
 */
export async function clearDefaultLibrary(db: Queryable, keepId: string | null): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `update app_public.equipment_libraries set is_default = false, updated_at = now()
      where is_default and id is distinct from $1 returning id`,
    [keepId],
  );
  return rows.map((r) => r.id);
}

/** Its assemblies go with it (cascade); projects that used it keep library_id null (the FK's set null). */
export async function deleteLibrary(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query("delete from app_public.equipment_libraries where id = $1", [id]);
  return rowCount === 1;
}

/** Marks libraries changed: their assemblies were. */
export async function touchLibraries(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query("update app_public.equipment_libraries set updated_at = now() where id = any($1::uuid[])", [
    [...new Set(ids)],
  ]);
}
