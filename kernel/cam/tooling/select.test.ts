import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Feature } from "../../features/recognition/types.ts";
import { drillTipDepth } from "../holes/depths.ts";
import {
  holeNeedFor,
  millingNeedFor,
  selectChamferMill,
  selectDrill,
  selectEndMill,
  selectFaceMill,
  selectHoleTools,
  type MillingNeed,
} from "./select.ts";
import { cutterOf, cutters, holeNeed } from "./test-library.ts";

const endMills = cutters(
  "SSR-EM3-0600-K-TA",
  "SSR-EM3-0800-K-TA",
  "SSR-EM3-1000-K-TA",
  "SSR-EM3-1200-K-TA",
  "SSR-EM3-1600-K-TA",
);

function pocket(overrides: Partial<MillingNeed> = {}): MillingNeed {
  return {
    feature: { id: 4, class: "rectangular_pocket" },
    depth_mm: 10,
    min_internal_corner_radius_mm: 5,
    min_width_mm: 40,
    open_sides: false,
    ...overrides,
  };
}

const hole = holeNeed;

describe("end mills for pockets", () => {
  it("picks the largest end mill whose radius is at most the pocket's corner radius: 10 mm for R5, 8 mm for R4.5", () => {
    const r5 = selectEndMill(endMills, pocket(), "finishing");
    assert.ok(r5.ok);
    assert.equal(r5.cutter.diameter, 10);
    assert.equal(r5.rest_machining, false);
    const r45 = selectEndMill(endMills, pocket({ min_internal_corner_radius_mm: 4.5 }), "finishing");
    assert.ok(r45.ok);
    assert.equal(r45.cutter.diameter, 8);
  });

  it("roughs with the largest end mill under the width and leaves the corners to rest machining", () => {
    const rough = selectEndMill(endMills, pocket({ min_internal_corner_radius_mm: 4, min_width_mm: 14 }), "roughing");
    assert.ok(rough.ok);
    assert.equal(rough.cutter.diameter, 12);
    assert.equal(rough.rest_machining, true);
    assert.match(rough.notes[0] ?? "", /feature 4 .* 4 mm radius .* rest machining/);
  });

  it("refuses with no_tool_fits naming the feature and its 3 mm corner radius when the library's end mills are 10 mm and up", () => {
    const big = cutters("SSR-EM3-1000-K-TA", "SSR-EM3-1200-K-TA");
    const choice = selectEndMill(big, pocket({ min_internal_corner_radius_mm: 3 }), "finishing");
    assert.equal(choice.ok, false);
    if (choice.ok) return;
    assert.equal(choice.code, "no_tool_fits");
    assert.equal(choice.limit, "corner_radius");
    assert.deepEqual(choice.features, [4]);
    assert.match(choice.message, /feature 4 \(rectangular pocket\)/);
    assert.match(choice.message, /3 mm radius and the smallest end mill is 10 mm .* at most 6 mm/);
  });

  it("names the width, the depth and the holder as the limit when they are what no tool meets", () => {
    const narrow = selectEndMill(
      cutters("SSR-EM3-0800-K-TA", "SSR-EM3-1000-K-TA"),
      pocket({ min_width_mm: 6, min_internal_corner_radius_mm: null }),
      "roughing",
    );
    assert.ok(!narrow.ok && narrow.limit === "width" && /6 mm wide .* smallest end mill is 8 mm/.test(narrow.message));
    const deep = selectEndMill(endMills, pocket({ depth_mm: 25 }), "finishing");
    assert.ok(!deep.ok && deep.limit === "depth", JSON.stringify(deep));
    // the long series reaches 22 mm: a 20 mm deep pocket takes it, not the short 10 mm
    const long = selectEndMill([...endMills, cutterOf("SSR-EM3-1000-L-TA")], pocket({ depth_mm: 20 }), "finishing");
    assert.ok(long.ok && long.cutter.flute_length === 22);
    const buried = selectEndMill(endMills, pocket({ clearance_depth_mm: 120 }), "finishing");
    assert.ok(!buried.ok && buried.limit === "holder_clearance");
  });

  it("says the library has no end mill at all with no_tool_of_kind", () => {
    const none = selectEndMill(cutters("SSR-DR338-0680-HSS"), pocket(), "finishing");
    assert.ok(!none.ok && none.code === "no_tool_of_kind");
  });

  it("reads the needs from a recognised feature", () => {
    const feature: Feature = {
      id: 3,
      class: "rectangular_pocket",
      faces: [1, 2],
      access_direction: [0, 0, 1],
      other_access_directions: [],
      depth_mm: 12,
      floor_faces: [1],
      wall_faces: [2],
      min_internal_corner_radius_mm: 2.5,
      min_width_mm: 20,
      open_sides: [],
      reasons: [],
    };
    assert.deepEqual(millingNeedFor(feature, 15), {
      feature: { id: 3, class: "rectangular_pocket" },
      depth_mm: 12,
      min_internal_corner_radius_mm: 2.5,
      min_width_mm: 20,
      open_sides: false,
      clearance_depth_mm: 15,
    });
  });
});

describe("tools for holes", () => {
  const holeLibrary = cutters(
    "SSR-DR338-0650-HSS",
    "SSR-DR338-0680-HSS",
    "SSR-DR338-0700-HSS",
    "SSR-DR6537K-0680-EX",
    "SSR-SP090-1000-VHM",
    "SSR-SP142-0800-VHM",
    "SSR-TP-M8X100-SF-HSSE",
    "SSR-TP-M8X125-SF-HSSE",
    "SSR-EM3-0600-K-TA",
  );

  it("matches a 6.8 mm drill, a 142° spot drill and an M8 tap for an M8 tap hole", () => {
    const tools = selectHoleTools(holeLibrary, hole({ thread: { pitch_mm: 1.25 } }));
    assert.ok(tools.ok);
    assert.equal(tools.method, "drill");
    assert.equal(tools.drill?.diameter, 6.8);
    // the carbide drill (140° point) before the HSS one of the same size; its spot drill at least as blunt
    assert.equal(tools.drill?.tool_material, "carbide");
    assert.equal(tools.spot?.tip_angle_deg, 142);
    assert.deepEqual([tools.tap?.diameter, tools.tap?.pitch_mm], [8, 1.25]);
    assert.deepEqual(tools.unmachined, []);
  });

  it("bores a flat-bottomed blind hole to its bottom with an end mill after the drill, and a drilled-point one not", () => {
    const flat = selectHoleTools(holeLibrary, hole({ diameter_mm: 7, depth_mm: 10, drill_point_angle_deg: null }));
    assert.ok(flat.ok);
    assert.deepEqual([flat.method, flat.drill?.diameter, flat.end_mill?.diameter], ["drill", 7, 6]);
    const pointed = selectHoleTools(holeLibrary, hole({ diameter_mm: 7, depth_mm: 10 }));
    assert.ok(pointed.ok);
    assert.equal(pointed.end_mill, null);
  });

  it("takes the coarse M8 for a 6.8 mm thread of unknown pitch, and no tap for a thread of 1.5 mm pitch", () => {
    const coarse = selectHoleTools(holeLibrary, hole({ thread: { pitch_mm: null } }));
    assert.ok(coarse.ok && coarse.tap?.pitch_mm === 1.25);
    const odd = selectHoleTools(holeLibrary, hole({ thread: { pitch_mm: 1.5 } }));
    assert.ok(odd.ok && odd.tap === null);
    assert.equal(odd.unmachined[0]?.limit, "thread");
  });

  it("drills a blind hole's full diameter to the shoulder with a 140° drill in a 118° model, 3.4 / tan 70° below it", () => {
    const drill = selectDrill(holeLibrary, hole());
    assert.ok(drill.ok);
    const tip = drillTipDepth(hole(), drill.cutter);
    assert.ok(Math.abs(tip.depth_mm - (20 + 3.4 / Math.tan((70 * Math.PI) / 180))) < 1e-9);
    assert.equal(tip.shortfall_mm, 0);
  });

  it("refuses a drill 0.2 mm too large and takes one 0.1 mm larger (H11 +0/+0.1)", () => {
    const lib = cutters("SSR-DR338-0700-HSS");
    assert.equal(selectDrill(lib, hole({ diameter_mm: 6.9 })).ok, true);
    const refused = selectDrill(lib, hole({ diameter_mm: 6.8 }));
    assert.ok(
      !refused.ok && refused.limit === "diameter" && /6.795 to 6.9 mm; the nearest is 7 mm/.test(refused.message),
    );
  });

  it("bores an 11.3 mm hole helically with the 10 mm end mill when no drill matches", () => {
    const lib = cutters(
      "SSR-DR338-1000-HSS",
      "SSR-DR338-1200-HSS",
      "SSR-SP090-1000-VHM",
      "SSR-EM3-0800-K-TA",
      "SSR-EM3-1000-K-TA",
      "SSR-EM3-1200-K-TA",
    );
    const tools = selectHoleTools(
      lib,
      hole({
        feature: { id: 9, class: "through_hole" },
        diameter_mm: 11.3,
        depth_mm: 12,
        through: true,
        drill_point_angle_deg: null,
      }),
    );
    assert.ok(tools.ok);
    assert.equal(tools.method, "helical");
    assert.equal(tools.end_mill?.diameter, 10);
    assert.equal(tools.drill, null);
    assert.equal(tools.spot, null);
    assert.match(tools.notes.join(" "), /no drill of 11.3 mm .* 10 mm end mill/);
  });

  it("reams a 10 mm through hole with a 9.8 mm pre-drill when the library has a 10 mm reamer and no 10 mm drill", () => {
    const lib = cutters("SSR-DR338-0980-HSS", "SSR-DR338-0950-HSS", "SSR-RM-1000-H7", "SSR-SP090-1000-VHM");
    const tools = selectHoleTools(lib, hole({ diameter_mm: 10, depth_mm: 15, through: true }));
    assert.ok(tools.ok);
    assert.deepEqual(
      [tools.method, tools.drill?.diameter, tools.reamer?.diameter, tools.spot?.diameter],
      ["drill_and_ream", 9.8, 10, 10],
    );
  });

  describe("a bore's PMI callout", () => {
    const lib = cutters(
      "SSR-DR338-0980-HSS",
      "SSR-DR338-1000-HSS",
      "SSR-RM-1000-H7",
      "SSR-SP090-1000-VHM",
      "SSR-EM3-0600-K-TA",
    );
    const h7 = { min_mm: 10, max_mm: 10.015, fit: "H7", label: "⌀10 H7 (10 to 10.015 mm, PMI #12)" };
    const loose = { min_mm: 9.85, max_mm: 10.15, fit: null, label: "⌀10 ±0.15 (9.85 to 10.15 mm, PMI #13)" };

    it("reams an H7 through hole though a 10 mm drill is in the library, and says which callout chose it", () => {
      const tools = selectHoleTools(lib, hole({ diameter_mm: 10, depth_mm: 15, through: true, callout: h7 }));
      assert.ok(tools.ok);
      assert.deepEqual([tools.method, tools.drill?.diameter, tools.reamer?.diameter], ["drill_and_ream", 9.8, 10]);
      const decision = tools.warnings.find((w) => w.code === "pmi_hole_method");
      assert.match(
        decision?.message ?? "",
        /⌀10 H7 \(10 to 10.015 mm, PMI #12\) is tighter than a drill holds .* reamed with the 10 mm reamer/,
      );
    });

    it("drills a hole whose callout a drill holds (±0.15 mm)", () => {
      const tools = selectHoleTools(lib, hole({ diameter_mm: 10, depth_mm: 15, through: true, callout: loose }));
      assert.ok(tools.ok);
      assert.deepEqual([tools.method, tools.drill?.diameter, tools.reamer], ["drill", 10, null]);
      assert.ok(!tools.warnings.some((w) => w.code === "pmi_hole_method"));
    });

    it("bores a tight blind hole helically (a reamer cannot finish a blind bottom)", () => {
      const tools = selectHoleTools(lib, hole({ diameter_mm: 10, depth_mm: 8, through: false, callout: h7 }));
      assert.ok(tools.ok);
      assert.deepEqual([tools.method, tools.end_mill?.diameter, tools.drill], ["helical", 6, null]);
      assert.match(
        tools.warnings.find((w) => w.code === "pmi_hole_method")?.message ?? "",
        /bored helically with the 6 mm end mill/,
      );
    });

    it("drills a tight hole when nothing else can make it, and warns that the callout is not held", () => {
      const tools = selectHoleTools(
        cutters("SSR-DR338-1000-HSS"),
        hole({ diameter_mm: 10, depth_mm: 15, through: true, callout: h7 }),
      );
      assert.ok(tools.ok);
      assert.equal(tools.method, "drill");
      assert.match(tools.warnings.find((w) => w.code === "callout_not_held")?.message ?? "", /PMI #12.* only drilled/);
    });
  });

  it("refuses a hole neither drilled nor bored, with both reasons", () => {
    const refused = selectHoleTools(cutters("SSR-DR338-1000-HSS", "SSR-EM3-1200-K-TA"), hole({ diameter_mm: 11.3 }));
    assert.ok(!refused.ok);
    assert.match(
      refused.message,
      /drill .* Nor can it be bored helically: .* at most 10.735 mm and the smallest is 12 mm/,
    );
  });

  it("warns when the library has no spot drill, and picks a counterbore end mill and a countersink mill", () => {
    const lib = cutters("SSR-DR338-0660-HSS", "SSR-EM3-1000-K-TA", "SSR-CH045-1000-Z4-TA", "SSR-CH045-1600-Z4-TA");
    const tools = selectHoleTools(
      lib,
      hole({
        diameter_mm: 6.6,
        depth_mm: 20,
        through: true,
        counterbore: { diameter_mm: 11, depth_mm: 6.4 },
        countersink: null,
      }),
    );
    assert.ok(tools.ok);
    assert.equal(tools.warnings[0]?.code, "no_spot_drill");
    assert.equal(tools.counterbore?.diameter, 10);
    const sunk = selectHoleTools(
      lib,
      hole({ diameter_mm: 6.6, through: true, countersink: { diameter_mm: 12.4, angle_deg: 90 } }),
    );
    assert.ok(sunk.ok);
    // the 16 mm mill plunges the 12.4 mm countersink; the 10 mm one would have to circle
    assert.equal(sunk.countersink?.diameter, 16);
  });

  it("reads a hole feature's needs", () => {
    const feature: Feature = {
      id: 2,
      class: "through_hole",
      faces: [5],
      access_direction: [0, 0, 1],
      other_access_directions: [[0, 0, -1]],
      depth_mm: 20,
      floor_faces: [],
      wall_faces: [5],
      min_internal_corner_radius_mm: null,
      min_width_mm: 6.8,
      open_sides: [],
      reasons: [],
      hole: {
        diameter_mm: 6.8,
        depth_mm: 20,
        through: true,
        thread: { modelled: true, pitch_mm: 1.25 },
        axis: { origin: [0, 0, 0], direction: [0, 0, 1] },
      },
    };
    const need = holeNeedFor(feature);
    assert.deepEqual(need, {
      feature: { id: 2, class: "through_hole" },
      diameter_mm: 6.8,
      depth_mm: 20,
      through: true,
      drill_point_angle_deg: null,
      counterbore: null,
      countersink: null,
      thread: { pitch_mm: 1.25 },
    });
  });
});

describe("chamfer mills and face mills", () => {
  const chamferMills = cutters("SSR-CH045-0600-Z4-TA", "SSR-CH045-1000-Z4-TA", "SSR-CH030-1000-Z4-TA");
  const feature = { id: 11, class: "chamfer" };

  it("takes the smallest 45° chamfer mill whose cone spans a 1 mm chamfer with 0.2 mm to spare at each end", () => {
    const choice = selectChamferMill(chamferMills, { feature, angle_to_axis_deg: 45, width_mm: 1 });
    assert.ok(choice.ok && choice.cutter.diameter === 6);
    // 4 mm across at 45° is 2.83 mm radially: more than the 6 mm mill's 2.75 mm cone less 0.4
    const wide = selectChamferMill(chamferMills, { feature, angle_to_axis_deg: 45, width_mm: 4 });
    assert.ok(wide.ok && wide.cutter.diameter === 10);
    const tooWide = selectChamferMill(chamferMills, { feature, angle_to_axis_deg: 45, width_mm: 7 });
    assert.ok(!tooWide.ok && tooWide.limit === "chamfer_width");
  });

  it("refuses a 60° chamfer with chamfer mills of 30° and 45°", () => {
    const choice = selectChamferMill(chamferMills, { feature, angle_to_axis_deg: 60, width_mm: 1 });
    assert.ok(
      !choice.ok &&
        choice.limit === "chamfer_angle" &&
        /60° to the tool axis and the chamfer mills are at 30°, 45°/.test(choice.message),
    );
  });

  it("faces a 50 mm wide top with the 63 mm face mill, and with the largest end mill when there is no face mill", () => {
    const faceMills = cutters("SSR-FM45-050-Z04", "SSR-FM45-063-Z05", "SSR-FM90-100-Z07");
    const top = { feature: { id: 0, class: "stock" }, width_mm: 50 };
    const face = selectFaceMill(faceMills, top);
    assert.ok(face.ok && face.cutter.diameter === 63);
    const fallback = selectFaceMill(endMills, top);
    assert.ok(fallback.ok && fallback.cutter.diameter === 16 && /no face mill/.test(fallback.notes[0] ?? ""));
  });
});
