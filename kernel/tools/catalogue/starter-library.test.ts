import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { assemblyCuttingTool, assemblyHolders, validateAssembly } from "../assembly.ts";
import { METRIC_COARSE } from "./dimension-tables.ts";
import { fmt, type CatalogueEntry } from "./entry.ts";
import { starterEntries, starterLibrary } from "./starter-library.ts";

const library = starterLibrary();
const tools = library.map((assembly) => {
  const tool = assemblyCuttingTool(assembly);
  assert.ok(tool, assembly.name);
  return tool;
});
const sizes = (type: string) => tools.filter((t) => t.tool_type === type).map((t) => t.tool_parameters.CuttingDiameter);

describe("the starter library", () => {
  it("holds flat end mills 1 to 20 mm, ball end mills 2 to 12 mm, bull noses of 6, 10 and 16 mm with corner radii, spot and chamfer tools and a face mill", () => {
    assert.deepEqual(sizes("CentreCuttingEndMill"), [1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 1, 2, 3, 4, 6]);
    // the long-neck ones reach past the long series' flutes: 1 mm 12 mm deep, 6 mm 30
    const reaches = tools
      .filter((t) => t.tool_type === "CentreCuttingEndMill" && t.name.startsWith("Long-neck"))
      .map((t) => [t.tool_parameters.CuttingDiameter, t.tool_parameters.NeckLength]);
    assert.deepEqual(reaches, [
      [1, 12],
      [2, 16],
      [3, 20],
      [4, 25],
      [6, 30],
    ]);
    assert.deepEqual(sizes("BallEndMill"), [2, 3, 4, 5, 6, 8, 10, 12]);
    const bullNoses = tools
      .filter((t) => t.tool_type === "BullNoseEndMill")
      .map((t) => `${t.tool_parameters.CuttingDiameter} R${t.tool_parameters.CornerRadius}`);
    for (const d of [6, 10, 16])
      assert.ok(
        bullNoses.some((b) => b.startsWith(`${d} R`)),
        bullNoses.join(", "),
      );
    assert.deepEqual(sizes("SpotDrill"), [6, 10]);
    assert.deepEqual(sizes("ChamferMill"), [6, 10, 16]);
    assert.deepEqual(sizes("FaceMill"), [63]);
  });

  it("holds the tap drill and a tap of every coarse thread M3 to M12, and the ISO 273 clearance drills to M16", () => {
    const drills = new Set(sizes("Drill"));
    const taps = tools.filter((t) => t.tool_type === "Tap");
    for (const thread of METRIC_COARSE.filter((t) => t.nominal >= 3 && t.nominal <= 12)) {
      assert.ok(drills.has(thread.tapDrill), `tap drill of M${thread.nominal}`);
      assert.ok(
        taps.some(
          (t) => t.tool_parameters.CuttingDiameter === thread.nominal && t.tool_parameters.ThreadPitch === thread.pitch,
        ),
        `tap M${thread.nominal}`,
      );
    }
    // fine, medium and coarse clearance holes (ISO 273) for M3 to M16
    for (const d of [
      3.2, 3.4, 3.6, 4.3, 4.5, 4.8, 5.3, 5.5, 5.8, 6.4, 6.6, 7, 8.4, 9, 10, 10.5, 11, 12, 13, 13.5, 14.5, 17, 17.5,
      18.5,
    ])
      assert.ok(drills.has(d), `${d} mm drill`);
  });

  it("is valid, every tool in a holder, with unique assembly ids and one holder item per holder model", () => {
    assert.equal(new Set(library.map((a) => a.uuid)).size, library.length);
    for (const assembly of library) {
      assert.ok(validateAssembly(assembly).ok, assembly.name);
      assert.equal(assembly.components[0]?.component_type, "adaptive_item", assembly.name);
      const stickOut = assemblyCuttingTool(assembly)?.tool_parameters.LengthBelowHolder;
      assert.ok(stickOut !== undefined && stickOut > 0, assembly.name);
    }
    const holders = new Map<string, string>();
    for (const assembly of library) {
      const holder = assembly.components[0];
      if (holder?.component_type !== "adaptive_item") continue;
      const seen = holders.get(holder.adaptive_item.uuid);
      assert.ok(seen === undefined || seen === JSON.stringify(holder.adaptive_item), "a holder uuid is one holder");
      holders.set(holder.adaptive_item.uuid, JSON.stringify(holder.adaptive_item));
    }
    assert.ok(holders.size >= 5, `${holders.size} holder models`);
  });
});

// ---------------------------------------------------------------------------------------------
// The doc's table

const KINDS: Readonly<Record<string, string>> = {
  CentreCuttingEndMill: "Flat end mills, 3 flutes, DIN 6527 L, carbide",
  LongNeckEndMill: "Long-neck flat end mills, 2 flutes, carbide (diameter x reach)",
  BallEndMill: "Ball end mills, 2 flutes, long series, carbide",
  BullNoseEndMill: "Bull nose end mills, 4 flutes, long series, carbide",
  Drill: "Twist drills DIN 338, HSS-Co, 135° split point: every 0.1 mm to 13 mm, then every 0.5 mm",
  SpotDrill: "NC spot drills 90°, carbide",
  ChamferMill: "Chamfer mills 45° to the axis (90° countersinks), carbide",
  Tap: "Machine taps ISO 2 (6H), spiral flute, HSS-E-PM TiN, DIN 371/376",
  FaceMill: "Face mill 90°, 5 inserts",
};

interface Row {
  kind: string;
  holder: string;
  sizes: { size: string; diameter: number; stickOut: number }[];
}

function sizeOf(entry: CatalogueEntry): string {
  const tool = assemblyCuttingTool(entry.assembly);
  const p = tool?.tool_parameters;
  if (tool?.tool_type === "Tap") return `M${fmt(p?.CuttingDiameter ?? 0)}`;
  if (tool?.tool_type === "BullNoseEndMill") return `${fmt(p?.CuttingDiameter ?? 0)} R${fmt(p?.CornerRadius ?? 0)}`;
  if (isLongNeck(entry)) return `${fmt(p?.CuttingDiameter ?? 0)} x ${fmt(p?.NeckLength ?? 0)}`;
  return fmt(p?.CuttingDiameter ?? 0);
}

const isLongNeck = (entry: CatalogueEntry) => /-N\d+-/.test(entry.article_number);

/** Consecutive sizes of one stick-out as "1–1.1 (18)" (drills), every other size as "6 (39)". */
function cell(row: Row): string {
  if (row.kind !== KINDS.Drill) return row.sizes.map((s) => `${s.size} (${fmt(s.stickOut)})`).join(", ");
  const runs: { from: string; to: string; stickOut: number }[] = [];
  for (const s of row.sizes) {
    const last = runs.at(-1);
    if (last && last.stickOut === s.stickOut) last.to = s.size;
    else runs.push({ from: s.size, to: s.size, stickOut: s.stickOut });
  }
  return runs.map((r) => `${r.from === r.to ? r.from : `${r.from}–${r.to}`} (${fmt(r.stickOut)})`).join(", ");
}

/**
 * The starter library as docs/equipment-libraries.md shows it: one row per kind of tool and
 * holder, each size with the tool's stick-out from the holder (LengthBelowHolder).
 */
function starterTable(entries: readonly CatalogueEntry[]): string {
  const rows: Row[] = [];
  for (const entry of entries) {
    const tool = assemblyCuttingTool(entry.assembly);
    if (!tool) continue;
    const kind = (isLongNeck(entry) ? KINDS.LongNeckEndMill : KINDS[tool.tool_type]) ?? tool.tool_type;
    const holder = assemblyHolders(entry.assembly)
      .map((h) => h.name)
      .join(" + ");
    const size = {
      size: sizeOf(entry),
      diameter: tool.tool_parameters.CuttingDiameter ?? 0,
      stickOut: tool.tool_parameters.LengthBelowHolder ?? 0,
    };
    const row = rows.find((r) => r.kind === kind && r.holder === holder);
    if (row) row.sizes.push(size);
    else rows.push({ kind, holder, sizes: [size] });
  }
  return [
    "| tools | holder | sizes in mm (stick-out from the holder in mm) |",
    "|---|---|---|",
    ...rows.map((row) => `| ${row.kind} | ${row.holder} | ${cell(row)} |`),
  ].join("\n");
}

describe("docs/equipment-libraries.md", () => {
  it("shows the starter library as it is: each kind of tool, its holder, sizes and stick-outs", () => {
    const doc = fs.readFileSync(
      path.resolve(import.meta.dirname, "..", "..", "..", "docs", "equipment-libraries.md"),
      "utf8",
    );
    const table = starterTable(starterEntries());
    assert.ok(doc.includes(`${table}\n`), `the doc's starter table differs from this one:\n${table}`);
  });
});
