/**
 * The workholding each seeded machine archetype (kernel/machines/archetypes.ts) has before a
 * shop or a request says otherwise. Like the archetypes, each is a class, not a product: round
 * figures typical of the class from the public catalogues of well-known precision milling vises
 * and fixture plates. A planning request may override it (issue 35).
 *
 * - 150 mm ("6-inch") precision vise, the VMCs' standard: Kurt DX6 / D688 class (6" = 152 mm jaws,
 *   1.75" = 44.5 mm jaw height, 8.8-9" = 224-229 mm opening, 3/4" = 19 mm hard jaw plates),
 *   Gerardi and Allmatic 150-160 mm vises alike (jaws 150-160 mm, 40-50 mm high). Here 150 mm
 *   jaws, 45 mm high, opening to 225 mm, 20 mm thick.
 * - 125 mm (5-inch) precision vise for the compact machines: Allmatic and Gressel 125 mm class
 *   (125 mm jaws about 40 mm high, opening 150-160 mm) and the Kurt 4-5" vises. The drill-tap
 *   centre's light cuts and small parts, and the knee mill's one-offs on its 305 mm Y travel,
 *   suit it (a 6-inch vise fits a Bridgeport-type table too: a shop that has one overrides).
 * - Parallels: a metric set in 5 mm steps up to 5 mm below the jaws' top, so the default 5 mm
 *   grip (grip.ts) is always on a parallel the setter has.
 * - Desktop router: a 400 x 400 mm aluminium fixture plate (12 mm, threaded grid) on its
 *   450 x 450 mm bed, with four low-profile toe clamps (50 x 20 mm footprint, 20 mm tall), as
 *   the hold-down kits sold for Shapeoko- and LongMill-type machines; a vise on a 100 mm Z
 *   travel leaves too little under the spindle.
 * Soft jaws are not assumed: making them is a shop's decision per job.
 *
 * Every machine also has its table (tableWorkholding), where a setup goes that its default (or a
 * request's override) cannot hold: a blank wider than the vise opens, a side with no two parallel
 * faces the jaws could take. It is modelled as a fixture plate the size of the table, the stock
 * standing on it, held by low-profile edge clamps bolted into its T-slots: Mitee-Bite Pitbull and
 * Talon-class clamps, about 10 mm tall with a 50 x 20 mm footprint, eight on a machining
 * centre's table (four along each clamped face of a long blank). The table's thickness is the
 * slab a tool must keep out of: 25 mm, about the depth of its T-slots, as the casting below them
 * is out of any tool's reach. Table sizes, round figures of each class's catalogues:
 * - VMC 850: 1000 x 500 mm (the Taiwanese and Chinese 850 mm box-way VMCs list 1000-1050 x 500 mm).
 * - VMC 760: 914 x 356 mm (the Haas VF-2's 36 x 14 in table, narrower than its 406 mm Y travel).
 * - VMC 600: 1100 x 560 mm (DMG MORI CMX 600 V).
 * - HSC gantry 600: about 1000 x 600 mm (the rigid table of Hermle's 3-axis C 250 class).
 * - Drill-tap centre: 650 x 400 mm (FANUC ROBODRILL α-D21MiB5's standard table).
 * - Knee mill: 1067 x 229 mm (the Bridgeport Series I's 42 x 9 in table); six clamps on its narrow table.
 * - Desktop router: its bed, about 500 x 500 mm under the 450 mm travel (a 19 mm MDF spoilboard
 *   with threaded inserts or T-track), four clamps: a stock too large for the 400 mm plate.
 */
import { FixturePlate, Workholding } from "./schema.ts";

const VISE_150: Workholding = {
  kind: "vise",
  jaw_width_mm: 150,
  jaw_height_mm: 45,
  max_opening_mm: 225,
  jaw_thickness_mm: 20,
  parallel_heights_mm: [10, 15, 20, 25, 30, 35, 40],
  soft_jaws_allowed: false,
};

const VISE_125: Workholding = {
  kind: "vise",
  jaw_width_mm: 125,
  jaw_height_mm: 40,
  max_opening_mm: 150,
  jaw_thickness_mm: 18,
  parallel_heights_mm: [10, 15, 20, 25, 30, 35],
  soft_jaws_allowed: false,
};

const ROUTER_PLATE: Workholding = {
  kind: "fixture_plate",
  plate_length_mm: 400,
  plate_width_mm: 400,
  plate_thickness_mm: 12,
  clamp_length_mm: 50,
  clamp_width_mm: 20,
  clamp_height_mm: 20,
  clamp_count: 4,
};

/** Mitee-Bite Pitbull / Talon class: low enough to grip a blank by 10 mm of allowance */
const EDGE_CLAMP = { clamp_length_mm: 50, clamp_width_mm: 20, clamp_height_mm: 10 } as const;

const table = (length: number, width: number, clampCount: number, thickness = 25): FixturePlate => ({
  kind: "fixture_plate",
  plate_length_mm: length,
  plate_width_mm: width,
  plate_thickness_mm: thickness,
  ...EDGE_CLAMP,
  clamp_count: clampCount,
});

const TABLES: Record<string, FixturePlate> = {
  "vmc-850-fanuc": table(1000, 500, 8),
  "vmc-760-haas": table(914, 356, 8),
  "vmc-600-heidenhain": table(1100, 560, 8),
  "hsc-600-sinumerik": table(1000, 600, 8),
  "drill-tap-500-fanuc": table(650, 400, 8),
  "knee-mill-linuxcnc": table(1067, 229, 6),
  "router-450-grbl": table(500, 500, 4, 19),
};

const DEFAULTS: Record<string, Workholding> = {
  "vmc-850-fanuc": VISE_150,
  "vmc-760-haas": VISE_150,
  "vmc-600-heidenhain": VISE_150,
  "hsc-600-sinumerik": VISE_150,
  "drill-tap-500-fanuc": VISE_125,
  "knee-mill-linuxcnc": VISE_125,
  "router-450-grbl": ROUTER_PLATE,
};

/** Parsed and frozen at load, so a wrong figure fails every test that imports it. */
const PARSED: ReadonlyMap<string, Workholding> = new Map(
  Object.entries(DEFAULTS).map(([id, w]) => [id, deepFreeze(Workholding.parse(w))]),
);

const PARSED_TABLES: ReadonlyMap<string, FixturePlate> = new Map(
  Object.entries(TABLES).map(([id, t]) => [id, Object.freeze(FixturePlate.parse(t))]),
);

/** one default is shared by every caller: none may change it for the others */
function deepFreeze(w: Workholding): Workholding {
  if (w.kind === "vise") Object.freeze(w.parallel_heights_mm);
  return Object.freeze(w);
}

/** The default workholding of a seeded machine archetype; undefined for any other product id. */
export function defaultWorkholding(productId: string): Workholding | undefined {
  return PARSED.get(productId);
}

/**
 * The table of a seeded machine archetype with its edge clamps: what holds a setup its default
 * or override workholding cannot (see the header); undefined for any other product id.
 */
export function tableWorkholding(productId: string): FixturePlate | undefined {
  return PARSED_TABLES.get(productId);
}
