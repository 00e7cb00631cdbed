import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype } from "../../machines/archetypes.ts";
import { operationTime } from "../machining-time.ts";
import { adaptiveCut } from "../milling/adaptive/parameters.ts";
import { zLevels } from "../milling/levels.ts";
import { area, difference } from "../milling/polygons.ts";
import { roughing } from "../milling/roughing.ts";
import { createSlicer } from "../milling/slicer.ts";
import { InProcessStock } from "../milling/stock.ts";
import { boxesSoup, cutting, endMill, POCKETED_BLOCK, STEPPED_BLOCK, STOCK } from "../milling/test-support.ts";
import type { Box3 } from "../types.ts";
import { clearingRegions, regionCentres } from "./clearing-regions.ts";
import { clearPerRegion } from "./region-clearing.ts";

const TOOL = endMill(8, { max_stepdown: 16, flute_length: 19 });
const TABLE = cutting({
  stepdown_mm: 8,
  stepover_mm: 3.2,
  feed_mm_min: 1600,
  allowance_xy_mm: 0.3,
  allowance_z_mm: 0.2,
});
const MACHINE = findMachineArchetype("vmc-850-fanuc");
/** the pocketed block with a second pocket, 10 by 20 mm and 6 mm deep, walled all round in its right end */
const TWO_POCKETS: Box3[] = [
  { min: [5, 5, -22], max: [65, 45, -10] },
  { min: [5, 5, -10], max: [25, 45, -2] },
  { min: [25, 5, -10], max: [45, 18, -2] },
  { min: [25, 32, -10], max: [45, 45, -2] },
  { min: [45, 5, -10], max: [65, 15, -2] },
  { min: [45, 35, -10], max: [65, 45, -2] },
  { min: [45, 15, -10], max: [50, 35, -2] },
  { min: [60, 15, -10], max: [65, 35, -2] },
  { min: [50, 15, -10], max: [60, 35, -8] },
];

const setup = (boxes: Box3[]) => ({ part: createSlicer(boxesSoup(boxes)), stock: new InProcessStock(STOCK) });

/** the stock left outside the part (mm³), at the table's levels */
function leftOf(part: ReturnType<typeof createSlicer>, stock: InProcessStock): number {
  let above = stock.highest();
  let volume = 0;
  for (const z of zLevels({ top: above, bottom: part.bottom_z, floors: part.floors, stepdown: 8, allowance_z: 0.2 })) {
    volume += area(difference(stock.remainingAbove(z), part.shadow(z))) * (above - z);
    above = z;
  }
  return volume;
}

describe("the regions a roughing clears on its own", () => {
  it("finds a closed pocket below its top, apart from the open outside", () => {
    const { part, stock } = setup(POCKETED_BLOCK);
    const regions = clearingRegions({ part, stock, tool: TOOL, parameters: TABLE });
    assert.equal(regions.length, 2);
    const [open, pocket] = regions;
    assert.ok(open && pocket);
    assert.equal(open.closed, false);
    assert.equal(pocket.closed, true);
    // the pocket (x 25..45, y 18..32) is walled from the block's top (-2) down: its first level 0.2 mm above its floor
    assert.ok(Math.abs(pocket.area_mm2 - 20 * 14) < 0.01, `${pocket.area_mm2}`);
    assert.ok(Math.abs(pocket.top_z - -9.8) < 1e-9, `${pocket.top_z}`);
    assert.ok(Math.abs(open.area_mm2 - (70 * 50 - 280)) < 0.01, `${open.area_mm2}`);
  });

  it("finds none where every slot and step is open to the outside", () => {
    const { part, stock } = setup(STEPPED_BLOCK);
    const regions = clearingRegions({ part, stock, tool: TOOL, parameters: TABLE });
    assert.deepEqual(
      regions.map((r) => r.closed),
      [false],
    );
  });

  it("leaves out a closed place the tool does not fit", () => {
    // a 6 mm wide pocket: an 8 mm end mill has no room in it
    const narrow: Box3[] = [
      { min: [5, 5, -22], max: [65, 45, -10] },
      { min: [5, 5, -10], max: [30, 45, -2] },
      { min: [36, 5, -10], max: [65, 45, -2] },
      { min: [30, 5, -10], max: [36, 18, -2] },
      { min: [30, 32, -10], max: [36, 45, -2] },
    ];
    const { part, stock } = setup(narrow);
    assert.equal(clearingRegions({ part, stock, tool: TOOL, parameters: TABLE }).length, 1);
  });

  it("gives the open region the levels above a closed one's top, the closed one those below", () => {
    const { part, stock } = setup(POCKETED_BLOCK);
    const regions = clearingRegions({ part, stock, tool: TOOL, parameters: TABLE });
    const open = regionCentres(regions, 0);
    const pocket = regionCentres(regions, 1);
    assert.equal(open(-1.8), null);
    assert.deepEqual(pocket(-1.8), []);
    const below = open(-9.8);
    assert.ok(below !== null);
    assert.ok(Math.abs(area(below) + 280 - area(regions[0]?.within ?? [])) < 0.01);
    assert.equal(pocket(-9.8), regions[1]?.within);
  });
});

describe("clearing chosen per region", () => {
  const { part, stock } = setup(TWO_POCKETS);
  const regions = clearingRegions({ part, stock, tool: TOOL, parameters: TABLE });
  const adaptive = adaptiveCut(TOOL, TABLE, 5000);
  const where = { part, stock, stepdown_mm: 8, allowance_z_mm: 0.2 };
  const run = () =>
    clearPerRegion({
      regions,
      make: (cut, on) =>
        roughing({
          part,
          stock: on.stock,
          tool: TOOL,
          parameters: cut?.parameters ?? TABLE,
          ...(cut === null ? {} : { adaptive: cut.load }),
          within: on.within,
          ...(on.budget === null ? {} : { budget: on.budget }),
        }),
      adaptive,
      machine: MACHINE as NonNullable<typeof MACHINE>,
      where,
    });

  it("names each operation for its clearing and lists each region once, both made", () => {
    const outcomes = run();
    const reports = outcomes.flatMap((o) => o.operation?.clearing_regions ?? []);
    assert.equal(reports.length, regions.length);
    for (const outcome of outcomes) {
      const operation = outcome.operation;
      assert.ok(operation, outcome.reason ?? "");
      const clearing = /^Adaptive/.test(operation.name) ? "adaptive" : "offset";
      for (const report of operation.clearing_regions ?? []) {
        assert.equal(report.clearing, clearing);
        assert.ok(report.other_s !== null, "both made");
      }
    }
    assert.deepEqual(reports.map((r) => r.closed).sort(), [false, true, true]);
  });

  it("clears what whole roughings clear, in no more time than the slower", () => {
    assert.ok(MACHINE);
    const outcomes = run();
    const after = outcomes.reduce((s, o) => s.withCleared(o.cleared), stock);
    const wholes = [
      roughing({ part, stock, tool: TOOL, parameters: TABLE }),
      roughing({ part, stock, tool: TOOL, parameters: adaptive.parameters, adaptive: adaptive.load }),
    ];
    const lefts = wholes.map((w) => leftOf(part, stock.withCleared(w.cleared)));
    const times = wholes.map((w) => (w.operation ? operationTime(w.operation, MACHINE).total_s : Infinity));
    const left = leftOf(part, after);
    assert.ok(left <= Math.max(...lefts) * 1.02, `left ${left} mm³ against ${lefts.join(", ")}`);
    const time = outcomes.reduce((n, o) => n + (o.operation ? operationTime(o.operation, MACHINE).total_s : 0), 0);
    assert.ok(time <= Math.max(...times), `${time} s against ${times.join(", ")}`);
  });

  it("makes the same operations every time", () => {
    const a = run().map((o) => o.operation?.moves);
    const b = run().map((o) => o.operation?.moves);
    assert.deepEqual(a, b);
  });
});
