import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { validateAssembly } from "../assembly.ts";
import { countByFamily } from "./standard-range.ts";
import { generateSyntheticCatalogue, SYNTHETIC_MANUFACTURERS } from "./synthetic-catalogue.ts";

describe("generateSyntheticCatalogue", () => {
  const entries = generateSyntheticCatalogue(5000, 7);

  it("makes as many entries as asked, with unique article numbers", () => {
    assert.equal(entries.length, 5000);
    assert.equal(new Set(entries.map((e) => e.article_number)).size, 5000);
    assert.equal(new Set(entries.map((e) => e.assembly.uuid)).size, 5000);
    assert.deepEqual(generateSyntheticCatalogue(0, 1), []);
    assert.throws(() => generateSyntheticCatalogue(-1, 1), /whole number/);
  });

  it("is the same for the same seed and different for another", () => {
    assert.deepEqual(generateSyntheticCatalogue(200, 7), entries.slice(0, 200));
    assert.notDeepEqual(
      generateSyntheticCatalogue(200, 8).map((e) => e.name),
      entries.slice(0, 200).map((e) => e.name),
    );
  });

  it("varies makers, families, diameters and names", () => {
    assert.equal(new Set(entries.map((e) => e.manufacturer)).size, SYNTHETIC_MANUFACTURERS.length);
    const counts = countByFamily(entries);
    for (const family of Object.keys(counts) as (keyof typeof counts)[]) assert.ok(counts[family] > 50, family);
    assert.ok(new Set(entries.map((e) => e.diameter_mm)).size > 300);
    assert.ok(new Set(entries.map((e) => e.name)).size > 4000);
    for (const e of entries) assert.ok(e.diameter_mm >= 0.5 && e.diameter_mm <= 160, e.article_number);
  });

  it("makes only valid assemblies", () => {
    const invalid = entries.filter((e) => !validateAssembly(e.assembly).ok).map((e) => e.article_number);
    assert.deepEqual(invalid, []);
  });
});
