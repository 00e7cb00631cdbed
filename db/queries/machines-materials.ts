/**
 * The machines assigned to the caller and the materials they may use (RLS decides which), as
 * the libraries routes show them. numeric columns are cast to float8 so they arrive as numbers.
 */
import type { Queryable } from "../request-transaction.ts";

export interface MachineRow {
  product_id: string;
  name: string;
  description: string;
  control: string;
  postprocessor: string | null;
  travel_mm: [number, number, number];
  min_spindle_rpm: number | null;
  max_spindle_rpm: number;
  spindle_power_kw: number | null;
  spindle_taper: string | null;
  max_feed_mm_min: number;
  rapid_mm_min: number | null;
  tool_change_s: number | null;
  tool_slots: number;
  default_mhr: number;
  position: number;
  cost_basis: {
    purchase_price_eur: number | null;
    resale_value_eur: number | null;
    depreciation_years: number | null;
    floor_space_m2: number | null;
    connected_load_kw: number | null;
    average_power_kw: number | null;
  };
}

/** In the user's order; the first is a new project's default. */
export async function listUserMachines(db: Queryable): Promise<MachineRow[]> {
  const { rows } = await db.query<MachineRow>(
    `select m.product_id, m.name, m.description, m.control, m.postprocessor,
            array[m.travel_x_mm, m.travel_y_mm, m.travel_z_mm]::float8[] as travel_mm,
            m.min_spindle_rpm, m.max_spindle_rpm, m.spindle_power_kw::float8 as spindle_power_kw, m.spindle_taper,
            m.max_feed_mm_min::float8 as max_feed_mm_min, m.rapid_mm_min::float8 as rapid_mm_min,
            m.tool_change_s::float8 as tool_change_s, m.tool_slots, m.default_mhr::float8 as default_mhr, um.position,
            jsonb_build_object(
              'purchase_price_eur', m.purchase_price_eur::float8, 'resale_value_eur', m.resale_value_eur::float8,
              'depreciation_years', m.depreciation_years, 'floor_space_m2', m.floor_space_m2::float8,
              'connected_load_kw', m.connected_load_kw::float8, 'average_power_kw', m.average_power_kw::float8) as cost_basis
       from app_public.user_machines um join app_public.machines m on m.product_id = um.product_id
      order by um.position`,
  );
  return rows;
}

export interface MaterialRow {
  id: string;
  name: string;
  category: string;
  iso_group: string | null;
  designations: string[];
  condition: string | null;
  density_kg_m3: number;
  price_per_kg: number;
  hardness: { value: number; scale: string } | null;
  tensile_strength_mpa: number | null;
  kc1_1_n_mm2: number | null;
  mc: number | null;
  machinability: string | null;
  is_public: boolean;
  cutting_data: Record<string, unknown>[];
}

export async function listMaterials(db: Queryable, filter: { category?: string } = {}): Promise<MaterialRow[]> {
  const { rows } = await db.query<MaterialRow>(
    `select id, name, category, iso_group, designations, condition, density_kg_m3::float8 as density_kg_m3,
            price_per_kg::float8 as price_per_kg, hardness, tensile_strength_mpa::float8 as tensile_strength_mpa,
            kc1_1_n_mm2::float8 as kc1_1_n_mm2, mc::float8 as mc, machinability, is_public, cutting_data
       from app_public.materials
      where $1::text is null or category = $1
      order by category, name`,
    [filter.category ?? null],
  );
  return rows;
}

/** The names a material goes by, for resolving what a client sends as a material_id. */
export async function materialNames(db: Queryable): Promise<{ id: string; name: string; designations: string[] }[]> {
  const { rows } = await db.query<{ id: string; name: string; designations: string[] }>(
    "select id, name, designations from app_public.materials order by category, name",
  );
  return rows;
}

/** A material's name; null when no material the caller may use has the id. */
export async function materialName(db: Queryable, id: string): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>("select name from app_public.materials where id = $1", [id]);
  return rows[0]?.name ?? null;
}

export interface MachineTravelRow {
  name: string;
  travel_x_mm: number;
  travel_y_mm: number;
  travel_z_mm: number;
}

/** A machine assigned to the caller: its name and travel; null when it is not one of theirs. */
export async function machineTravel(db: Queryable, productId: string): Promise<MachineTravelRow | null> {
  const { rows } = await db.query<MachineTravelRow>(
    `select name, travel_x_mm::float8 as travel_x_mm, travel_y_mm::float8 as travel_y_mm, travel_z_mm::float8 as travel_z_mm
       from app_public.machines where product_id = $1`,
    [productId],
  );
  return rows[0] ?? null;
}
