import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { assemblyCuttingTool, assemblyGaugeLength, assemblyHolders, validateAssembly } from "../assembly.ts";
import { validateTool } from "../tool.ts";
import { TOOL_TYPES } from "../tool-types.ts";
import { countByFamily, generateStandardRange, STANDARD_MANUFACTURER } from "./standard-range.ts";

const range = generateStandardRange();

describe("generateStandardRange", () => {
  it("has thousands of entries of every tool type, all by the Swarf Standard Range", () => {
    assert.ok(range.length > 3000, `${range.length} entries`);
    assert.deepEqual(new Set(range.map((e) => e.tool_type)), new Set(TOOL_TYPES));
    assert.deepEqual(new Set(range.map((e) => e.manufacturer)), new Set([STANDARD_MANUFACTURER]));
    const counts = countByFamily(range);
    assert.equal(
      Object.values(counts).reduce((a, b) => a + b, 0),
      range.length,
    );
    assert.ok(
      counts.mill > 900 && counts.drill > 1800 && counts.tap > 150 && counts.reamer > 30 && counts.thread_mill > 10,
      JSON.stringify(counts),
    );
  });

  it("gives every entry a valid tool and a valid assembly of a holder and that tool", () => {
    const invalid: string[] = [];
    for (const entry of range) {
      const result = validateAssembly(entry.assembly);
      if (!result.ok) {
        invalid.push(`${entry.article_number}: ${result.violations.map((v) => `${v.field} ${v.rule}`).join(", ")}`);
        continue;
      }
      const tool = assemblyCuttingTool(result.assembly);
      if (!tool || !validateTool(tool).ok) invalid.push(`${entry.article_number}: tool`);
      if (assemblyHolders(result.assembly).length !== 1) invalid.push(`${entry.article_number}: holders`);
      if (tool?.article_number !== entry.article_number || tool.tool_type !== entry.tool_type)
        invalid.push(`${entry.article_number}: search fields`);
    }
    assert.deepEqual(invalid.slice(0, 10), []);
  });

  it("has unique article numbers and ids that come back when generated again", () => {
    assert.equal(new Set(range.map((e) => e.article_number)).size, range.length);
    assert.equal(new Set(range.map((e) => e.assembly.uuid)).size, range.length);
    for (const article of range.map((e) => e.article_number)) assert.match(article, /^SSR-[A-Z0-9]+(-[A-Z0-9]+)+$/);
    const again = generateStandardRange();
    assert.deepEqual(again, range);
  });

  it("shares one holder id between the assemblies of one holder model", () => {
    const byArticle = new Map<string, Set<string>>();
    for (const entry of range) {
      const holder = entry.assembly.components[0];
      assert.ok(holder?.component_type === "adaptive_item");
      const ids = byArticle.get(holder.adaptive_item.article_number ?? "") ?? new Set<string>();
      ids.add(holder.adaptive_item.uuid);
      byArticle.set(holder.adaptive_item.article_number ?? "", ids);
    }
    for (const [article, ids] of byArticle) assert.equal(ids.size, 1, article);
    assert.ok(byArticle.size >= 10 && byArticle.size < 30, `${byArticle.size} holder models`);
  });

  it("spot-checks published lengths: DIN 338 10 mm, DIN 6527 L 10 mm, DIN 6537 K 8.5 mm", () => {
    const dims = (article: string) => {
      const entry = range.find((e) => e.article_number === article);
      assert.ok(entry, article);
      return [
        entry.diameter_mm,
        entry.flute_length_mm,
        entry.overall_length_mm,
        entry.shank_diameter_mm,
        entry.standard,
      ];
    };
    assert.deepEqual(dims("SSR-DR338-1000-HSS"), [10, 87, 133, 10, "DIN 338"]);
    assert.deepEqual(dims("SSR-EM3-1000-L-TA"), [10, 22, 72, 10, "DIN 6527 L"]);
    assert.deepEqual(dims("SSR-DR6537K-0850-EX"), [8.5, 40, 89, 10, "DIN 6537 K"]);
  });

  it("knows how far each tool reaches below the gauge line", () => {
    const entry = range.find((e) => e.article_number === "SSR-EM3-1000-L-TA");
    assert.ok(entry);
    // ER25 collet chuck A70, 72 mm tool gripped 24 mm deep
    assert.equal(assemblyGaugeLength(entry.assembly), 70 + 72 - 24);
  });
});
