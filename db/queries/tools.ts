/**
 * The user's standalone tool library (parametric cutting tools), under RLS. A tool is stored
 * whole in `body` (the API's shape, kernel/tools/tool.ts, with its uuid); `id` is that uuid,
 * and name, tool_type, diameter_mm (tool_parameters.CuttingDiameter, which every tool type
 * requires) and manufacturer are copies for lists and filters (indexed by type and diameter).
 * The same uuid inside an assembly is the same item (equipment-sync.ts keeps the copies in step).
 */
import type { Tool } from "../../kernel/tools/tool.ts";
import type { Queryable } from "../request-transaction.ts";

/** A tool as stored: its uuid is always set. */
export type StoredTool = Tool & { uuid: string };

export interface ToolRow {
  id: string;
  seq: number;
  name: string;
  tool_type: string;
  diameter_mm: number;
  manufacturer: string | null;
  body: StoredTool;
  created_at: Date;
  updated_at: Date;
}

export interface ToolFilter {
  toolType?: string;
  /** inclusive, mm */
  diameterMin?: number;
  diameterMax?: number;
}

const COLUMNS = "id, seq, name, tool_type, diameter_mm, manufacturer, body, created_at, updated_at";

function values(tool: StoredTool): unknown[] {
  const diameter = tool.tool_parameters.CuttingDiameter;
  if (diameter === undefined) throw new Error(`tool ${tool.uuid} has no CuttingDiameter: it was not validated`);
  return [tool.uuid, tool.name, tool.tool_type, diameter, tool.manufacturer ?? null, JSON.stringify(tool)];
}

/** Newest first, filtered by type and cutting diameter. */
export async function listTools(
  db: Queryable,
  limit: number,
  filter: ToolFilter,
  beforeSeq?: number,
): Promise<ToolRow[]> {
  const { rows } = await db.query<ToolRow>({
    name: "list_tools",
    text: `select ${COLUMNS} from app_public.tools
            where ($2::bigint is null or seq < $2)
              and ($3::text is null or tool_type = $3)
              and ($4::float8 is null or diameter_mm >= $4)
              and ($5::float8 is null or diameter_mm <= $5)
            order by seq desc limit $1`,
    values: [limit, beforeSeq ?? null, filter.toolType ?? null, filter.diameterMin ?? null, filter.diameterMax ?? null],
  });
  return rows;
}

export async function getTool(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<ToolRow | null> {
  const { rows } = await db.query<ToolRow>(
    `select ${COLUMNS} from app_public.tools where id = $1${options.forUpdate ? " for update" : ""}`,
    [id],
  );
  return rows[0] ?? null;
}

/** Null when the user has a tool of that uuid already. */
export async function insertTool(db: Queryable, tool: StoredTool): Promise<ToolRow | null> {
  const { rows } = await db.query<ToolRow>(
    `insert into app_public.tools (id, name, tool_type, diameter_mm, manufacturer, body) values ($1, $2, $3, $4, $5, $6::jsonb)
     on conflict (user_id, id) do nothing returning ${COLUMNS}`,
    values(tool),
  );
  return rows[0] ?? null;
}

/** Null when there is no tool of that uuid. */
export async function updateTool(db: Queryable, tool: StoredTool): Promise<ToolRow | null> {
  const { rows } = await db.query<ToolRow>(
    `update app_public.tools set name = $2, tool_type = $3, diameter_mm = $4, manufacturer = $5, body = $6::jsonb, updated_at = now()
      where id = $1 returning ${COLUMNS}`,
    values(tool),
  );
  return rows[0] ?? null;
}

/**
 * Inserts the tools, or makes the existing entries of their uuids equal to them (an entry
 * already equal is left alone, updated_at included).
 */
export async function upsertTools(db: Queryable, tools: readonly StoredTool[]): Promise<void> {
  if (tools.length === 0) return;
  await db.query(
    `insert into app_public.tools (id, name, tool_type, diameter_mm, manufacturer, body)
     select (t.value ->> 'uuid')::uuid, t.value ->> 'name', t.value ->> 'tool_type',
            (t.value #>> '{tool_parameters,CuttingDiameter}')::float8, t.value ->> 'manufacturer', t.value
       from jsonb_array_elements($1::jsonb) as t(value)
     on conflict (user_id, id) do update
       set name = excluded.name, tool_type = excluded.tool_type, diameter_mm = excluded.diameter_mm,
           manufacturer = excluded.manufacturer, body = excluded.body, updated_at = now()
       where app_public.tools.body is distinct from excluded.body`,
    [JSON.stringify(tools)],
  );
}

export async function deleteTool(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query("delete from app_public.tools where id = $1", [id]);
  return rowCount === 1;
}
