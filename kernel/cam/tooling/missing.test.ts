import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DRILL_OVERSIZE_MM, DRILL_UNDERSIZE_MM, TAP_CORE_TOLERANCE } from "./select-holes.ts";
import { mergeToolsMissing, missingDrill, missingEndMill, threadOfBore, toolMissingEntry } from "./missing.ts";
import { selectHoleTools, type HoleNeed } from "./select.ts";
import { cutters, holeNeed } from "./test-library.ts";

const hole = (overrides: Partial<HoleNeed> = {}): HoleNeed =>
  holeNeed({ feature: { id: 12, class: "blind_hole" }, depth_mm: 18, ...overrides });

const bore = {
  feature: { id: 12, class: "blind_hole" },
  diameter_mm: 6.8,
  depth_mm: 18,
  undersize_mm: DRILL_UNDERSIZE_MM,
  oversize_mm: DRILL_OVERSIZE_MM,
  thread: null,
  tip_depth: null,
};

// a 10 mm end mill (too large to bore 6.8 mm helically), a 5 mm drill and a 6 mm spot drill
const tiny = cutters("SSR-EM3-1000-L-UC", "SSR-DR338-0500-HSCO", "SSR-SP090-0600-VHM");

describe("the tool a refusal would have used", () => {
  it("names the 6.8 mm drill of an M8 tapped hole the library cannot make, and the tap", () => {
    const refused = selectHoleTools(tiny, hole({ thread: { pitch_mm: 1.25 } }));
    assert.equal(refused.ok, false);
    if (refused.ok) return;
    assert.deepEqual(refused.missing, {
      tool_type: "Drill",
      diameter_mm: 6.8,
      size: "6.8 mm",
      purpose: "drill the tap holes of M8 threads",
      features: [12],
    });
    // with the drill there, the bore is made and the thread wants its tap
    const drilled = selectHoleTools([...tiny, ...cutters("SSR-DR338-0680-HSCO")], hole({ thread: { pitch_mm: 1.25 } }));
    assert.ok(drilled.ok);
    assert.equal(drilled.unmachined.length, 1);
    assert.deepEqual(drilled.unmachined[0]?.missing, {
      tool_type: "Tap",
      diameter_mm: 8,
      size: "M8",
      purpose: "tap M8 threads",
      features: [12],
    });
    // an unmodelled pitch: the coarse thread of that tap drill
    assert.equal(threadOfBore(6.8, null, TAP_CORE_TOLERANCE)?.nominal, 8);
    assert.equal(threadOfBore(8.8, null, TAP_CORE_TOLERANCE)?.pitch, 1.25, "M10x1.25's tap drill");
    assert.equal(threadOfBore(7.3, null, TAP_CORE_TOLERANCE), null, "no metric tap drill");
  });

  it("names a longer drill when length is what the library's drills lack, and none when the range has none that long", () => {
    const short = cutters("SSR-DR6537K-0500-EX", "SSR-EM3-0100-L-UC");
    const deep = selectHoleTools(short, hole({ diameter_mm: 5, depth_mm: 30 }));
    assert.equal(deep.ok, false);
    if (deep.ok) return;
    assert.equal(deep.limit, "depth");
    assert.deepEqual(deep.missing, {
      tool_type: "Drill",
      diameter_mm: 5,
      size: "5 mm",
      purpose: "drill 5 mm holes 30 mm deep",
      features: [12],
    });
    const deeper = selectHoleTools(short, hole({ diameter_mm: 5, depth_mm: 80 }));
    assert.ok(!deeper.ok && deeper.missing === undefined && deeper.code === "no_tool_fits");
  });

  it("names the end mill for a counterbore, the chamfer mill for a countersink and the spot drill a hole is drilled without", () => {
    const drills = cutters("SSR-DR338-0660-HSCO");
    const made = selectHoleTools(
      drills,
      hole({
        diameter_mm: 6.6,
        through: true,
        counterbore: { diameter_mm: 11, depth_mm: 6.4 },
        countersink: { diameter_mm: 13, angle_deg: 90 },
      }),
    );
    assert.ok(made.ok);
    const [counterbore, countersink] = made.unmachined;
    assert.equal(counterbore?.missing?.tool_type, "CentreCuttingEndMill");
    assert.equal(counterbore?.missing?.diameter_mm, 10, "the largest standard size of at most 0.95 x 11 mm");
    assert.equal(counterbore?.missing?.size, "10 mm (at most 10.45 mm)");
    assert.equal(countersink?.missing?.tool_type, "ChamferMill");
    assert.equal(countersink?.missing?.diameter_mm, 16, "plunges the 13 mm countersink whole");
    assert.deepEqual(
      made.missing.map((m) => [m.tool_type, m.diameter_mm]),
      [["SpotDrill", 8]],
    );
    assert.deepEqual(
      made.warnings.map((w) => w.code),
      ["no_spot_drill"],
    );
  });

  it("names only what the standard range makes: end mills of its sizes below the limit, drills in its window, reach it offers", () => {
    const endMill = (at_most_mm: number, reach_mm?: number) =>
      missingEndMill({ at_most_mm, ...(reach_mm === undefined ? {} : { reach_mm }), purpose: "finish", features: [] });
    assert.equal(endMill(4.2)?.size, "4 mm (at most 4.2 mm)");
    assert.equal(endMill(6)?.size, "6 mm");
    assert.equal(endMill(0.8), null, "the range's smallest end mill is 1 mm");
    assert.equal(endMill(8, 18)?.size, "8 mm reaching 18 mm", "the long series");
    assert.equal(
      endMill(2.8, 14)?.size,
      "2.5 mm (at most 2.8 mm) reaching 14 mm",
      "a 2.5 mm end mill's relieved neck reaches 15 mm",
    );
    assert.equal(
      endMill(2.8, 16)?.size,
      "2.5 mm (at most 2.8 mm) reaching 16 mm",
      "a long-neck 2.5 mm end mill reaches 20 mm",
    );
    assert.equal(endMill(2.8, 21), null);
    assert.equal(endMill(8, 87.6), null, "nothing of 8 mm or less reaches 87.6 mm");
    const drill = (diameter_mm: number) => missingDrill({ ...bore, diameter_mm })?.diameter_mm;
    assert.equal(drill(6.81), 6.9);
    assert.equal(drill(6.7999), 6.8);
    assert.equal(drill(31), undefined, "no drill of 31 mm in the range");
  });

  it("makes an unmachined tool_missing entry naming type and size, and merges records of one type and size", () => {
    const drill = missingDrill({ ...bore, thread: "M8" });
    assert.ok(drill);
    const entry = toolMissingEntry(
      drill,
      { features: [12], faces: [40, 41] },
      "No drill in the library fits feature 12.",
    );
    assert.deepEqual(entry, {
      code: "tool_missing",
      message:
        "Tool missing: Drill 6.8 mm to drill the tap holes of M8 threads (feature 12). No drill in the library fits feature 12.",
      features: [12],
      faces: [40, 41],
      volume_mm3: null,
    });
    const other = { ...drill, features: [3] };
    const plain = missingDrill({ ...bore, feature: { id: 9, class: "through_hole" } });
    const mill = missingEndMill({
      at_most_mm: 4.2,
      purpose: "mill rectangular through slots 4.2 mm wide",
      features: [{ id: 5, class: "rectangular_through_slot" }],
    });
    assert.ok(plain && mill);
    assert.deepEqual(mergeToolsMissing([drill, mill, other, plain, drill]), [
      {
        tool_type: "Drill",
        diameter_mm: 6.8,
        purpose: "drill the tap holes of M8 threads; drill 6.8 mm holes",
        features: [3, 9, 12],
      },
      {
        tool_type: "CentreCuttingEndMill",
        diameter_mm: 4,
        purpose: "mill rectangular through slots 4.2 mm wide",
        features: [5],
      },
    ]);
  });
});
