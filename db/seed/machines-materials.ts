/**
 * Machines and materials from kernel/ data into their tables: upserted by id, and rows the data
 * no longer has are removed unless a project uses them (a project's machine and material stay
 * valid; such a row is kept as it is). Machines new to the table are assigned to every user,
 * after the ones they have, so an installation's users see an added archetype at once.
 */
import type { Queryable } from "../request-transaction.ts";
import { MACHINE_ARCHETYPES, type MachineArchetype } from "../../kernel/machines/archetypes.ts";
import { CUTTING_DATA, type CuttingDataEntry } from "../../kernel/materials/cutting-data.ts";
import { MATERIALS, type Material } from "../../kernel/materials/materials.ts";

const MACHINE_COLUMNS = [
  "product_id",
  "name",
  "description",
  "control",
  "postprocessor",
  "travel_x_mm",
  "travel_y_mm",
  "travel_z_mm",
  "min_spindle_rpm",
  "max_spindle_rpm",
  "spindle_power_kw",
  "spindle_taper",
  "max_feed_mm_min",
  "rapid_mm_min",
  "tool_change_s",
  "tool_slots",
  "default_mhr",
  "listing_order",
  "purchase_price_eur",
  "resale_value_eur",
  "depreciation_years",
  "floor_space_m2",
  "connected_load_kw",
  "average_power_kw",
] as const;

const MATERIAL_COLUMNS = [
  "id",
  "name",
  "category",
  "iso_group",
  "designations",
  "condition",
  "density_kg_m3",
  "price_per_kg",
  "hardness",
  "tensile_strength_mpa",
  "kc1_1_n_mm2",
  "mc",
  "machinability",
  "is_public",
  "cutting_data",
] as const;

/** A row of app_public.machines as the seed writes it: the archetype's fields that are its columns. */
export type MachineSeedRow = Pick<MachineArchetype, (typeof MACHINE_COLUMNS)[number]>;

/** A row of app_public.materials as the seed writes it: the material's columns and its cutting data. */
export type MaterialSeedRow = Pick<Material, Exclude<(typeof MATERIAL_COLUMNS)[number], "cutting_data">> & {
  cutting_data: CuttingDataEntry[];
};

/** insert ... select from jsonb_populate_recordset ... on conflict (key) do update every column */
function upsertSql(table: string, key: string, columns: readonly string[]): string {
  const list = columns.join(", ");
  const updates = columns
    .filter((c) => c !== key)
    .map((c) => `${c} = excluded.${c}`)
    .join(", ");
  return `insert into ${table} as t (${list})
            select ${list} from jsonb_populate_recordset(null::${table}, $1::jsonb)
          on conflict (${key}) do update set ${updates}
          returning ${key}, (xmax = 0) as inserted`;
}

export function machineSeed(): MachineSeedRow[] {
  return MACHINE_ARCHETYPES.map((m) => ({ ...m }));
}

export function materialSeed(): MaterialSeedRow[] {
  return MATERIALS.map((m) => ({ ...m, cutting_data: CUTTING_DATA.filter((entry) => entry.material_id === m.id) }));
}

export async function writeMachines(db: Queryable, machines: unknown[]): Promise<void> {
  const { rows } = await db.query<{ product_id: string; inserted: boolean }>(
    upsertSql("app_public.machines", "product_id", MACHINE_COLUMNS),
    [JSON.stringify(machines)],
  );
  const ids = rows.map((r) => r.product_id);
  await db.query(
    `delete from app_public.machines m
      where m.product_id <> all($1::text[])
        and not exists (select 1 from app_public.projects p where p.product_id = m.product_id)`,
    [ids],
  );
  const added = rows.filter((r) => r.inserted).map((r) => r.product_id);
  if (added.length === 0) return;
  await db.query(
    `insert into app_public.user_machines (user_id, product_id, position)
       select u.id, m.product_id,
              coalesce((select max(um.position) from app_public.user_machines um where um.user_id = u.id), 0)
                + row_number() over (partition by u.id order by m.listing_order, m.product_id)
         from app_public.users u cross join app_public.machines m
        where m.product_id = any($1::text[])
     on conflict do nothing`,
    [added],
  );
}

export async function writeMaterials(db: Queryable, materials: unknown[]): Promise<void> {
  const { rows } = await db.query<{ id: string }>(upsertSql("app_public.materials", "id", MATERIAL_COLUMNS), [
    JSON.stringify(materials),
  ]);
  await db.query(
    `delete from app_public.materials m
      where m.id <> all($1::text[])
        and not exists (select 1 from app_public.projects p where p.material_id = m.id)`,
    [rows.map((r) => r.id)],
  );
}
