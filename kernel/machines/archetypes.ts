/**
 * Machine archetypes: the 3-axis machines an installation can offer before anyone describes
 * their own. Each stands for a class of machines, modelled on public spec sheets of well-known
 * models, with round figures typical of the class; none is a real branded machine, and a shop
 * should overwrite what it knows of its own.
 *
 * Field names are the API's and the database's (snake_case): the seed (db/seed) writes them to
 * app_public.machines, `machineSnapshot` gives the job file's MachineSnapshot. The rest (rapids,
 * tool change, spindle, cost basis) feeds cycle-time, power and machine-hour-rate arithmetic.
 */
import { z } from "zod";
import type { MachineSnapshot } from "./snapshot.ts";

/** The G-code dialect; the postprocessor is kernel/post/<control>.ts (sql: machines.control). */
export const MachineControl = z.enum(["fanuc", "haas", "heidenhain", "sinumerik", "linuxcnc", "grbl"]);
export type MachineControl = z.infer<typeof MachineControl>;

/**
 * How tools are held. Steep tapers (BT, SK = DIN 69871) and HSK go in a magazine; R8 and ER
 * collets are changed by hand. The size bounds the shank a tool may have (ER11: 7 mm, ER20: 13 mm).
 */
export const SpindleTaper = z.enum(["BT30", "BT40", "SK40", "HSK-A63", "R8", "ER11", "ER20"]);
export type SpindleTaper = z.infer<typeof SpindleTaper>;

export const PRODUCT_ID = /^[A-Za-z0-9._-]{1,64}$/;

const mm = z.number().positive().max(10_000);
const mmPerMin = z.number().positive().max(200_000);
const eur = z.number().nonnegative();

export const MachineArchetype = z
  .strictObject({
    product_id: z.string().regex(PRODUCT_ID),
    name: z.string().min(1).max(200),
    /** what class of machine this stands for, and what it is good at */
    description: z.string().min(1),
    control: MachineControl,
    /** postprocessor module name: the control's, or "<control>-<variant>" once a control needs variants */
    postprocessor: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    travel_x_mm: mm,
    travel_y_mm: mm,
    travel_z_mm: mm,
    /** below this the spindle stalls or its drive will not go (router spindles: thousands of rpm) */
    min_spindle_rpm: z.number().int().nonnegative(),
    max_spindle_rpm: z.number().int().positive(),
    /** continuous (S1) rating: what a long cut may draw; short-time ratings are higher */
    spindle_power_kw: z.number().positive().max(200),
    spindle_taper: SpindleTaper,
    /** highest programmable cutting feed (G1) */
    max_feed_mm_min: mmPerMin,
    /** rapid traverse (G0) of the slowest linear axis, usually Z */
    rapid_mm_min: mmPerMin,
    /** chip-to-chip: from the last cut of one tool to the first of the next, spindle stop and start included */
    tool_change_s: z.number().positive().max(600),
    /** magazine pockets; 0: tools are changed by hand */
    tool_slots: z.number().int().nonnegative().max(500),
    /**
     * Machine hour rate when nobody set one (EUR/h): machine and operator, before the quote's
     * overhead and profit (quote_jobs adds those). A shop's own figure replaces it.
     */
    default_mhr: eur,
    /** a new user's machines are assigned in this order; the first is a project's default */
    listing_order: z.number().int(),
    // Cost basis for a machine hour rate computed the VDI 3258 way (depreciation, interest,
    // space, energy, maintenance), which a later issue adds.
    /** purchase price new, installed (EUR) */
    purchase_price_eur: eur,
    /** what it sells for at the end of its depreciation (EUR) */
    resale_value_eur: eur,
    depreciation_years: z.number().int().min(1).max(30),
    /** footprint with doors open, chip conveyor and operator space (m²) */
    floor_space_m2: z.number().positive().max(200),
    /** nameplate connected load (kW, kVA taken as kW): sizes the supply, overstates consumption */
    connected_load_kw: z.number().positive().max(500),
    /** average electrical draw while running a typical job (kW): what the energy cost uses */
    average_power_kw: z.number().positive().max(500),
  })
  .refine((m) => m.rapid_mm_min >= m.max_feed_mm_min, {
    message: "rapid traverse is slower than the cutting feed",
    path: ["rapid_mm_min"],
  })
  .refine((m) => m.min_spindle_rpm < m.max_spindle_rpm, {
    message: "min_spindle_rpm is not below max_spindle_rpm",
    path: ["min_spindle_rpm"],
  })
  .refine((m) => m.resale_value_eur < m.purchase_price_eur, {
    message: "resale value is not below the purchase price",
    path: ["resale_value_eur"],
  })
  .refine((m) => m.average_power_kw <= m.connected_load_kw, {
    message: "average power exceeds the connected load",
    path: ["average_power_kw"],
  })
  .refine((m) => m.spindle_power_kw <= m.connected_load_kw, {
    message: "spindle power exceeds the connected load",
    path: ["spindle_power_kw"],
  });
export type MachineArchetype = z.infer<typeof MachineArchetype>;

const ARCHETYPES: MachineArchetype[] = [
  {
    product_id: "vmc-850-fanuc",
    name: "VMC 850 (Fanuc 0i-MF)",
    description:
      "Class of the 850 mm box-way vertical machining centres built in Taiwan and China by many makers: " +
      "belt-driven BT40 spindle, arm-type tool changer. The general-purpose job-shop machine.",
    control: "fanuc",
    postprocessor: "fanuc",
    travel_x_mm: 850,
    travel_y_mm: 500,
    travel_z_mm: 550,
    min_spindle_rpm: 20,
    max_spindle_rpm: 10_000,
    spindle_power_kw: 7.5,
    spindle_taper: "BT40",
    max_feed_mm_min: 10_000,
    rapid_mm_min: 30_000,
    tool_change_s: 5.5,
    tool_slots: 24,
    default_mhr: 60,
    listing_order: 1,
    purchase_price_eur: 85_000,
    resale_value_eur: 20_000,
    depreciation_years: 10,
    floor_space_m2: 9,
    connected_load_kw: 20,
    average_power_kw: 6,
  },
  {
    product_id: "vmc-760-haas",
    name: "VMC 760 (Haas NGC)",
    description:
      "Class of the Haas VF-2: 762 × 406 × 508 mm, 8100 rpm 40-taper inline spindle, 20-pocket carousel " +
      "changer. The most common small VMC in job shops and schools.",
    control: "haas",
    postprocessor: "haas",
    travel_x_mm: 762,
    travel_y_mm: 406,
    travel_z_mm: 508,
    min_spindle_rpm: 15,
    max_spindle_rpm: 8_100,
    spindle_power_kw: 15,
    spindle_taper: "BT40",
    max_feed_mm_min: 16_500,
    rapid_mm_min: 25_400,
    tool_change_s: 4.5,
    tool_slots: 20,
    default_mhr: 65,
    listing_order: 2,
    purchase_price_eur: 80_000,
    resale_value_eur: 20_000,
    depreciation_years: 10,
    floor_space_m2: 9,
    connected_load_kw: 22,
    average_power_kw: 7,
  },
  {
    product_id: "vmc-600-heidenhain",
    name: "VMC 600 (Heidenhain TNC 640)",
    description:
      "Class of the European compact VMC such as the DMG MORI CMX 600 V with a Heidenhain control: " +
      "600 × 560 × 510 mm, 12,000 rpm SK40 inline spindle, 30-pocket magazine, Klartext programming.",
    control: "heidenhain",
    postprocessor: "heidenhain",
    travel_x_mm: 600,
    travel_y_mm: 560,
    travel_z_mm: 510,
    min_spindle_rpm: 20,
    max_spindle_rpm: 12_000,
    spindle_power_kw: 9,
    spindle_taper: "SK40",
    max_feed_mm_min: 30_000,
    rapid_mm_min: 30_000,
    tool_change_s: 5,
    tool_slots: 30,
    default_mhr: 75,
    listing_order: 3,
    purchase_price_eur: 140_000,
    resale_value_eur: 30_000,
    depreciation_years: 10,
    floor_space_m2: 10,
    connected_load_kw: 30,
    average_power_kw: 8,
  },
  {
    product_id: "hsc-600-sinumerik",
    name: "HSC gantry VMC 600 (Sinumerik 840D sl)",
    description:
      "Class of the high-precision gantry-type machining centres in their 3-axis version, such as a Hermle " +
      "C 250 with a Siemens control: 600 × 550 × 450 mm, 18,000 rpm HSK-A63 motor spindle, 36-pocket " +
      "magazine. Mould, tool and precision parts.",
    control: "sinumerik",
    postprocessor: "sinumerik",
    travel_x_mm: 600,
    travel_y_mm: 550,
    travel_z_mm: 450,
    min_spindle_rpm: 50,
    max_spindle_rpm: 18_000,
    spindle_power_kw: 20,
    spindle_taper: "HSK-A63",
    max_feed_mm_min: 35_000,
    rapid_mm_min: 35_000,
    tool_change_s: 5,
    tool_slots: 36,
    default_mhr: 95,
    listing_order: 4,
    purchase_price_eur: 280_000,
    resale_value_eur: 60_000,
    depreciation_years: 10,
    floor_space_m2: 12,
    connected_load_kw: 45,
    average_power_kw: 12,
  },
  {
    product_id: "drill-tap-500-fanuc",
    name: "Drill-tap centre 500 BT30 (Fanuc 31i-B5)",
    description:
      "Class of the compact BT30 drill-tap centres such as the FANUC ROBODRILL α-D21MiB5: 500 × 400 × 330 mm, " +
      "10,000 rpm spindle, 21-pocket turret changer, very fast rapids and tool changes. Small aluminium " +
      "and steel parts in series; light roughing only.",
    control: "fanuc",
    postprocessor: "fanuc",
    travel_x_mm: 500,
    travel_y_mm: 400,
    travel_z_mm: 330,
    min_spindle_rpm: 50,
    max_spindle_rpm: 10_000,
    spindle_power_kw: 5.5,
    spindle_taper: "BT30",
    max_feed_mm_min: 30_000,
    rapid_mm_min: 54_000,
    tool_change_s: 1.6,
    tool_slots: 21,
    default_mhr: 70,
    listing_order: 5,
    purchase_price_eur: 120_000,
    resale_value_eur: 30_000,
    depreciation_years: 10,
    floor_space_m2: 6,
    connected_load_kw: 15,
    average_power_kw: 4,
  },
  {
    product_id: "knee-mill-linuxcnc",
    name: "CNC knee mill retrofit (LinuxCNC)",
    description:
      "Class of the Bridgeport-type turret knee mill retrofitted with ball screws, servo drives and LinuxCNC: " +
      "760 × 305 mm table travel, Z on the 127 mm quill, variable-speed head on a VFD, R8 collets in a power " +
      "drawbar changed by hand. Prototypes, one-offs and training.",
    control: "linuxcnc",
    postprocessor: "linuxcnc",
    travel_x_mm: 760,
    travel_y_mm: 305,
    travel_z_mm: 127,
    min_spindle_rpm: 60,
    max_spindle_rpm: 4_200,
    spindle_power_kw: 2.2,
    spindle_taper: "R8",
    max_feed_mm_min: 2_500,
    rapid_mm_min: 5_000,
    tool_change_s: 45,
    tool_slots: 0,
    default_mhr: 45,
    listing_order: 6,
    purchase_price_eur: 18_000,
    resale_value_eur: 5_000,
    depreciation_years: 8,
    floor_space_m2: 5,
    connected_load_kw: 5,
    average_power_kw: 1.5,
  },
  {
    product_id: "router-450-grbl",
    name: "Desktop router 450 (Grbl 1.1)",
    description:
      "Class of the benchtop gantry routers (Shapeoko-, LongMill-type) with Grbl: 450 × 450 × 100 mm, 800 W " +
      "air-cooled ER11 spindle at 8,000-24,000 rpm, tools changed by hand and re-probed. Plastics, wood and " +
      "light aluminium work with small tools.",
    control: "grbl",
    postprocessor: "grbl",
    travel_x_mm: 450,
    travel_y_mm: 450,
    travel_z_mm: 100,
    min_spindle_rpm: 8_000,
    max_spindle_rpm: 24_000,
    spindle_power_kw: 0.8,
    spindle_taper: "ER11",
    // Grbl has one maximum rate per axis ($110-$112) for G0 and G1 alike
    max_feed_mm_min: 5_000,
    rapid_mm_min: 5_000,
    tool_change_s: 90,
    tool_slots: 0,
    default_mhr: 25,
    listing_order: 7,
    purchase_price_eur: 2_800,
    resale_value_eur: 500,
    depreciation_years: 5,
    floor_space_m2: 2,
    connected_load_kw: 1.5,
    average_power_kw: 0.5,
  },
];

/** Parsed at load, so a typo in the seed fails every test that imports it rather than a deploy. */
export const MACHINE_ARCHETYPES: readonly MachineArchetype[] = Object.freeze(
  ARCHETYPES.map((m) => Object.freeze(MachineArchetype.parse(m))),
);

export function findMachineArchetype(productId: string): MachineArchetype | undefined {
  return MACHINE_ARCHETYPES.find((m) => m.product_id === productId);
}

/** The snapshot a job file keeps (sql: app_private.machine_snapshot). */
export function machineSnapshot(m: MachineArchetype): MachineSnapshot {
  return {
    product_id: m.product_id,
    name: m.name,
    control: m.control,
    travel_mm: [m.travel_x_mm, m.travel_y_mm, m.travel_z_mm],
    max_spindle_rpm: m.max_spindle_rpm,
    max_feed_mm_min: m.max_feed_mm_min,
    tool_slots: m.tool_slots,
  };
}
