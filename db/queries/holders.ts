/**
 * The user's standalone holder library (adaptive items), under RLS. A holder is stored whole
 * in `body` (the API's shape, kernel/tools/holder.ts, with its uuid); `id` is that uuid and
 * name, stacking_group and manufacturer are copies for lists. The same uuid inside an
 * assembly is the same item (equipment-sync.ts keeps the copies in step).
 */
import type { Holder } from "../../kernel/tools/holder.ts";
import type { Queryable } from "../request-transaction.ts";

/** A holder as stored: its uuid is always set. */
export type StoredHolder = Holder & { uuid: string };

export interface HolderRow {
  id: string;
  seq: number;
  name: string;
  stacking_group: string;
  manufacturer: string | null;
  body: StoredHolder;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = "id, seq, name, stacking_group, manufacturer, body, created_at, updated_at";

function values(holder: StoredHolder): unknown[] {
  return [holder.uuid, holder.name, holder.stacking_group, holder.manufacturer ?? null, JSON.stringify(holder)];
}

/** Newest first. */
export async function listHolders(db: Queryable, limit: number, beforeSeq?: number): Promise<HolderRow[]> {
  const { rows } = await db.query<HolderRow>({
    name: "list_holders",
    text: `select ${COLUMNS} from app_public.holders where ($2::bigint is null or seq < $2) order by seq desc limit $1`,
    values: [limit, beforeSeq ?? null],
  });
  return rows;
}

export async function getHolder(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<HolderRow | null> {
  const { rows } = await db.query<HolderRow>(
    `select ${COLUMNS} from app_public.holders where id = $1${options.forUpdate ? " for update" : ""}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Null when the user has a holder of that uuid already. */
export async function insertHolder(db: Queryable, holder: StoredHolder): Promise<HolderRow | null> {
  const { rows } = await db.query<HolderRow>(
    `insert into app_public.holders (id, name, stacking_group, manufacturer, body) values ($1, $2, $3, $4, $5::jsonb)
     on conflict (user_id, id) do nothing returning ${COLUMNS}`,
    values(holder),
  );
  return rows[0] ?? null;
}

/** Null when there is no holder of that uuid. */
export async function updateHolder(db: Queryable, holder: StoredHolder): Promise<HolderRow | null> {
  const { rows } = await db.query<HolderRow>(
    `update app_public.holders set name = $2, stacking_group = $3, manufacturer = $4, body = $5::jsonb, updated_at = now()
      where id = $1 returning ${COLUMNS}`,
    values(holder),
  );
  return rows[0] ?? null;
}

/**
 * Inserts the holders, or makes the existing entries of their uuids equal to them (an entry
 * already equal is left alone, updated_at included).
 */
export async function upsertHolders(db: Queryable, holders: readonly StoredHolder[]): Promise<void> {
  if (holders.length === 0) return;
  await db.query(
    `insert into app_public.holders (id, name, stacking_group, manufacturer, body)
     select (h.value ->> 'uuid')::uuid, h.value ->> 'name', h.value ->> 'stacking_group', h.value ->> 'manufacturer', h.value
       from jsonb_array_elements($1::jsonb) as h(value)
     on conflict (user_id, id) do update
       set name = excluded.name, stacking_group = excluded.stacking_group, manufacturer = excluded.manufacturer,
           body = excluded.body, updated_at = now()
       where app_public.holders.body is distinct from excluded.body`,
    [JSON.stringify(holders)],
  );
}

export async function deleteHolder(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query("delete from app_public.holders where id = $1", [id]);
  return rowCount === 1;
}
