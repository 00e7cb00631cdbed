/**
 * The machines and materials libraries: what a user may pick as a project's product_id and
 * material_id, with what planning and quoting read from them (spindle, feeds, rapids, tool
 * change, cost basis, default workholding and table; density, price, cutting data). Short lists, answered whole.
 */
import { z } from "zod";
import { listMaterials, listUserMachines } from "../../db/queries/machines-materials.ts";
import { CuttingDataEntry } from "../../kernel/materials/cutting-data.ts";
import { defaultWorkholding, tableWorkholding } from "../../kernel/workholding/defaults.ts";
import { json } from "../reply.ts";
import { defineRoute } from "../route.ts";
import { NoQuery } from "../schemas/common.ts";
import { WorkholdingSchema } from "../schemas/workholding.ts";

const nullableNumber = (description: string) => z.number().nullable().describe(description);

const Machine = z
  .object({
    product_id: z.string().describe("what a project's product_id names"),
    name: z.string(),
    description: z.string(),
    control: z.enum(["fanuc", "haas", "heidenhain", "sinumerik", "linuxcnc", "grbl"]).describe("the G-code dialect"),
    postprocessor: z.string().nullable(),
    travel_mm: z.tuple([z.number(), z.number(), z.number()]).describe("X, Y, Z travel, mm"),
    min_spindle_rpm: nullableNumber("lowest usable spindle speed"),
    max_spindle_rpm: z.number(),
    spindle_power_kw: nullableNumber("continuous (S1) rating"),
    spindle_taper: z.string().nullable().describe("BT40, HSK-A63, ER20, ..."),
    max_feed_mm_min: z.number().describe("highest cutting feed (G1)"),
    rapid_mm_min: nullableNumber("rapid traverse (G0) of the slowest axis"),
    tool_change_s: nullableNumber("chip-to-chip tool change time"),
    tool_slots: z.number().int().describe("magazine pockets; 0: tools are changed by hand"),
    default_mhr: z.number().describe("machine hour rate (EUR/h) when no quote setting overrides it"),
    position: z.number().int().describe("the user's order; the first machine is a new project's default"),
    cost_basis: z
      .object({
        purchase_price_eur: z.number().nullable(),
        resale_value_eur: z.number().nullable(),
        depreciation_years: z.number().nullable(),
        floor_space_m2: z.number().nullable(),
        connected_load_kw: z.number().nullable(),
        average_power_kw: z.number().nullable(),
      })
      .describe("inputs of a calculated machine hour rate"),
    default_workholding: WorkholdingSchema.nullable().describe(
      "what holds the stock on this machine unless a planning request says otherwise (its workholding): a vise " +
        "for the mills, a fixture plate with clamps for the router; null for a machine without one",
    ),
    table_workholding: WorkholdingSchema.nullable().describe(
      "the machine's table with low-profile edge clamps, as a fixture_plate the table's size: where the default " +
        "workholding, or a request's override, cannot hold a setup (a blank wider than the vise opens, no two " +
        "parallel faces to grip), the planner tries the table before it leaves the setup out; the setup's " +
        "workholding.type is then machine_table. null for a machine without one",
    ),
  })
  .meta({ id: "Machine" });

const Material = z
  .object({
    id: z.string().describe("what a project's material_id names"),
    name: z.string(),
    category: z.string().describe("aluminium, steel, stainless, brass, titanium, plastic, ..."),
    iso_group: z.string().nullable().describe("ISO 513 group: P, M, K, N, S, H"),
    designations: z.array(z.string()).describe("EN number, AISI/UNS names"),
    condition: z.string().nullable().describe("the delivery condition the figures are for"),
    density_kg_m3: z.number(),
    price_per_kg: z.number().describe("EUR per kg of stock"),
    hardness: z.object({ value: z.number(), scale: z.string() }).nullable(),
    tensile_strength_mpa: z.number().nullable(),
    kc1_1_n_mm2: z.number().nullable().describe("Kienzle specific cutting force at 1 mm chip thickness"),
    mc: z.number().nullable().describe("Kienzle exponent"),
    machinability: z.string().nullable(),
    is_public: z.boolean().describe("false: granted to this user only"),
    cutting_data: z
      .array(CuttingDataEntry)
      .describe("vc and fz per tool family and tool material (fz at 10 mm, scaled by diameter_curve)"),
  })
  .meta({ id: "Material" });

const MaterialQuery = z.strictObject({
  category: z
    .string()
    .regex(/^[a-z_-]{1,40}$/, "a category such as aluminium")
    .optional()
    .describe("only this category"),
});

export const machineMaterialRoutes = [
  defineRoute({
    method: "get",
    path: "/libraries/machines",
    operationId: "listMachines",
    summary: "The machines assigned to the user",
    description: "In the user's order; a project's product_id must be one of them. The whole list, no paging.",
    tag: "Libraries",
    scopes: ["libraries:read"],
    query: NoQuery,
    responses: {
      200: { description: "the machines", schema: z.object({ items: z.array(Machine) }).meta({ id: "MachineList" }) },
    },
    async handler({ db }) {
      const machines = await listUserMachines(db);
      const items = machines.map((m) => ({
        ...m,
        default_workholding: defaultWorkholding(m.product_id) ?? null,
        table_workholding: tableWorkholding(m.product_id) ?? null,
      }));
      return json(200, { items });
    },
  }),
  defineRoute({
    method: "get",
    path: "/libraries/materials",
    operationId: "listMaterials",
    summary: "The materials the user may use, with cutting data",
    description: "Public materials and those granted to the user, by category and name. The whole list, no paging.",
    tag: "Libraries",
    scopes: ["libraries:read"],
    query: MaterialQuery,
    responses: {
      200: {
        description: "the materials",
        schema: z.object({ items: z.array(Material) }).meta({ id: "MaterialList" }),
      },
    },
    async handler({ db, query }) {
      return json(200, { items: await listMaterials(db, query.category ? { category: query.category } : {}) });
    },
  }),
];
