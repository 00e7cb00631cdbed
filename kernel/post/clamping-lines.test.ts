import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { WorkholdingSummary } from "../cam/plan-types.ts";
import type { Box3 } from "../cam/types.ts";
import { CLAMPING_LINE_MAX, clampingLines, wrappedPhrases } from "./clamping-lines.ts";
import { formatNumber } from "./numbers.ts";

const threeDecimals = (value: number): string => formatNumber(value, 3, false);

/** every figure as long as three decimals and a sign make it within a metre of the work offset */
const WIDE = -999.999;

function vise(overrides: Partial<WorkholdingSummary> = {}): WorkholdingSummary {
  return {
    type: "vise",
    soft_jaws: false,
    jaws: [
      { min: [-30.25, 48.6, -72.5], max: [119.75, 68.6, -27.5] },
      { min: [-30.25, -20, -72.5], max: [119.75, 0, -27.5] },
    ],
    supports: [],
    clamps: [],
    grip_axis: "y",
    grip_mm: 5,
    parallel_height_mm: 40,
    opening_mm: 48.6,
    stick_out_mm: 27.5,
    clamped: { description: "the blank's two sides below the part", grips: "stock", faces: [], features: [] },
    ...overrides,
  };
}

describe("the setter's clamping lines", () => {
  it("say what holds the stock, which faces, how deep, on what, how far out, and where the jaws are", () => {
    assert.deepEqual(clampingLines(vise(), threeDecimals), [
      "Vise, jaws 150 wide, set opening 48.6",
      "Gripping the blank's two sides below the part",
      "Jaws on Y- and Y+ faces, grip 5 deep",
      "On parallels 40, stick-out 27.5 above the jaws",
      "Fixed jaw X-30.25..119.75 Y48.6..68.6",
      "Moving jaw X-30.25..119.75 Y-20..0",
      "Jaws Z-72.5..-27.5",
    ]);
  });

  it("name the X faces, soft jaws and the ways when the setup is held so", () => {
    const lines = clampingLines(
      vise({
        soft_jaws: true,
        grip_axis: "x",
        parallel_height_mm: 0,
        jaws: [{ min: [-20, -50, -45], max: [0, 100, 0] }],
      }),
      threeDecimals,
    );
    assert.equal(lines[0], "Vise, soft jaws 150 wide, set opening 48.6");
    assert.equal(lines[2], "Jaws on X- and X+ faces, grip 5 deep");
    assert.equal(lines[3], "On the ways, stick-out 27.5 above the jaws");
  });

  it("set the faces gripped off with commas, as every control's comment keeps them", () => {
    const clamped = {
      description: "the part's -Y and +Y sides (faces 1 and 4), finished in setup +Z",
      grips: "part" as const,
      faces: [1, 4],
      features: [],
    };
    assert.deepEqual(clampingLines(vise({ clamped }), threeDecimals).slice(1, 3), [
      "Gripping the part's -Y and +Y sides, faces 1 and 4, finished",
      "in setup +Z",
    ]);
  });

  it("say which way round the part goes in, in its own sides, and which side the fixed jaw takes", () => {
    const orientation = { up: "-Y", right: "+X", back: "+Z" };
    assert.deepEqual(clampingLines(vise({ orientation }), threeDecimals).slice(0, 3), [
      "Vise, jaws 150 wide, set opening 48.6",
      "Part -Y side up, +X to the right, +Z to the back",
      "Fixed jaw on the part's +Z side",
    ]);
    // across x the fixed jaw is on the right (vise-geometry.ts, swapped)
    const across = clampingLines(vise({ orientation, grip_axis: "x" }), threeDecimals);
    assert.equal(across[2], "Fixed jaw on the part's +X side");
  });

  it("give a fixture plate's size, its edge clamps one by one and the plate's place", () => {
    const lines = clampingLines(
      vise({
        type: "fixture_plate",
        jaws: [],
        supports: [{ min: [-150, -180, -44.5], max: [250, 220, -32.5] }],
        clamps: [
          { min: [20, 46.6, -32.5], max: [40, 96.6, -12.5] },
          { min: [20, -50, -32.5], max: [40, 0, -12.5] },
        ],
        grip_mm: 20,
        parallel_height_mm: 0,
        opening_mm: null,
        stick_out_mm: 12.5,
      }),
      threeDecimals,
    );
    assert.deepEqual(lines, [
      "Fixture plate 400 x 400, 2 edge clamps 20 high",
      "Gripping the blank's two sides below the part",
      "Clamps on Y- and Y+ faces, grip 20 deep",
      "On the plate, stick-out 12.5 above the clamps",
      "Plate X-150..250 Y-180..220",
      "Clamp 1 X20..40 Y46.6..96.6",
      "Clamp 2 X20..40 Y-50..0",
      "Clamps Z-32.5..-12.5",
    ]);
  });

  it("name the machine's table where the workholding could not hold the setup", () => {
    const lines = clampingLines(
      vise({
        type: "machine_table",
        jaws: [],
        supports: [{ min: [-96, -21, -57.5], max: [904, 479, -32.5] }],
        clamps: [{ min: [808, 200, -32.5], max: [858, 220, -22.5] }],
        grip_axis: "x",
        grip_mm: 10,
        parallel_height_mm: 0,
        opening_mm: null,
        stick_out_mm: 22.5,
      }),
      threeDecimals,
    );
    assert.deepEqual(lines.slice(0, 5), [
      "Machine table 1000 x 500, 1 edge clamps 10 high",
      "Gripping the blank's two sides below the part",
      "Clamps on X- and X+ faces, grip 10 deep",
      "On the table, stick-out 22.5 above the clamps",
      "Table X-96..904 Y-21..479",
    ]);
  });

  it("fit the narrowest comment with the longest figures, wrapping a long description at a space", () => {
    const box: Box3 = { min: [WIDE, WIDE, WIDE], max: [WIDE, WIDE, WIDE] };
    const description = "faces 112, 131, 140 and 141 of the part, finished in setup 12 with the jaws on the other side";
    for (const summary of [
      vise({
        soft_jaws: true,
        jaws: [box, box],
        grip_mm: 999.999,
        parallel_height_mm: 999.999,
        opening_mm: 999.999,
        stick_out_mm: WIDE,
        clamped: { description, grips: "part", faces: [112, 131], features: [] },
      }),
      vise({
        type: "fixture_plate",
        supports: [{ min: [WIDE, WIDE, WIDE], max: [999.999, 999.999, WIDE] }],
        clamps: Array.from({ length: 16 }, () => ({ min: box.min, max: [WIDE, WIDE, 999.999] as Box3["max"] })),
        parallel_height_mm: 999.999,
      }),
    ]) {
      const lines = clampingLines(summary, threeDecimals);
      for (const line of lines) assert.ok(line.length <= CLAMPING_LINE_MAX, `${line}: ${line.length} characters`);
      if (summary.type === "vise")
        assert.equal(lines.slice(1, 3).join(" "), `Gripping ${description}`, "every word of the description");
    }
  });
});

describe("lines of phrases", () => {
  it("break only between phrases, so a label stays with its value", () => {
    const lines = wrappedPhrases(["T12 Flat end mill D10 R0 3 flutes", "stick-out 48.125", "Z min -14.992"]);
    assert.deepEqual(lines, ["T12 Flat end mill D10 R0 3 flutes, stick-out 48.125,", "Z min -14.992"]);
    for (const line of lines) assert.ok(line.length <= CLAMPING_LINE_MAX, line);
  });

  it("wrap a phrase longer than a line at its words", () => {
    const long = "word ".repeat(20).trim();
    const lines = wrappedPhrases(["short", long, "end"]);
    assert.equal(lines.join(" "), `short, ${long}, end`);
    for (const line of lines) assert.ok(line.length <= CLAMPING_LINE_MAX, line);
  });
});
