import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { articleDiameter, CATALOGUE_NAMESPACE, catalogueUuid, fmt } from "./entry.ts";

describe("catalogueUuid", () => {
  it("is stable per kind, manufacturer and article number, and differs between them", () => {
    const tool = catalogueUuid("tool", "Swarf Standard Range", "SSR-EM4-0600-L-TA");
    assert.equal(tool, catalogueUuid("tool", "Swarf Standard Range", "SSR-EM4-0600-L-TA"));
    assert.equal(
      new Set([
        tool,
        catalogueUuid("assembly", "Swarf Standard Range", "SSR-EM4-0600-L-TA"),
        catalogueUuid("tool", "Other", "SSR-EM4-0600-L-TA"),
      ]).size,
      3,
    );
    assert.match(tool, /^[0-9a-f]{8}-[0-9a-f]{4}-5/);
    assert.match(CATALOGUE_NAMESPACE, /^[0-9a-f]{8}-[0-9a-f]{4}-5/);
  });
});

describe("number formats", () => {
  it("print numbers short and diameters in hundredths", () => {
    assert.equal(fmt(6), "6");
    assert.equal(fmt(0.1 + 0.2), "0.3");
    assert.equal(fmt(8.5), "8.5");
    assert.equal(articleDiameter(6), "0600");
    assert.equal(articleDiameter(0.5), "0050");
    assert.equal(articleDiameter(8.5), "0850");
    assert.equal(articleDiameter(125), "12500");
  });
});
