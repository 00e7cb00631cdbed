/**
 * The keep-out on a real part: partC (read by OCCT) in a stock with nothing to grip below it,
 * its first setup held by a vise's jaws 5 mm up the stock (kernel/workholding/vise-geometry.ts),
 * the jaws grown by WORKHOLDING_KEEP_OUT_MM. Every tool position of every milling operation is
 * measured against the jaws themselves, independently of the slicer.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { writeBrep } from "../../geometry/brep.ts";
import { withOcctScope } from "../../geometry/occt-scope.ts";
import { loadOpenCascade } from "../../geometry/opencascade.ts";
import { readStep } from "../../geometry/step.ts";
import { fixture } from "../../geometry/test-support.ts";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { starterLibrary } from "../../tools/catalogue/starter-library.ts";
import { defaultWorkholding } from "../../workholding/defaults.ts";
import { viseLayout } from "../../workholding/vise-geometry.ts";
import { distanceToBoxXY } from "../../math/box3.ts";
import { InProcessStock } from "../milling/stock.ts";
import type { PlanInput } from "../plan-types.ts";
import { cuttersFromLibrary } from "../tooling/cutter.ts";
import type { Box3, Move, Operation, Vec3 } from "../types.ts";
import { holeOperations } from "./hole-operations.ts";
import { boxSoup, grownBox, holeBlocked, inBand, WORKHOLDING_KEEP_OUT_MM } from "./keep-out.ts";
import { millingOperations } from "./milling-operations.ts";
import { isEndMill } from "./milling-tools.ts";
import { readPart } from "./read-part.ts";
import { setupParts, type SetupPart } from "./setup-part.ts";

const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const vise = defaultWorkholding("vmc-850-fanuc");
assert.ok(vise?.kind === "vise");
const GRIP_MM = 5;

describe("boxSoup", () => {
  it("gives each box 12 triangles facing out", () => {
    const box: Box3 = { min: [1, 2, 3], max: [4, 7, 5] };
    const soup = boxSoup([box, grownBox(box, 1)]);
    assert.equal(soup.indices.length, 2 * 12 * 3);
    assert.equal(soup.positions.length, 2 * 8 * 3);
    const corner = (i: number): Vec3 => {
      const v = soup.indices[i] as number;
      return [
        soup.positions[3 * v] as number,
        soup.positions[3 * v + 1] as number,
        soup.positions[3 * v + 2] as number,
      ];
    };
    for (let t = 0; t < 24; t += 1) {
      const [a, b, c] = [corner(3 * t), corner(3 * t + 1), corner(3 * t + 2)];
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      const n = [
        (u[1] as number) * (w[2] as number) - (u[2] as number) * (w[1] as number),
        (u[2] as number) * (w[0] as number) - (u[0] as number) * (w[2] as number),
        (u[0] as number) * (w[1] as number) - (u[1] as number) * (w[0] as number),
      ];
      const centroid = [0, 1, 2].map((k) => ((a[k] as number) + (b[k] as number) + (c[k] as number)) / 3);
      // from the box's centre out through the triangle
      const out = [0, 1, 2].map((k) => (centroid[k] as number) - ((box.min[k] as number) + (box.max[k] as number)) / 2);
      assert.ok(n.reduce((sum, x, k) => sum + x * (out[k] as number), 0) > 0, `triangle ${t} faces in`);
    }
  });
});

describe("holeBlocked and inBand", () => {
  const parallel: Box3 = { min: [0, 0, -20], max: [100, 6.5, 1.5] };
  it("blocks a tool whose cylinder reaches into a box below its top, by the distance to the rectangle", () => {
    assert.equal(holeBlocked({ at: [50, 8], radius: 2, tip_z: -3 }, [parallel]), parallel);
    assert.equal(holeBlocked({ at: [50, 9], radius: 2, tip_z: -3 }, [parallel]), null);
    assert.equal(holeBlocked({ at: [50, 3], radius: 2, tip_z: 2 }, [parallel]), null, "above its top");
    // off the corner diagonally: within the bounding square, not the rounded rectangle
    assert.equal(holeBlocked({ at: [101.5, 8], radius: 2, tip_z: -3 }, [parallel]), null);
  });
  it("puts a skipped region in the band within the radius and the keep-out of a box, below its top and the keep-out", () => {
    assert.ok(inBand([50, 6.5 + 3 + WORKHOLDING_KEEP_OUT_MM - 0.01], 0, 3, [parallel]));
    assert.ok(!inBand([50, 6.5 + 3 + WORKHOLDING_KEEP_OUT_MM + 0.01], 0, 3, [parallel]));
    assert.ok(!inBand([50, 7], 1.5 + WORKHOLDING_KEEP_OUT_MM, 3, [parallel]));
  });
});

const oc = await loadOpenCascade();
const bytes = withOcctScope((scope) => writeBrep(oc, readStep(oc, fixture("partC.step"), scope).solid));
// plan.test.ts's stock: nothing below the part, so the jaws hold the part's lower 5 mm
const input: PlanInput = {
  workpiece: { format: "step", bytes, bytes_format: "brep" },
  stock: { min: [-2, -2, 0], max: [87.6, 46.7, 29] },
  machine,
  material_id: "aluminium-6061",
  library: starterLibrary(),
  options: { include_face_milling: true, sort_by_height: false },
};
const part = readPart(oc, input);
const { cutters } = cuttersFromLibrary(input.library);
const setups = setupParts(part, { stock: input.stock, endMills: cutters.filter(isEndMill), machine }).setups;
const first = setups[0] as SetupPart;
const layout = viseLayout(vise, first.stock, GRIP_MM);
const jaws = [layout.jaws.fixed, layout.jaws.moving];

function milled(setup: SetupPart): Operation[] {
  let n = 0;
  return millingOperations({
    setup,
    allFeatures: part.recognition.features,
    cutters,
    input,
    nextId: () => `op${n++}`,
  }).operations;
}

/** The tool's tip positions along a move from `from`, at most `step` mm apart (arcs by angle). */
function samples(from: Vec3, move: Move, step = 0.25): Vec3[] {
  if (move.kind === "drill") return [];
  const to = move.to;
  if (move.kind !== "arc") {
    const n = Math.max(1, Math.ceil(Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2]) / step));
    return Array.from({ length: n }, (_, i) => {
      const f = (i + 1) / n;
      return [from[0] + (to[0] - from[0]) * f, from[1] + (to[1] - from[1]) * f, from[2] + (to[2] - from[2]) * f];
    });
  }
  const [cx, cy] = move.centre;
  const r = Math.hypot(from[0] - cx, from[1] - cy);
  const a0 = Math.atan2(from[1] - cy, from[0] - cx);
  let sweep = Math.atan2(to[1] - cy, to[0] - cx) - a0;
  if (move.clockwise && sweep >= 0) sweep -= 2 * Math.PI;
  if (!move.clockwise && sweep <= 0) sweep += 2 * Math.PI;
  const n = Math.max(1, Math.ceil((Math.abs(sweep) * Math.max(r, 1e-9)) / step));
  return Array.from({ length: n }, (_, i) => {
    const f = (i + 1) / n;
    const a = a0 + sweep * f;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a), from[2] + (to[2] - from[2]) * f];
  });
}

/** How far the tool's cylinder (tip at `p`, radius r, going up) stays from the box: sideways or above its top. */
function clearance(p: Vec3, r: number, box: Box3): number {
  return Math.max(distanceToBoxXY(box, p[0], p[1]) - r, p[2] - box.max[2]);
}

describe("partC's first setup held by the vise's jaws", () => {
  it("has no keep-out by default, and an empty one plans the same holes", () => {
    assert.equal(first.keepOut, undefined);
    const stock = new InProcessStock(first.stock);
    const without = holeOperations(first, cutters, input, stock, () => "h");
    const empty = holeOperations({ ...first, keepOut: [] }, cutters, input, stock, () => "h");
    assert.deepEqual(empty, without);
  });

  it("keeps every milling move of every operation 1.5 mm off the jaws, and cuts nothing beside them below their top + 1.5 mm", () => {
    const keepOut = jaws.map((jaw) => grownBox(jaw, WORKHOLDING_KEEP_OUT_MM));
    let n = 0;
    const draft = millingOperations({
      setup: { ...first, keepOut },
      allFeatures: part.recognition.features,
      cutters,
      input,
      nextId: () => `op${n++}`,
    });
    assert.ok(draft.operations.length > 0);
    const jawTop = layout.jaws.fixed.max[2];
    let checked = 0;
    for (const operation of draft.operations) {
      const r = operation.tool.diameter / 2;
      let at: Vec3 = [0, 0, first.stock.max[2] + 50];
      for (const move of operation.moves) {
        for (const p of samples(at, move)) {
          for (const jaw of jaws) {
            const gap = clearance(p, r, jaw);
            assert.ok(
              gap >= WORKHOLDING_KEEP_OUT_MM - 0.01,
              `${operation.name}: the tool at (${p.map((x) => x.toFixed(3)).join(", ")}) is ${gap.toFixed(3)} mm off a jaw`,
            );
            // within the band's reach of a jaw the tip stays above the jaw's top + the keep-out
            if (Math.max(jaw.min[1] - p[1], p[1] - jaw.max[1]) < r + WORKHOLDING_KEEP_OUT_MM - 0.01)
              assert.ok(
                p[2] >= jawTop + WORKHOLDING_KEEP_OUT_MM - 0.01,
                `${operation.name}: cut at z ${p[2]} beside a jaw`,
              );
          }
          checked += 1;
        }
        if (move.kind !== "drill") at = move.to;
      }
    }
    assert.ok(checked > 1000);
    // what the jaws cover is one warning for the setup, not a region per level
    assert.ok(draft.warnings.filter((w) => w.code === "clamped_band").length <= 1);
  });

  it("with an empty keep-out mills exactly as without one", () => {
    assert.deepEqual(milled({ ...first, keepOut: [] }), milled(first));
  });

  it("reports a through hole over a parallel and makes none of it, the other holes as before", () => {
    // partC's one hole is blind, in its -Z setup: taken through the stock's bottom here, the
    // case of a setup gripping the part with no allowance below it
    const turned = setups.find((setup) => setup.name === "-Z") as SetupPart;
    const blind = turned.holes[0];
    assert.ok(blind !== undefined && !blind.through);
    const through = { ...blind, through: true, depth_mm: blind.top_z - turned.stock.min[2] };
    const setup: SetupPart = { ...turned, holes: [through] };
    // a parallel as viseLayout puts one under the stock, moved along y under the hole
    const support = viseLayout(vise, turned.stock, GRIP_MM).supports[0] as Box3;
    const dy = through.at[1] - (support.min[1] + support.max[1]) / 2;
    const parallel: Box3 = {
      min: [support.min[0], support.min[1] + dy, support.min[2]],
      max: [support.max[0], support.max[1] + dy, support.max[2]],
    };
    const keepOut = [grownBox(parallel, WORKHOLDING_KEEP_OUT_MM)];
    const stock = new InProcessStock(setup.stock);
    const without = holeOperations(setup, cutters, input, stock, () => "h");
    const held = holeOperations({ ...setup, keepOut }, cutters, input, stock, () => "h");
    assert.ok(Array.isArray(without.makers.get(through.feature_id)));
    assert.equal(held.makers.get(through.feature_id), null);
    const reported = held.unmachined.filter((u) => u.code === "workholding_blocks_hole");
    assert.ok(reported.some((u) => u.features.includes(through.feature_id)));
    // no tool goes down at the hole
    const off = (p: readonly number[]) =>
      Math.hypot((p[0] as number) - through.at[0], (p[1] as number) - through.at[1]) > 1e-6;
    for (const operation of held.operations)
      for (const move of operation.moves)
        assert.ok(
          move.kind === "drill" ? move.at.every(off) : off(move.to) || move.to[2] > setup.stock.max[2],
          `${operation.name} goes down at the blocked hole`,
        );
    // every hole not blocked is made as before
    for (const [feature, makers] of without.makers)
      if (!reported.some((u) => u.features.includes(feature)))
        assert.deepEqual(held.makers.get(feature), makers, `hole ${feature}`);
  });
});
