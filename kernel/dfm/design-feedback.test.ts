/**
 * Design feedback on parts built with OCCT, whose every number is known: a pocket beside the
 * block's side leaving a 0.5 mm wall, deep and narrow with sharp corners; a pocket with 1 mm
 * corner fillets; a 2 mm hole 25 mm deep. Then the rules fed by hand where the geometry cannot
 * easily give them (modelled threads, tilted-only features), and the parts again with the
 * limits of other materials and tool libraries.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TopoDS_Shape } from "opencascade.js/dist/node.js";
import type { Feature } from "../features/recognition/types.ts";
import { recogniseFile, type RecognisedFile } from "../features/setups/recognise-file.ts";
import type { SetupPlan } from "../features/setups/types.ts";
import { cut, makeBox, makeCylinder } from "../features/test-support.ts";
import { roundedPocket } from "../features/recognition/test-parts.ts";
import { writeBrep } from "../geometry/brep.ts";
import { withOcctScope, type OcctScope } from "../geometry/occt-scope.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import type { MaterialCategory } from "../materials/materials.ts";
import { designFeedback } from "./design-feedback.ts";
import { tiltedSetups } from "./reach.ts";
import { threadsWithoutTap } from "./threads.ts";
import type { DesignFeedbackItem, DfmTool } from "./types.ts";

const oc = await loadOpenCascade();

const endMill = (diameter_mm: number, reach_mm = 40): DfmTool => ({
  kind: "end_mill",
  diameter_mm,
  reach_mm,
  pitch_mm: null,
});
const LIBRARY: DfmTool[] = [endMill(1), endMill(3), endMill(6), endMill(10)];

function read(build: (scope: OcctScope) => TopoDS_Shape): RecognisedFile {
  const bytes = withOcctScope((scope) => writeBrep(oc, build(scope)));
  return recogniseFile(oc, bytes, { budgetMs: 60_000 });
}

function feedback(file: RecognisedFile, material: MaterialCategory | null, tools = LIBRARY): DesignFeedbackItem[] {
  assert.ok(file.mesh !== null);
  return designFeedback({
    analysis: file.analysis,
    recognition: file.recognition,
    setups: file.setups,
    mesh: file.mesh,
    material,
    tools,
  });
}

const planeAt = (file: RecognisedFile, axis: 0 | 1 | 2, value: number, sign: 1 | -1) =>
  file.analysis.faces.find(
    (f) => f.surface === "plane" && f.normal?.[axis] === sign && Math.abs(f.centroid[axis] - value) < 1e-6,
  )?.id;

/** 40 x 40 x 30 block; a pocket x 0.5..3.5, y 10..30, 20 deep from the top: a 0.5 mm wall at x = 0 */
const narrowPocket = (scope: OcctScope) =>
  cut(oc, scope, makeBox(oc, scope, [40, 40, 30]), makeBox(oc, scope, [3, 20, 21], [0.5, 10, 10]));

describe("design feedback on built parts", () => {
  const pocketed = read(narrowPocket);

  it("measures the 0.5 mm wall between the pocket and the block's side, thinner than aluminium's 0.8 mm", () => {
    const walls = feedback(pocketed, "aluminium").filter((i) => i.kind === "thin_wall");
    const outside = planeAt(pocketed, 0, 0, -1);
    const inside = planeAt(pocketed, 0, 0.5, 1);
    assert.ok(outside !== undefined && inside !== undefined);
    assert.equal(walls.length, 1, JSON.stringify(walls));
    assert.deepEqual(
      walls[0]!.faces,
      [outside, inside].sort((a, b) => a - b),
    );
    assert.equal(walls[0]!.measured?.value, 0.5);
    assert.deepEqual(walls[0]!.limit, { value: 0.8, unit: "mm" });
    assert.equal(walls[0]!.details.material, "aluminium");
  });

  it("keeps the wall for plastics (1.5 mm) and passes it for steel (0.5 mm is enough)", () => {
    assert.equal(feedback(pocketed, "plastic").filter((i) => i.kind === "thin_wall")[0]?.limit?.value, 1.5);
    assert.deepEqual(
      feedback(pocketed, "steel").filter((i) => i.kind === "thin_wall"),
      [],
    );
  });

  it("finds the pocket 20 mm deep, over four times its 3 mm width, with its feature and faces", () => {
    const deep = feedback(pocketed, "aluminium").filter((i) => i.kind === "deep_pocket");
    assert.equal(deep.length, 1, JSON.stringify(deep));
    const feature = pocketed.recognition.features[deep[0]!.feature!]!;
    assert.deepEqual(deep[0]!.faces, feature.faces);
    assert.equal(deep[0]!.measured?.value, 20);
    assert.equal(deep[0]!.limit?.value, 12);
    assert.equal(deep[0]!.details.width_mm, 3);
  });

  it("finds the pocket's sharp vertical corners, below the radius of the smallest end mill that reaches them", () => {
    const corners = feedback(pocketed, "aluminium").filter((i) => i.kind.startsWith("corner_radius"));
    assert.equal(corners.length, 1, JSON.stringify(corners));
    assert.equal(corners[0]!.kind, "corner_radius_below_tool");
    assert.equal(corners[0]!.severity, "error");
    assert.equal(corners[0]!.measured?.value, 0);
    assert.equal(corners[0]!.limit?.value, 0.5, "the 1 mm end mill reaches 20 mm");
    assert.equal(corners[0]!.details.corners, 4);
    // with a short 1 mm end mill the 3 mm one is the smallest that reaches the 20 mm corners
    const short = feedback(pocketed, "aluminium", [endMill(1, 6), endMill(3)]).find(
      (i) => i.kind === "corner_radius_below_tool",
    );
    assert.equal(short?.limit?.value, 1.5);
  });

  it("finds 1 mm corner fillets: a warning (an end mill under 3 mm) with a 1 mm tool, an error without one", () => {
    const filleted = read((scope) => roundedPocket(oc, scope, 1));
    const small = feedback(filleted, "aluminium").filter((i) => i.kind.startsWith("corner_radius"));
    assert.equal(small.length, 1, JSON.stringify(small));
    assert.equal(small[0]!.kind, "corner_radius_small");
    assert.equal(small[0]!.measured?.value, 1);
    assert.equal(small[0]!.limit?.value, 1.5);
    assert.equal(small[0]!.faces.length, 4, "the four fillets");
    assert.ok(small[0]!.faces.every((f) => filleted.analysis.faces[f]!.surface === "cylinder"));
    const without = feedback(filleted, "aluminium", [endMill(3), endMill(6)]).filter((i) =>
      i.kind.startsWith("corner"),
    );
    assert.equal(without[0]?.kind, "corner_radius_below_tool");
    assert.equal(without[0]?.limit?.value, 1.5);
    // 2 mm fillets (the default) need nothing special
    const roomy = read((scope) => roundedPocket(oc, scope));
    assert.deepEqual(
      feedback(roomy, "aluminium").filter((i) => i.kind.startsWith("corner")),
      [],
    );
  });

  it("finds a 2 mm hole 25 mm deep (over ten diameters), and not a 3 mm one", () => {
    const drilled = (radius: number) =>
      read((scope) =>
        cut(oc, scope, makeBox(oc, scope, [20, 20, 30]), makeCylinder(oc, scope, [10, 10, 5], [0, 0, 1], radius, 30)),
      );
    const deep = feedback(drilled(1), "aluminium").filter((i) => i.kind === "deep_hole");
    assert.equal(deep.length, 1, JSON.stringify(deep));
    assert.equal(deep[0]!.measured?.value, 25);
    assert.equal(deep[0]!.limit?.value, 20);
    assert.equal(deep[0]!.details.diameter_mm, 2);
    assert.deepEqual(
      feedback(drilled(1.5), "aluminium").filter((i) => i.kind === "deep_hole"),
      [],
    );
  });

  it("lists errors before warnings", () => {
    const items = feedback(pocketed, "aluminium");
    const firstWarning = items.findIndex((i) => i.severity === "warning");
    assert.ok(firstWarning > 0);
    assert.ok(items.slice(firstWarning).every((i) => i.severity === "warning"));
  });
});

describe("design feedback rules fed by hand", () => {
  const hole = (id: number, diameter: number, pitch: number | null): Feature => ({
    id,
    class: "blind_hole",
    faces: [id * 10, id * 10 + 1],
    access_direction: [0, 0, 1],
    other_access_directions: [],
    depth_mm: 12,
    floor_faces: [],
    wall_faces: [],
    min_internal_corner_radius_mm: null,
    min_width_mm: diameter,
    open_sides: [],
    hole: {
      diameter_mm: diameter,
      depth_mm: 12,
      through: false,
      thread: { modelled: true, pitch_mm: pitch },
      axis: { origin: [0, 0, 0], direction: [0, 0, 1] },
    },
    reasons: ["test"],
  });
  const taps: DfmTool[] = [
    { kind: "tap", diameter_mm: 8, reach_mm: 20, pitch_mm: 1.25 },
    { kind: "tap", diameter_mm: 6, reach_mm: 20, pitch_mm: 1 },
  ];

  it("finds a modelled thread no tap of the library cuts (M10's 8.5 mm core), not M8's 6.8 mm or M6's 5 mm", () => {
    const items = threadsWithoutTap([hole(1, 6.8, 1.25), hole(2, 8.5, null), hole(3, 5, null), hole(4, 6.8, 1)], taps);
    assert.deepEqual(
      items.map((i) => [i.feature, i.kind, i.severity, i.measured?.value]),
      [
        [2, "thread_without_tap", "error", 8.5],
        [4, "thread_without_tap", "error", 6.8],
      ],
    );
  });

  it("finds a feature only a direction off the box's axes reaches, with its tilt", () => {
    const tilt = Math.PI / 6;
    const setups: SetupPlan = {
      candidates: [
        { name: "+Z", direction: [0, 0, 1] },
        { name: "feature 3 (chamfer)", direction: [0, Math.sin(tilt), Math.cos(tilt)] },
        { name: "feature 4 (through_hole)", direction: [1, 0, 0] },
      ],
      setups: [],
      feature_access: [
        { feature: 3, directions: ["feature 3 (chamfer)"] },
        { feature: 4, directions: ["feature 4 (through_hole)"] },
        { feature: 5, directions: ["+Z", "feature 3 (chamfer)"] },
        { feature: 6, directions: [] },
      ],
      unreachable_faces: [],
      split_faces: [],
      left_out: [],
      warnings: [],
      timeMs: 0,
    };
    const items = tiltedSetups(setups, new Map([[3, [7, 8]]]));
    assert.deepEqual(
      items.map((i) => [i.feature, i.faces, i.measured?.value]),
      [[3, [7, 8], 30]],
    );
  });
});
