/**
 * Seed materials: what a part is made of, what the stock costs and how hard it is to cut.
 * Field names are the API's and the database's (snake_case): the seed (db/seed) writes them to
 * app_public.materials; the rest feeds cutting data (cutting-data.ts) and quoting.
 *
 * Where the figures come from, by class (typical values, not one table copied):
 * - density, hardness, strength: the EN standards' and stockists' data sheets for the grade
 *   and condition named (EN 573/755 aluminium, EN 10083 steels, EN 10088 stainless, EN 12164
 *   brass, ASTM B348 titanium, makers' sheets for the plastics);
 * - kc1.1 and mc (Kienzle: kc = kc1.1 · h^-mc, h in mm): for the steels, the Kienzle-Victor
 *   values German handbooks tabulate (Tabellenbuch Metall and its like); for aluminium, brass and
 *   titanium, the kc1 by ISO material group that tool makers' handbooks give (Sandvik Coromant,
 *   Walter), mc ≈ 0.25; for the plastics an estimate of ~2.5 × tensile strength, since handbooks
 *   give none and the power they take never limits a spindle;
 * - price: small-lot stock bar or plate from a European stockist, cut to size, early 2026
 *   estimate with metal prices (LME aluminium, copper, nickel) near their 2025 levels.
 */
import { z } from "zod";

export const MATERIAL_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** When the prices were estimated; price_per_kg is in EUR (the column has no currency). */
export const MATERIAL_PRICES_AS_OF = "2026-01";

export const MaterialCategory = z.enum(["aluminium", "steel", "stainless", "brass", "titanium", "plastic"]);
export type MaterialCategory = z.infer<typeof MaterialCategory>;

/**
 * ISO 513 application group: P steel, M stainless, K cast iron, N non-ferrous (and, in tool
 * makers' catalogues, plastics), S heat-resistant alloys and titanium, H hardened steel. Tool
 * grades and cutting data are keyed on it.
 */
export const IsoMaterialGroup = z.enum(["P", "M", "K", "N", "S", "H"]);
export type IsoMaterialGroup = z.infer<typeof IsoMaterialGroup>;

export const Hardness = z.strictObject({
  value: z.number().positive(),
  /** Brinell for metals; Shore D for plastics, which have no Brinell figure worth the name */
  scale: z.enum(["HB", "HRC", "Shore D"]),
});
export type Hardness = z.infer<typeof Hardness>;

export const Material = z.strictObject({
  id: z.string().regex(MATERIAL_ID),
  name: z.string().min(1).max(200),
  category: MaterialCategory,
  iso_group: IsoMaterialGroup,
  /** the standard's names: EN number, AISI/UNS where one is in use */
  designations: z.array(z.string().min(1)).min(1),
  /** delivery condition the figures are for (temper, heat treatment) */
  condition: z.string().min(1),
  density_kg_m3: z.number().positive().max(25_000),
  /** EUR per kg of stock */
  price_per_kg: z.number().nonnegative(),
  hardness: Hardness,
  tensile_strength_mpa: z.number().positive(),
  /** specific cutting force at 1 mm chip thickness and 1 mm width (N/mm²) */
  kc1_1_n_mm2: z.number().positive(),
  /** Kienzle exponent: how fast kc rises as the chip gets thinner */
  mc: z.number().min(0).max(0.6),
  machinability: z.string().min(1),
  /** whether every user may use it (sql: materials.is_public) */
  is_public: z.boolean(),
});
export type Material = z.infer<typeof Material>;

const SEED: Material[] = [
  {
    id: "aluminium-6061",
    name: "EN AW-6061 T6 aluminium",
    category: "aluminium",
    iso_group: "N",
    designations: ["EN AW-6061", "AlMg1SiCu", "3.3211", "AA 6061"],
    condition: "T6 / T651 (solution treated and artificially aged)",
    density_kg_m3: 2700,
    price_per_kg: 7,
    hardness: { value: 95, scale: "HB" },
    tensile_strength_mpa: 310,
    kc1_1_n_mm2: 700,
    mc: 0.25,
    machinability:
      "Good. Long, stringy chips and built-up edge on dull or coated tools: use sharp, polished 2-3 flute " +
      "uncoated or DLC carbide, high vc, flood or air blast to clear chips.",
    is_public: true,
  },
  {
    id: "aluminium-7075",
    name: "EN AW-7075 T6 aluminium",
    category: "aluminium",
    iso_group: "N",
    designations: ["EN AW-7075", "AlZn5.5MgCu", "3.4365", "AA 7075"],
    condition: "T6 / T651 (solution treated and artificially aged)",
    density_kg_m3: 2810,
    price_per_kg: 13.5,
    hardness: { value: 150, scale: "HB" },
    tensile_strength_mpa: 570,
    kc1_1_n_mm2: 800,
    mc: 0.25,
    machinability:
      "Very good: harder than 6061, so chips break shorter and surfaces come out finer. Plate holds " +
      "residual stress; thin parts move after heavy roughing, so leave stock for a finishing pass.",
    is_public: true,
  },
  {
    id: "steel-c45",
    name: "C45 carbon steel (1.0503)",
    category: "steel",
    iso_group: "P",
    designations: ["C45", "1.0503", "AISI 1045"],
    condition: "+N (normalised)",
    density_kg_m3: 7850,
    price_per_kg: 2.3,
    hardness: { value: 195, scale: "HB" },
    tensile_strength_mpa: 650,
    kc1_1_n_mm2: 2220,
    mc: 0.14,
    machinability:
      "Good: the reference medium-carbon steel. Coated (TiAlN/AlTiN) carbide, flood coolant; chips " +
      "break well at moderate feeds. Rusts: protect finished parts.",
    is_public: true,
  },
  {
    id: "steel-42crmo4",
    name: "42CrMo4 alloy steel, quenched and tempered (1.7225)",
    category: "steel",
    iso_group: "P",
    designations: ["42CrMo4", "1.7225", "AISI 4140"],
    condition: "+QT (quenched and tempered, Rm 900-1100 MPa)",
    density_kg_m3: 7850,
    price_per_kg: 3.4,
    hardness: { value: 300, scale: "HB" },
    tensile_strength_mpa: 1000,
    kc1_1_n_mm2: 2500,
    mc: 0.26,
    machinability:
      "Fair: at about 300 HB tools wear faster and cutting forces are high. Rigid set-ups, AlTiN carbide, " +
      "lower vc than C45; deep pockets move as the stress relieves.",
    is_public: true,
  },
  {
    id: "stainless-1.4301",
    name: "X5CrNi18-10 austenitic stainless (1.4301)",
    category: "stainless",
    iso_group: "M",
    designations: ["X5CrNi18-10", "1.4301", "AISI 304"],
    condition: "+AT (solution annealed)",
    density_kg_m3: 7900,
    price_per_kg: 5.8,
    hardness: { value: 180, scale: "HB" },
    tensile_strength_mpa: 600,
    kc1_1_n_mm2: 2350,
    mc: 0.21,
    machinability:
      "Poor: work-hardens, conducts heat badly and forms long, tough chips. Keep the chip load up and the " +
      "tool moving (no dwelling or rubbing), sharp positive carbide, flood coolant. 1.4305 cuts far better " +
      "where the part allows it.",
    is_public: true,
  },
  {
    id: "brass-cuzn39pb3",
    name: "CuZn39Pb3 free-cutting brass (CW614N)",
    category: "brass",
    iso_group: "N",
    designations: ["CuZn39Pb3", "CW614N", "2.0401", "C38500"],
    condition: "R430 (half hard, drawn)",
    density_kg_m3: 8470,
    price_per_kg: 9.5,
    hardness: { value: 120, scale: "HB" },
    tensile_strength_mpa: 430,
    kc1_1_n_mm2: 700,
    mc: 0.25,
    machinability:
      "Excellent: the reference for copper alloys (100 %). Short broken chips, low forces; zero or negative " +
      "rake on drills and reamers so the tool is not pulled in. Contains lead: check RoHS/REACH limits " +
      "for the part's market.",
    is_public: true,
  },
  {
    id: "titanium-grade5",
    name: "Ti-6Al-4V grade 5 titanium (3.7165)",
    category: "titanium",
    iso_group: "S",
    designations: ["Ti-6Al-4V", "TiAl6V4", "3.7165", "ASTM grade 5", "UNS R56400"],
    condition: "annealed",
    density_kg_m3: 4430,
    price_per_kg: 42,
    hardness: { value: 334, scale: "HB" },
    tensile_strength_mpa: 950,
    kc1_1_n_mm2: 1400,
    mc: 0.23,
    machinability:
      "Poor: heat stays at the edge (low thermal conductivity), the part springs back and chips weld on. " +
      "Low vc, generous fz, sharp tools, high-pressure coolant, light radial engagement. Fine chips burn: " +
      "keep the machine clean.",
    is_public: true,
  },
  {
    id: "plastic-pom-c",
    name: "POM-C acetal copolymer",
    category: "plastic",
    iso_group: "N",
    designations: ["POM-C", "polyoxymethylene copolymer"],
    condition: "extruded rod and sheet, natural",
    density_kg_m3: 1410,
    price_per_kg: 7.5,
    hardness: { value: 81, scale: "Shore D" },
    tensile_strength_mpa: 65,
    kc1_1_n_mm2: 170,
    mc: 0.2,
    machinability:
      "Excellent: the easiest plastic to machine. Sharp uncoated carbide, large chip loads, air cooling. " +
      "Expands about ten times as much as steel with heat: measure at 20 °C.",
    is_public: true,
  },
  {
    id: "plastic-peek",
    name: "PEEK polyether ether ketone",
    category: "plastic",
    iso_group: "N",
    designations: ["PEEK", "polyether ether ketone"],
    condition: "extruded rod and sheet, natural (unfilled), annealed",
    density_kg_m3: 1300,
    price_per_kg: 110,
    hardness: { value: 85, scale: "Shore D" },
    tensile_strength_mpa: 100,
    kc1_1_n_mm2: 260,
    mc: 0.2,
    machinability:
      "Good but unforgiving of heat: sharp carbide, moderate vc, coolant or air; anneal between roughing " +
      "and finishing for tight tolerances. Glass- and carbon-filled grades are abrasive (diamond-coated " +
      "tools). Expensive: keep stock allowance small.",
    is_public: true,
  },
];

/**
 * What shops and drawings call the seeded materials besides their ids and designations (which
 * count as names too: resolve-material.ts): the bare AA/AISI/SAE numbers, tempers, old DIN and
 * trade-floor names. A name here must mean this material and no other seeded one; it is matched
 * without case, spaces or punctuation, "aluminum" read as "aluminium".
 */
export const MATERIAL_ALIASES: Readonly<Record<string, readonly string[]>> = {
  "aluminium-6061": ["6061", "6061-T6", "6061-T651", "Al 6061", "AW-6061", "aluminium 6061-T6"],
  "aluminium-7075": ["7075", "7075-T6", "7075-T651", "Al 7075", "AW-7075", "aluminium 7075-T6"],
  "steel-c45": ["SAE 1045", "1045", "C45+N", "Ck45", "C45E", "C45 steel"],
  "steel-42crmo4": ["SAE 4140", "4140", "42CrMo4+QT", "EN19", "42CrMo4 steel"],
  "stainless-1.4301": ["304", "SS304", "SUS304", "UNS S30400", "V2A", "304 stainless", "stainless 304"],
  "brass-cuzn39pb3": ["Ms58", "CZ121", "free-cutting brass", "brass CW614N"],
  "titanium-grade5": ["Ti64", "Ti6Al4V", "Ti-6-4", "grade 5", "Gr5", "Ti grade 5", "titanium grade 5"],
  "plastic-pom-c": ["POM", "acetal", "acetal copolymer", "polyacetal"],
  "plastic-peek": ["PEEK natural", "polyetheretherketone"],
};

/** Parsed at load, so a typo in the seed fails every test that imports it rather than a deploy. */
export const MATERIALS: readonly Material[] = Object.freeze(SEED.map((m) => Object.freeze(Material.parse(m))));

export function findMaterial(id: string): Material | undefined {
  return MATERIALS.find((m) => m.id === id);
}
