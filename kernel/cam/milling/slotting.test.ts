import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simulateSetup } from "../simulation/simulate.ts";
import type { Box3, Move, Operation } from "../types.ts";
import { engagementAlong } from "./adaptive/test-support.ts";
import { roughing } from "./roughing.ts";
import { createSlicer } from "./slicer.ts";
import { InProcessStock } from "./stock.ts";
import { boxesSoup, cutting, endMill, HeightMap, STOCK } from "./test-support.ts";
import { loopAdvance, loopEngagement, trochoidLoops } from "./trochoids.ts";

const D = 8;
const R = D / 2;
const ALLOWANCE = { allowance_xy_mm: 0.3, allowance_z_mm: 0.2 };
/**
 * the share of the length the simulation still finds at full width deeper than D/2: where a pass
 * leaves the slot at its open end, which the reading on the level's material (full-width.ts)
 * reads under 85 % (0.05 % and 0.26 % of the length here)
 */
const RESIDUE_PCT = 0.3;

/** A block (top -2) with a through slot along x, `width` wide, its floor at -10: 8 mm (1 D) deep. */
function slottedBlock(width: number): Box3[] {
  const low = 25 - width / 2;
  const high = 25 + width / 2;
  return [
    { min: [5, 5, -22], max: [65, 45, -10] },
    { min: [5, 5, -10], max: [65, low, -2] },
    { min: [5, high, -10], max: [65, 45, -2] },
  ];
}

function rough(boxes: Box3[]): Operation {
  const outcome = roughing({
    part: createSlicer(boxesSoup(boxes)),
    stock: new InProcessStock(STOCK),
    tool: endMill(D),
    parameters: cutting({ ...ALLOWANCE, stepdown_mm: 10, stepover_mm: 3.2 }),
  });
  assert.ok(outcome.operation, `no operation: ${outcome.reason}`);
  return outcome.operation;
}

function simulated(boxes: Box3[], operation: Operation) {
  const result = simulateSetup({ stock: STOCK, part: boxesSoup(boxes), operations: [operation], cellSize: 0.2 });
  assert.equal(result.total.gouges, 0, JSON.stringify(result.violations.slice(0, 3)));
  assert.equal(result.total.rapids_through_material, 0, JSON.stringify(result.violations.slice(0, 3)));
  assert.equal(result.total.holder_collisions, 0, JSON.stringify(result.violations.slice(0, 3)));
  const engagement = result.operations[0]?.engagement;
  assert.ok(engagement);
  return engagement;
}

describe("trochoidal loops", () => {
  it("advance so that the widest engagement on the half circle is under the target", () => {
    for (const target of [0.8, 1.6, 3.2]) {
      for (const loop of [0.4, 1.2, 2]) {
        const advance = loopAdvance(R, loop, target);
        assert.ok(advance > 0 && advance <= loop, `advance ${advance} for loop ${loop}`);
        const engaged = loopEngagement(R, loop, advance);
        assert.ok(engaged <= target && engaged >= 0.8 * target, `loop ${loop}, target ${target}: ${engaged}`);
      }
    }
  });

  it("hold the engagement in a slot 1.3 D wide, measured on an independent raster", () => {
    // the tool centre's corridor in a slot 1.3 D wide: 0.3 D, loops of 0.15 D
    const loop = (1.3 * D - D) / 2;
    for (const target of [0.8, 1.6]) {
      const advance = loopAdvance(R, loop, target);
      const z = -8;
      const loops = trochoidLoops({
        from: [-8, 25],
        line: [
          [-8, 25],
          [60, 25],
        ],
        to: [60, 25],
        loop,
        advance,
        z,
        feed: 1000,
      });
      const moves: Move[] = [
        { kind: "rapid", to: [-8, 25, 5] },
        { kind: "linear", to: [-8, 25, z], feed: 400 },
        ...loops.moves,
      ];
      assert.ok(
        loops.moves.some((m) => m.kind === "arc" && !m.clockwise),
        "half circles are counter-clockwise arcs (climb)",
      );
      const report = engagementAlong(moves, { stock: STOCK, radius: R, clearance: 5, cell: 0.08 });
      const samples = [...report.samples].sort((a, b) => a - b);
      assert.ok(samples.length > 1000, `${samples.length} samples`);
      const p99 = samples[Math.floor(0.99 * samples.length)] as number;
      const widest = samples.at(-1) as number;
      assert.ok(p99 <= 1.2 * target, `target ${target}: p99 ${p99}`);
      assert.ok(widest < 0.9 * D, `target ${target}: widest ${widest}`);
      // and the slot is cut: nothing left within the loops' reach across it
      const map = new HeightMap(STOCK, [], 0.2);
      map.run(moves, R, 5);
      const across = [25 - loop - R + 0.3, 25, 25 + loop + R - 0.3];
      for (const y of across) {
        const top = map.top[Math.floor(y / map.cell) * map.nx + Math.floor(20 / map.cell)] as number;
        assert.ok(top <= z + 1e-6, `stock left at y ${y}: ${top}`);
      }
    }
  });
});

describe("clearing a slot", () => {
  it("cuts a slot 1.3 D wide by loops, with no full-width cut deeper than half the diameter", () => {
    const boxes = slottedBlock(1.3 * D + 2 * ALLOWANCE.allowance_xy_mm);
    const operation = rough(boxes);
    assert.ok(
      operation.moves.some((m) => m.kind === "arc"),
      "no loops",
    );
    const engagement = simulated(boxes, operation);
    // offset passes alone: 1.16 % of the length at full width and full depth, p99 7.65 mm
    assert.ok((engagement.full_width_deep_pct ?? 100) <= RESIDUE_PCT, JSON.stringify(engagement));
    assert.ok(engagement.radial_p99_mm <= 1.1 * 3.2, JSON.stringify(engagement));
  });

  it("cuts a slot too narrow for loops in runs at most half the diameter deep", () => {
    // the tool centre's corridor 0.4 mm wide: no loop of 0.05 D fits
    const boxes = slottedBlock(D + 2 * ALLOWANCE.allowance_xy_mm + 0.4);
    const operation = rough(boxes);
    assert.ok(!operation.moves.some((m) => m.kind === "arc"), "loops where none fit");
    // the level at -9.8 cuts 8 mm (1 D) below the one at -1.8: a run at -5.8 first
    assert.ok(
      operation.moves.some(
        (m) => m.kind === "linear" && Math.abs(m.to[2] + 5.8) < 1e-6 && m.to[1] > 20 && m.to[1] < 30,
      ),
      "no run half way down",
    );
    const engagement = simulated(boxes, operation);
    assert.ok((engagement.full_width_pct ?? 0) > 0, "the slot is cut at full width");
    // between the part's walls, where no narrower path fits: the slot is the feature
    assert.ok((engagement.feature_slot_pct ?? 0) > 0, JSON.stringify(engagement));
    assert.ok((engagement.feature_slot_pct ?? 0) <= (engagement.full_width_pct ?? 0), JSON.stringify(engagement));
    assert.ok(
      (engagement.radial_p99_beside_slots_mm ?? Infinity) < engagement.radial_p99_mm,
      JSON.stringify(engagement),
    );
    // offset passes alone: 2 % of the length at full width and full depth
    assert.ok((engagement.full_width_deep_pct ?? 100) <= RESIDUE_PCT, JSON.stringify(engagement));
  });
});
