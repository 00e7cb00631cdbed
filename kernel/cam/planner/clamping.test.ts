import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { TEST_VISE } from "../../workholding/test-support.ts";
import { toFrame } from "../frames.ts";
import type { WorkholdingSummary } from "../plan-types.ts";
import { nearSurface, surfaceProximity, thickMaterialLeft } from "../simulation/thick-material.ts";
import { voxelStock, type VoxelStock } from "../simulation/voxel-stock.ts";
import type { Box3, TriangleSoup } from "../types.ts";
import { type Clamping, firstClamping, laterClamping } from "./clamping.ts";
import { viseGrip, viseHolder } from "./holders.ts";
import { WORKHOLDING_KEEP_OUT_MM } from "./keep-out.ts";
import type { MachineVise } from "../../workholding/schema.ts";
import { finishingTolerance } from "./completeness.ts";
import { CUTTING_MESH_DEFLECTION_MM } from "./read-part.ts";
import { type SetupPart, setupParts } from "./setup-part.ts";
import { partCPlanned } from "./test-support.ts";

const part = partCPlanned();
assert.ok(part.analysis.bbox !== null);
const { min, max } = part.analysis.bbox;
/** 2 mm around partC, `below` mm under it */
const stockAround = (below: number): Box3 => ({
  min: [min[0] - 2, min[1] - 2, min[2] - below],
  max: [max[0] + 2, max[1] + 2, max[2] + 2],
});
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const setupsIn = (stock: Box3): SetupPart[] => setupParts(part, { stock, endMills: [], machine }).setups;

function lowestZ(soup: TriangleSoup): number {
  let z = Infinity;
  for (let i = 2; i < soup.positions.length; i += 3) z = Math.min(z, soup.positions[i] as number);
  return z;
}

function summaryOf(clamping: Clamping): WorkholdingSummary {
  assert.ok("summary" in clamping, JSON.stringify(clamping));
  return clamping.summary;
}

/** the grip the plan would hold partC with in TEST_VISE (5 mm on 40 mm parallels) */
const GRIP_MM = (viseGrip(TEST_VISE) as NonNullable<ReturnType<typeof viseGrip>>).grip_mm;

/** setup +Z of partC in stockAround(below), and its clamping in `vise` */
function clampFirst(below: number, vise: MachineVise = TEST_VISE): { first: SetupPart; clamping: Clamping } {
  const [first] = setupsIn(stockAround(below));
  assert.ok(first !== undefined);
  const partBottomZ = lowestZ(first.soup);
  return { first, clamping: firstClamping({ ...first, partBottomZ, holder: viseHolder(vise, GRIP_MM) }) };
}

describe("the first setup's clamping", () => {
  it("grips the blank's two sides across y over 5 mm when 8 mm of stock lie below the part", () => {
    const { first, clamping } = clampFirst(8);
    assert.equal(first.name, "+Z");
    const summary = summaryOf(clamping);
    const [fixed, moving] = summary.jaws;
    assert.ok(fixed !== undefined && moving !== undefined);
    assert.equal(summary.grip_axis, "y");
    assert.equal(summary.grip_mm, 5);
    assert.equal(summary.parallel_height_mm, 40);
    assert.ok(Math.abs(fixed.min[1] - first.stock.max[1]) <= 1e-9);
    assert.ok(Math.abs(moving.max[1] - first.stock.min[1]) <= 1e-9);
    assert.ok(Math.abs(fixed.max[2] - (first.stock.min[2] + 5)) <= 1e-9);
    assert.ok(Math.abs((summary.opening_mm ?? Number.NaN) - (first.stock.max[1] - first.stock.min[1])) <= 1e-9);
    assert.equal(summary.clamped.grips, "stock");
    assert.equal(summary.supports.length, 2);
    // the jaws' top stays the keep-out below the part
    assert.ok(fixed.max[2] + WORKHOLDING_KEEP_OUT_MM <= lowestZ(first.soup));
  });

  it("says the stock needs 3.5 mm more along -Z with 3 mm below the part (5 + 1.5 - 3)", () => {
    const { clamping } = clampFirst(3);
    assert.ok("problem" in clamping && clamping.problem.code === "stock_allowance_needed");
    assert.equal(clamping.problem.axis, "-Z");
    assert.ok(Math.abs(clamping.problem.missing_mm - 3.5) < 1e-5, `${clamping.problem.missing_mm}`);
    assert.ok(Math.abs(clamping.problem.needed_mm - 6.5) < 1e-12);
    assert.match(clamping.problem.message, /3\.5 mm more along -Z/);
    // the blank is still gripped: the band reaches into the part, left for the turned-over setup
    assert.equal(clamping.problem.summary.grip_mm, 5);
  });

  it("grips below the part with exactly the 6.5 mm it needs (5 + 1.5) when the part's bottom is a float32", () => {
    // the stock's offsets are exact, the mesh's positions float32: 6.5 mm asked for is 6.4999996 here
    const partBottomZ = Math.fround(-20.1);
    const stock: Box3 = { min: [0, 0, -20.1 - 6.5], max: [40, 40, 0] };
    assert.ok(partBottomZ - stock.min[2] < 6.5);
    const clamping = firstClamping({ direction: [0, 0, 1], stock, partBottomZ, holder: viseHolder(TEST_VISE, 5) });
    assert.ok("summary" in clamping, "no stock_allowance_needed for 0 mm more");
  });

  it("is workholding_unavailable when the stock is wider than the opening on both axes", () => {
    const { clamping } = clampFirst(8, { ...TEST_VISE, max_opening_mm: 40 });
    assert.ok("problem" in clamping && clamping.problem.code === "workholding_unavailable");
    assert.match(clamping.problem.message, /wider than the vise's 40 mm opening/);
  });

  it("grips across x, the boxes swapped back, when the stock is too wide across y", () => {
    const stock: Box3 = { min: [0, 0, -30], max: [40, 100, 0] };
    const summary = summaryOf(
      firstClamping({
        direction: [0, 0, 1],
        stock,
        partBottomZ: -20,
        holder: viseHolder({ ...TEST_VISE, max_opening_mm: 60 }, 5),
      }),
    );
    const [fixed, moving] = summary.jaws;
    assert.ok(fixed !== undefined && moving !== undefined);
    assert.equal(summary.grip_axis, "x");
    assert.equal(summary.opening_mm, 40);
    assert.deepEqual([fixed.min[0], moving.max[0]], [40, 0]);
    // centred along y, the jaws' length
    assert.deepEqual([fixed.min[1], fixed.max[1]], [50 - 75, 50 + 75]);
    assert.deepEqual([fixed.min[2], fixed.max[2]], [-30 - 40, -25]);
    for (const support of summary.supports) assert.ok(support.min[0] >= 0 && support.max[0] <= 40);
  });
});

describe("a later setup's clamping on partC", () => {
  const stock = stockAround(8);
  const setups = setupsIn(stock);
  const [first, turned] = setups;
  assert.ok(first !== undefined && turned !== undefined);
  // as planCam measures material left, for 0.25 mm simulation cells
  const tolerance = finishingTolerance(0.25, CUTTING_MESH_DEFLECTION_MM);

  /** a voxel model and its material thicker than `tolerance` */
  type State = { voxels: VoxelStock; thick: Uint8Array; tolerance: number };
  /** the voxel model as if `keep` voxels (workpiece centre) were all the first setup left of the stock */
  function after(keep: (x: number, y: number, z: number) => boolean, within = tolerance): State {
    // a coarse model (0.7 mm voxels): nearSurface over the plan's 8 million takes minutes
    const voxels = voxelStock(stock, part.soup, 400_000);
    const [nx, ny, nz] = voxels.n;
    for (let k = 0; k < nz; k += 1)
      for (let j = 0; j < ny; j += 1)
        for (let i = 0; i < nx; i += 1) {
          const v = (k * ny + j) * nx + i;
          const c = [0, 1, 2].map(
            (a) => (stock.min[a] as number) + (([i, j, k][a] as number) + 0.5) * (voxels.d[a] as number),
          ) as [number, number, number];
          if (voxels.part[v] === 0 && !keep(...c)) voxels.removed[v] = 1;
        }
    const near = nearSurface(voxels, surfaceProximity(part.soup, stock, within));
    return { voxels, thick: thickMaterialLeft(voxels, near).thick, tolerance: within };
  }
  /** setup +Z finished all above its jaws and their keep-out: the allowance band below is left */
  const bandTop = stock.min[2] + 5 + WORKHOLDING_KEEP_OUT_MM;

  const clampTurned = (state: State, vise: MachineVise = TEST_VISE) =>
    laterClamping({
      setup: turned,
      acrossSetups: state.voxels,
      thick: state.thick,
      tolerance_mm: state.tolerance,
      features: part.recognition.features,
      earlier: [first.name],
      holder: viseHolder(vise, GRIP_MM),
    });

  it("grips the part's planar faces at y = 0 and y = 44.6 that setup +Z finished, the jaws on their planes", () => {
    assert.equal(turned.name, "-Z");
    const clamping = clampTurned(after((_x, _y, z) => z < bandTop));
    const summary = summaryOf(clamping);
    assert.equal(summary.grip_axis, "y");
    assert.equal(summary.clamped.grips, "part");
    assert.deepEqual(summary.clamped.faces, [1, 2]);
    // partC's outer walls belong to no recognised feature
    assert.deepEqual(summary.clamped.features, []);
    // named as the setter finds them on the part, turned over or not
    assert.equal(summary.clamped.description, "the part's -Y and +Y sides (faces 1 and 2), finished in setup +Z");
    assert.equal(summary.soft_jaws, false);
    // the jaws touch the faces' planes (workpiece y = 0 and y = max, turned over into the frame)
    const planes = [0, max[1]].map((y) => toFrame(turned.frame, [0, y, 0])[1]).sort((a, b) => a - b);
    const [fixed, moving] = summary.jaws;
    assert.ok(fixed !== undefined && moving !== undefined);
    assert.ok(Math.abs(moving.max[1] - (planes[0] as number)) <= 1e-4, `${moving.max[1]} ${planes[0]}`);
    assert.ok(Math.abs(fixed.min[1] - (planes[1] as number)) <= 1e-4, `${fixed.min[1]} ${planes[1]}`);
    // gripping the part's top 5 mm (in the turned frame its lowest), standing on it
    const partLow = lowestZ(turned.soup);
    assert.ok(Math.abs(fixed.max[2] - (partLow + 5)) <= 1e-9);
    assert.equal(summary.grip_mm, 5);
    // the part and the allowance left below it (8 mm, its top 1.5 mm cut) stand out above the jaws
    assert.ok(Math.abs(summary.stick_out_mm - (max[2] + 8 - 5)) <= 1e-4, `${summary.stick_out_mm}`);
  });

  it("grips the blank when no setup removed anything yet", () => {
    const summary = summaryOf(clampTurned(after(() => true)));
    assert.equal(summary.clamped.grips, "stock");
    assert.deepEqual(summary.clamped.faces, []);
    const [fixed, moving] = summary.jaws;
    assert.ok(fixed !== undefined && moving !== undefined);
    assert.ok(Math.abs(fixed.min[1] - turned.stock.max[1]) <= 1e-9);
    assert.ok(Math.abs(moving.max[1] - turned.stock.min[1]) <= 1e-9);
  });

  it("grips faces finished where the band crosses them, though the first setup's jaws kept stock beside them below", () => {
    // a blank 3 mm below the part: +Z's jaws and their keep-out kept the stock up to z = 3.5, beside the part too
    const summary = summaryOf(clampTurned(after((_x, _y, z) => z < 3.5)));
    assert.equal(summary.clamped.grips, "part");
    assert.deepEqual(summary.clamped.faces, [1, 2]);
    assert.equal(summary.grip_mm, 5);
  });

  it("does not grip the blank's face where too little of it is left in the band", () => {
    // a 10 mm piece of the blank's face at workpiece y = -2, in the turned setup's band
    const clamping = clampTurned(after((x, y, z) => z < bandTop || (y < -1.5 && z > max[2] - 3 && x < 10)));
    assert.ok("problem" in clamping && clamping.problem.code === "workholding_unavailable", JSON.stringify(clamping));
    assert.match(
      clamping.problem.message,
      /the blank's face left on the \+y side covers less than 3 mm of the 5 mm grip over 20 mm/,
    );
  });

  /** 1 mm of stock left outside the face at y = 0, over the part's length and height */
  const ySkin = (x: number, y: number, z: number) => y > -1 && y < 0 && x > 0 && x < max[0] && z < max[2];
  /**
   * 0.3 mm over partC's end at x = 85.5: a layer of voxels whose centres lie 0.15 mm out, thicker
   * than a finishing tolerance of 0.05 mm (the plan's, about 0.17 mm here, would call it finished)
   */
  const xSkin = (x: number, y: number, z: number) =>
    x > max[0] && x < max[0] + 0.3 && y > 0 && y < max[1] && z < max[2];
  const FINE_MM = 0.05;

  it("grips partC's notched end by its two pieces either side of the slot, one plane, when a skin keeps the y sides", () => {
    const summary = summaryOf(clampTurned(after((x, y, z) => z < bandTop || ySkin(x, y, z))));
    assert.equal(summary.grip_axis, "x");
    assert.equal(summary.soft_jaws, false);
    // the end at x = 85.5 is two faces (14, 15), each shorter than 20 mm, together longer
    assert.deepEqual(summary.clamped.faces, [3, 14, 15]);
    assert.equal(summary.clamped.description, "the part's -X and +X sides (faces 3, 14 and 15), finished in setup +Z");
    const [fixed, moving] = summary.jaws;
    assert.ok(fixed !== undefined && moving !== undefined);
    assert.ok(Math.abs(fixed.min[0] - toFrame(turned.frame, [max[0], 0, 0])[0]) <= 1e-4, `${fixed.min[0]}`);
  });

  it("does not grip a side that still carries a skin of stock, nor faces under material: workholding_unavailable", () => {
    const clamping = clampTurned(after((x, y, z) => z < bandTop || ySkin(x, y, z) || xSkin(x, y, z), FINE_MM));
    assert.ok("problem" in clamping && clamping.problem.code === "workholding_unavailable");
    // the skin is at the frame's +y (turned over, workpiece y runs the other way)
    assert.match(clamping.problem.message, /across y: the \+y side's outermost material is stock left/);
    assert.match(clamping.problem.message, /across x: the \+x side's faces 14, 15 still carry material thicker than/);
    for (const face of [14, 15]) assert.ok(clamping.problem.faces.includes(face), `${face}`);
  });

  it("with soft jaws allowed, grips the end under material in jaws machined to its profile", () => {
    const skins = after((x, y, z) => z < bandTop || ySkin(x, y, z) || xSkin(x, y, z), FINE_MM);
    const summary = summaryOf(clampTurned(skins, { ...TEST_VISE, soft_jaws_allowed: true }));
    assert.equal(summary.grip_axis, "x");
    assert.equal(summary.soft_jaws, true);
    assert.ok(summary.clamped.faces.includes(3) && summary.clamped.faces.includes(15), `${summary.clamped.faces}`);
    assert.match(summary.clamped.description, /soft jaws machined to their profile/);
  });
});
