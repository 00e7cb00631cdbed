import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MATERIAL_ALIASES, MATERIALS } from "./materials.ts";
import { editDistance, materialKey, resolveMaterialId, type MaterialNames } from "./resolve-material.ts";

const seeded: MaterialNames[] = MATERIALS.map((m) => ({ id: m.id, name: m.name, designations: m.designations }));
const resolve = (sent: string) => resolveMaterialId(sent, seeded);

describe("material ids as clients send them", () => {
  it("takes every seeded id as it is sent", () => {
    for (const m of seeded) assert.deepEqual(resolve(m.id), { kind: "id", id: m.id });
  });

  it("resolves the spellings, EN/AISI/DIN names and numbers of the seeded alloys to their ids", () => {
    const expected: Record<string, string[]> = {
      "aluminium-6061": [
        "aluminum-6061",
        "Aluminium 6061",
        "ALUMINUM_6061",
        "EN AW-6061",
        "AlMg1SiCu",
        "3.3211",
        "AA6061",
        "AA 6061",
        "6061-T6",
        "6061",
      ],
      "aluminium-7075": ["aluminum-7075", "EN AW-7075", "AlZn5.5MgCu", "3.4365", "AA7075", "7075 T651"],
      "steel-c45": ["C45", "c45", "1.0503", "AISI 1045", "SAE 1045", "Ck45"],
      "steel-42crmo4": ["42CrMo4", "1.7225", "AISI 4140", "4140"],
      "stainless-1.4301": ["1.4301", "X5CrNi18-10", "AISI 304", "SS304", "ss-304", "V2A"],
      "brass-cuzn39pb3": ["CuZn39Pb3", "CW614N", "2.0401", "C38500", "Ms58"],
      "titanium-grade5": ["Ti-6Al-4V", "TiAl6V4", "3.7165", "Ti64", "grade 5", "UNS R56400"],
      "plastic-pom-c": ["POM-C", "POM", "acetal"],
      "plastic-peek": ["PEEK", "peek"],
    };
    for (const [id, names] of Object.entries(expected)) {
      for (const sent of names) assert.deepEqual(resolve(sent), { kind: "alias", id, sent }, sent);
    }
  });

  it("has no name that two seeded materials share, and aliases only for seeded ids", () => {
    const owner = new Map<string, string>();
    for (const m of MATERIALS) {
      for (const name of [m.id, m.name, ...m.designations, ...(MATERIAL_ALIASES[m.id] ?? [])]) {
        const key = materialKey(name);
        assert.ok(key.length > 0, name);
        assert.ok(
          owner.get(key) === undefined || owner.get(key) === m.id,
          `${name} names ${owner.get(key)} and ${m.id}`,
        );
        owner.set(key, m.id);
      }
    }
    const ids = new Set(MATERIALS.map((m) => m.id));
    for (const id of Object.keys(MATERIAL_ALIASES)) assert.ok(ids.has(id), id);
  });

  it("answers an unknown value with the nearest ids, a near miss first", () => {
    assert.deepEqual(resolve("alumnium-6061"), {
      kind: "unknown",
      sent: "alumnium-6061",
      nearest: ["aluminium-6061", "aluminium-7075", "steel-c45"],
    });
    const bare = resolve("aluminium");
    assert.equal(bare.kind, "unknown", "two aluminium alloys: the client chooses");
    assert.deepEqual(bare.kind === "unknown" ? bare.nearest.slice(0, 2).sort() : [], [
      "aluminium-6061",
      "aluminium-7075",
    ]);
    const inconel = resolve("Inconel 718");
    assert.equal(inconel.kind === "unknown" ? inconel.nearest.length : 0, 3);
    assert.equal(resolve("stainless 316").kind, "unknown", "316 is not 304");
  });

  it("takes a material the user may use by its own id before an alias, and calls a name two of them share unknown", () => {
    const granted: MaterialNames[] = [...seeded, { id: "304", name: "Customer's 304 stock", designations: ["1.4301"] }];
    assert.deepEqual(resolveMaterialId("304", granted), { kind: "id", id: "304" });
    assert.deepEqual(resolveMaterialId("1.4301", granted), {
      kind: "unknown",
      sent: "1.4301",
      nearest: ["stainless-1.4301", "304"],
    });
  });

  it("counts edits: insertions, deletions and substitutions", () => {
    assert.equal(editDistance("", "abc"), 3);
    assert.equal(editDistance("kitten", "sitting"), 3);
    assert.equal(editDistance("c45", "c45"), 0);
  });
});
