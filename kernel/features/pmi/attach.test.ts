/**
 * PMI on the recognised holes of the NIST parts: each part read, analysed and recognised as the
 * service does (recogniseFile), its PMI read from the same file and attached by STEP entity. The
 * holes that carry which callout are those of the drawings (the callouts in the STEP text); the
 * bore's callout is set on the hole for the planner.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fixture, text } from "../../geometry/test-support.ts";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { recogniseFile } from "../setups/recognise-file.ts";
import { attachPmi, type PmiAttachment } from "./attach.ts";
import { readPmi } from "./read-pmi.ts";

const oc = await loadOpenCascade();

function attached(name: string) {
  const bytes = fixture(name);
  const file = recogniseFile(oc, bytes, { budgetMs: 60_000, setups: false });
  assert.ok(file.pmi, "recogniseFile attaches the file's PMI");
  // the same as attaching the records read on their own
  assert.deepEqual(file.pmi, attachPmi(readPmi(text(bytes)).records, file.analysis, file.recognition));
  const holes = file.recognition.features.filter((feature) => feature.hole);
  return { file, pmi: file.pmi, holes };
}

/** per hole with a callout: "class ⌀diameter: target nominal [min, max] fit" */
function holeCallouts(
  pmi: PmiAttachment,
  holes: { id: number; class: string; hole?: { diameter_mm: number } }[],
): string[] {
  return holes.flatMap((hole) => {
    const sizes = pmi.features.find((entry) => entry.feature === hole.id)?.holeSizes ?? [];
    if (sizes.length === 0) return [];
    const described = sizes
      .map(
        (size) => `${size.target} ${size.nominal_mm} [${size.min_mm}, ${size.max_mm}]${size.fit ? ` ${size.fit}` : ""}`,
      )
      .sort()
      .join("; ");
    return [`${hole.class} ⌀${hole.hole?.diameter_mm.toFixed(2)}: ${described}`];
  });
}

describe("attachPmi on the NIST parts", () => {
  it("CTC-01: 7 of its 10 holes carry their diameter tolerance, the ⌀35 ones as limits or deviations", () => {
    const { pmi, holes } = attached("nist_ctc_01_asme1_ap242-e1.stp");
    assert.equal(holes.length, 10);
    assert.deepEqual(holeCallouts(pmi, holes).sort(), [
      "blind_hole ⌀20.00: bore 20 [19.9, 20.05]",
      "blind_hole ⌀20.00: bore 20 [19.95, 20.1]",
      "through_hole ⌀25.00: bore 25 [24.85, 25.15]",
      "through_hole ⌀35.00: bore 35 [34.8, 35.2]",
      "through_hole ⌀35.00: bore 35 [34.8, 35.2]",
      "through_hole ⌀35.00: bore 35 [34.8, 35]",
      "through_hole ⌀35.00: bore 35 [35, 35.2]",
    ]);
    // every record's faces are faces of the part
    assert.ok(pmi.records.every((record) => record.faceIds.length === record.faces.length));
  });

  it("FTC-10: 24 of its 30 holes carry PMI; the three ⌀3.5 G6 holes get the class and its limits", () => {
    const { pmi, holes } = attached("nist_ftc_10_asme1_ap242-e2.stp");
    const callouts = holeCallouts(pmi, holes);
    assert.equal(holes.length, 30);
    assert.equal(callouts.length, 24);
    const fitted = callouts.filter((line) => line.includes("G6"));
    assert.deepEqual(fitted, new Array(3).fill("through_hole ⌀3.50: bore 3.5 [3.504, 3.511] G6"));
    // counterbored ⌀6 holes: the bore and the counterbore callouts told apart by diameter
    assert.equal(
      callouts.filter((line) => line === "through_hole ⌀6.00: bore 6 [5.85, 6.15]; counterbore 10 [9.75, 10.25]")
        .length,
      4,
    );
    // the tightest geometric tolerance on a G6 hole is its perpendicularity 0.12
    const g6 = pmi.features.filter((entry) => entry.holeSizes.some((size) => size.fit === "G6"));
    assert.deepEqual(
      g6.map((entry) => entry.tightestTolerance_mm),
      [0.12, 0.12, 0.12],
    );
    // the bore's callout on the feature, for the planner: the G6 band, the narrowest of its callouts
    const labels = holes.flatMap((hole) => (hole.hole?.callout?.fit ? [hole.hole.callout.label] : []));
    assert.deepEqual(labels.sort(), [
      "⌀3.5 G6 (3.504 to 3.511 mm, PMI #20119)",
      "⌀3.5 G6 (3.504 to 3.511 mm, PMI #20148)",
      "⌀3.5 G6 (3.504 to 3.511 mm, PMI #20177)",
    ]);
    assert.equal(holes.filter((hole) => hole.hole?.callout).length, 24);
  });

  it("STC-06: all 12 holes carry their inch callouts in mm, counterbores apart from bores", () => {
    const { pmi, holes } = attached("nist_stc_06_asme1_ap242-e3.stp");
    const callouts = holeCallouts(pmi, holes);
    assert.equal(holes.length, 12);
    assert.equal(callouts.length, 12);
    assert.equal(
      callouts.filter(
        (line) =>
          line === "through_hole ⌀14.29: bore 14.2875 [14.0843, 14.4907]; counterbore 20.6375 [20.1295, 21.1455]",
      ).length,
      2,
    );
  });
});
