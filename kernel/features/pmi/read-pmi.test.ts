/**
 * Semantic PMI of the three NIST AP242 parts, compared with the callouts their STEP text holds
 * (the entity numbers are the files'): sizes with deviations, limits and fit classes, geometric
 * tolerances with datums and modifiers, and the ADVANCED_FACEs each applies to; inches converted.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixture, text } from "../../geometry/test-support.ts";
import { readPmi } from "./read-pmi.ts";
import type { PmiDimension, PmiGeometricTolerance, PmiRead } from "./types.ts";

const read = (name: string) => readPmi(text(fixture(name)));
const dimension = (pmi: PmiRead, entity: number) =>
  pmi.records.find((record): record is PmiDimension => record.kind === "dimension" && record.entity === entity);
const tolerance = (pmi: PmiRead, entity: number) =>
  pmi.records.find(
    (record): record is PmiGeometricTolerance => record.kind === "geometric_tolerance" && record.entity === entity,
  );
const counts = (pmi: PmiRead) => ({
  sizes: pmi.records.filter((record) => record.kind === "dimension" && record.dimension === "size").length,
  locations: pmi.records.filter((record) => record.kind === "dimension" && record.dimension === "location").length,
  tolerances: pmi.records.filter((record) => record.kind === "geometric_tolerance").length,
});

describe("readPmi on the NIST parts", () => {
  it("CTC-01: diameters with deviations and with limits, an angle in degrees, tolerances with datums A|B|C", () => {
    const pmi = read("nist_ctc_01_asme1_ap242-e1.stp");
    // 9 DIMENSIONAL_SIZE, 2 DIMENSIONAL_LOCATION and 1 ANGULAR_LOCATION, 6 geometric tolerances
    assert.deepEqual(counts(pmi), { sizes: 9, locations: 3, tolerances: 6 });
    // #122=DIMENSIONAL_SIZE(#221,'diameter'), 20 -0.1/+0.05 (#66=PLUS_MINUS_TOLERANCE(#60,#122))
    assert.deepEqual(dimension(pmi, 122), {
      kind: "dimension",
      entity: 122,
      dimension: "size",
      name: "diameter",
      nominal: 20,
      unit: "mm",
      plusMinus: { lower: -0.1, upper: 0.05 },
      limits: null,
      fit: null,
      faces: [816, 817],
    });
    // 35 given as limits 34.8 and 35.2 ('upper limit', 'lower limit' items)
    assert.deepEqual(dimension(pmi, 124)?.limits, { lower: 34.8, upper: 35.2 });
    const angle = dimension(pmi, 33);
    assert.equal(angle?.unit, "deg");
    assert.ok(Math.abs((angle?.nominal ?? 0) - 60) < 1e-9);
    // #56=PERPENDICULARITY_TOLERANCE('Perpendicularity.1','',#83,#298,(#51)): 1.5 to datum A
    assert.deepEqual(tolerance(pmi, 56), {
      kind: "geometric_tolerance",
      entity: 56,
      characteristic: "perpendicularity",
      value: 1.5,
      modifiers: [],
      datums: ["A"],
      name: "Perpendicularity.1",
      faces: [788],
    });
    // a complex GEOMETRIC_TOLERANCE ... POSITION_TOLERANCE() instance
    assert.equal(tolerance(pmi, 21)?.characteristic, "position");
    assert.deepEqual(tolerance(pmi, 21)?.datums, ["A", "B", "C"]);
  });

  it("FTC-10: three ⌀3.5 G6 holes (LIMITS_AND_FITS), pattern callouts on every hole's faces, MMC and LMC modifiers", () => {
    const pmi = read("nist_ftc_10_asme1_ap242-e2.stp");
    assert.deepEqual(counts(pmi), { sizes: 19, locations: 7, tolerances: 40 });
    const fits = pmi.records.filter(
      (record): record is PmiDimension => record.kind === "dimension" && record.fit !== null,
    );
    assert.deepEqual(
      fits.map((record) => [
        record.entity,
        record.nominal,
        record.fit?.designation,
        record.fit?.zone,
        record.faces.length,
      ]),
      [
        [20119, 3.5, "G6", "hole", 2],
        [20148, 3.5, "G6", "hole", 2],
        [20177, 3.5, "G6", "hole", 2],
      ],
    );
    // 16X ⌀2.5 ±0.15: one callout, the two half-cylinders of each of eight holes
    const pattern = dimension(pmi, 19877);
    assert.equal(pattern?.nominal, 2.5);
    assert.equal(pattern?.faces.length, 16);
    assert.deepEqual(tolerance(pmi, 19313)?.modifiers, ["MAXIMUM_MATERIAL_REQUIREMENT"]);
    assert.deepEqual(tolerance(pmi, 19372)?.modifiers, ["LEAST_MATERIAL_REQUIREMENT"]);
    // no thread or surface texture is written as semantic PMI in this file
    assert.deepEqual(pmi.unread, []);
  });

  it("STC-06: inch values in mm (0.8125 in ±0.02 in is 20.6375 ±0.508 mm)", () => {
    const pmi = read("nist_stc_06_asme1_ap242-e3.stp");
    assert.deepEqual(counts(pmi), { sizes: 14, locations: 3, tolerances: 25 });
    const counterbore = dimension(pmi, 8621);
    assert.equal(counterbore?.nominal, 20.6375);
    assert.deepEqual(counterbore?.plusMinus, { lower: -0.508, upper: 0.508 });
    assert.equal(dimension(pmi, 8982)?.nominal, 10.541);
    assert.equal(tolerance(pmi, 10006)?.value, 0.635);
  });

  it("every face a record names is an ADVANCED_FACE of the file", () => {
    for (const name of [
      "nist_ctc_01_asme1_ap242-e1.stp",
      "nist_ftc_10_asme1_ap242-e2.stp",
      "nist_stc_06_asme1_ap242-e3.stp",
    ]) {
      const source = text(fixture(name));
      const faces = new Set([...source.matchAll(/#(\d+)\s*=\s*ADVANCED_FACE\(/g)].map((match) => Number(match[1])));
      for (const record of readPmi(source).records)
        for (const face of record.faces) assert.ok(faces.has(face), `${name}: #${record.entity} names #${face}`);
    }
  });
});
