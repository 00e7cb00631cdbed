/**
 * The starter library (kernel/tools/catalogue/starter-library.ts) into
 * app_private.starter_assemblies and its holders and tools, once each, into
 * app_private.starter_items, whence app_private.add_starter_assemblies copies them to a user
 * (every new user's default library, and `cli library add-starter`). Replaced whole.
 */
import type { Assembly } from "../../kernel/tools/assembly.ts";
import type { Queryable } from "../request-transaction.ts";

export async function writeStarterLibrary(db: Queryable, assemblies: readonly Assembly[]): Promise<void> {
  const items = new Map<string, { id: string; kind: "holder" | "tool"; body: unknown }>();
  const rows = assemblies.map((assembly, position) => {
    const itemIds = assembly.components.map((c) => {
      const [kind, item] =
        c.component_type === "adaptive_item"
          ? (["holder", c.adaptive_item] as const)
          : (["tool", c.parametric_cutting_tool] as const);
      items.set(item.uuid, { id: item.uuid, kind, body: item });
      return item.uuid;
    });
    return { position, catalogue_id: assembly.uuid, name: assembly.name, body: assembly, item_ids: itemIds };
  });
  await db.query("delete from app_private.starter_assemblies");
  await db.query("delete from app_private.starter_items");
  await db.query(
    `insert into app_private.starter_assemblies (position, catalogue_id, name, body, item_ids)
     select position, catalogue_id, name, body, item_ids
       from jsonb_to_recordset($1::jsonb) as r(position integer, catalogue_id uuid, name text, body jsonb, item_ids uuid[])`,
    [JSON.stringify(rows)],
  );
  await db.query(
    "insert into app_private.starter_items (id, kind, body) select id, kind, body from jsonb_to_recordset($1::jsonb) as r(id uuid, kind text, body jsonb)",
    [JSON.stringify([...items.values()])],
  );
}
