import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { operationTime } from "../machining-time.ts";
import { findMachineArchetype } from "../../machines/archetypes.ts";
import { WorkBudget } from "../milling/adaptive/budget.ts";
import { adaptiveCut, levelLoad } from "../milling/adaptive/parameters.ts";
import { refusal, type MillingOutcome } from "../milling/operation.ts";
import { roughing } from "../milling/roughing.ts";
import { createSlicer } from "../milling/slicer.ts";
import { InProcessStock } from "../milling/stock.ts";
import { boxesSoup, cutting, endMill, POCKETED_BLOCK, STOCK } from "../milling/test-support.ts";
import type { Box3 } from "../types.ts";
import { clearingsToTry, fastest } from "./clearing-choice.ts";

const TOOL = endMill(8, { max_stepdown: 16, flute_length: 19 });
/** the cutting data's cut: 40 % of D at 1 D deep */
const TABLE = cutting({
  stepdown_mm: 8,
  stepover_mm: 3.2,
  feed_mm_min: 1600,
  allowance_xy_mm: 0.3,
  allowance_z_mm: 0.2,
});
const MACHINE = findMachineArchetype("vmc-850-fanuc");
/** floors every 4 mm: no level deeper than the table's, adaptive's the same as offset's */
const TERRACES: Box3[] = [
  { min: [5, 5, -25], max: [65, 45, -20] },
  { min: [5, 5, -20], max: [60, 45, -16] },
  { min: [5, 5, -16], max: [55, 45, -12] },
  { min: [5, 5, -12], max: [45, 45, -8] },
  { min: [5, 5, -8], max: [35, 45, -4] },
];

const where = (boxes: Box3[]) => ({ part: createSlicer(boxesSoup(boxes)), stock: new InProcessStock(STOCK) });
const roughingStep = { kind: "roughing" as const, tool: TOOL, parameters: TABLE };

describe("the load of an adaptive level", () => {
  const { load } = adaptiveCut(TOOL, TABLE, 5000);

  it("takes the table's engagement at the table's depth, and spreads its cross-section over deeper levels", () => {
    assert.equal(levelLoad(load, 8, 8).engagement_mm, 3.2);
    assert.equal(levelLoad(load, 8, 4).engagement_mm, 3.2, "never more than the table's");
    assert.equal(levelLoad(load, 8, 16).engagement_mm, 1.6);
  });

  it("raises the feed for the thinner chip, within the machine's max feed", () => {
    const deep = levelLoad(load, 8, 16);
    assert.ok(deep.feed_mm_min > 1.2 * TABLE.feed_mm_min, `${deep.feed_mm_min}`);
    assert.equal(levelLoad(adaptiveCut(TOOL, TABLE, 1700).load, 8, 16).feed_mm_min, 1700);
  });

  it("cuts at the tool's rated depth", () => {
    assert.equal(adaptiveCut(TOOL, TABLE, 5000).parameters.stepdown_mm, 16);
  });
});

describe("choosing the clearing", () => {
  it("makes offset only where adaptive would cut the same levels at the same load", () => {
    const tried = clearingsToTry(roughingStep, { clearing: "auto", max_feed_mm_min: 5000 }, where(TERRACES));
    assert.deepEqual(tried, [null]);
  });

  it("makes both where adaptive cuts fewer levels, and what is forced alone", () => {
    const auto = clearingsToTry(roughingStep, { clearing: undefined, max_feed_mm_min: 5000 }, where(POCKETED_BLOCK));
    assert.equal(auto.length, 2);
    assert.equal(auto[0], null);
    const forced = clearingsToTry(roughingStep, { clearing: "adaptive", max_feed_mm_min: 5000 }, where(TERRACES));
    assert.equal(forced.length, 1);
    assert.notEqual(forced[0], null);
    assert.deepEqual(
      clearingsToTry(roughingStep, { clearing: "offset", max_feed_mm_min: 5000 }, where(POCKETED_BLOCK)),
      [null],
    );
  });

  describe("on a pocketed block, both made", () => {
    const block = where(POCKETED_BLOCK);
    const tried = clearingsToTry(roughingStep, { clearing: "auto", max_feed_mm_min: 5000 }, block);
    const made = tried.map(
      (adaptive): MillingOutcome =>
        roughing({
          ...block,
          tool: TOOL,
          parameters: adaptive?.parameters ?? TABLE,
          ...(adaptive === null ? {} : { adaptive: adaptive.load }),
        }),
    );

    it("keeps the outcome machining in least time, and an operation before none", () => {
      assert.ok(MACHINE);
      const times = made.map((outcome) => {
        assert.ok(outcome.operation, outcome.reason ?? "");
        return operationTime(outcome.operation, MACHINE).total_s;
      });
      assert.equal(fastest(made, MACHINE), made[times.indexOf(Math.min(...times))]);
      assert.equal(fastest([refusal("none"), made[1] as MillingOutcome], MACHINE), made[1]);
    });

    it("charges what an outcome leaves to the rest tools", () => {
      assert.ok(MACHINE);
      const adaptive = made[1] as MillingOutcome;
      // the same moves, as if they had cleared nothing: as fast, and everything left
      const lazy = { ...adaptive, cleared: [] };
      assert.equal(fastest([lazy, adaptive], MACHINE), lazy);
      const levels = { ...block, stepdown_mm: TABLE.stepdown_mm, allowance_z_mm: TABLE.allowance_z_mm };
      assert.equal(fastest([lazy, adaptive], MACHINE, levels), adaptive);
    });

    it("makes no operation of a roughing past its work budget, and stops at the same work every time", () => {
      const adaptive = tried[1] as NonNullable<(typeof tried)[1]>;
      const run = (budget: WorkBudget) =>
        roughing({ ...block, tool: TOOL, parameters: adaptive.parameters, adaptive: adaptive.load, budget });
      const whole = new WorkBudget(Infinity);
      assert.ok(run(whole).operation, "unbounded, it is made");
      const halves = [new WorkBudget(whole.used / 2), new WorkBudget(whole.used / 2)];
      const late = halves.map(run);
      for (const outcome of late) {
        assert.equal(outcome.operation, null);
        assert.match(outcome.reason ?? "", /stopped/);
      }
      assert.equal(halves[0]?.used, halves[1]?.used);
    });

    it("cuts each adaptive level at the load of its depth, the largest its target", () => {
      const load = (tried[1] as NonNullable<(typeof tried)[1]>).load;
      const operation = made[1]?.operation;
      assert.ok(operation);
      const feeds = new Set(operation.moves.flatMap((m) => (m.kind === "linear" ? [m.feed] : [])));
      // levels 1.8, 8 and 12.2 mm deep (0.2 mm above the floors at -2 and -10, and the bottom at -22)
      for (const depth of [8, 12.2]) {
        const { feed_mm_min } = levelLoad(load, 8, depth);
        assert.ok(feeds.has(feed_mm_min), `no move at ${feed_mm_min} mm/min (${[...feeds].join(", ")})`);
      }
      assert.ok(levelLoad(load, 8, 12.2).feed_mm_min > levelLoad(load, 8, 8).feed_mm_min);
      assert.equal(operation.parameters.stepover_mm, 3.2);
    });
  });
});
