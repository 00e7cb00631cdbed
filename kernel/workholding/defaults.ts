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
 */
import { Workholding } from "./schema.ts";

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

/** one default is shared by every caller: none may change it for the others */
function deepFreeze(w: Workholding): Workholding {
  if (w.kind === "vise") Object.freeze(w.parallel_heights_mm);
  return Object.freeze(w);
}

/** The default workholding of a seeded machine archetype; undefined for any other product id. */
export function defaultWorkholding(productId: string): Workholding | undefined {
  return PARSED.get(productId);
}
