import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defaultWorkholding, tableWorkholding } from "../../workholding/defaults.ts";
import { TEST_PLATE } from "../../workholding/test-support.ts";
import type { Box3 } from "../types.ts";
import { blankHolder, holdersOf, plateHolder } from "./holders.ts";

const box = (x: number, y: number): Box3 => ({ min: [0, 0, -40], max: [x, y, 0] });
const vmcTable = tableWorkholding("vmc-850-fanuc")!;

describe("holdersOf", () => {
  it("tries the machine's workholding first, then its table; nothing for an unheld plan", () => {
    const holders = holdersOf(defaultWorkholding("vmc-850-fanuc"), vmcTable);
    assert.deepEqual(
      holders.map((h) => [h.name, h.gripMm]),
      [
        ["vise", 5],
        ["table's clamps", 10],
      ],
    );
    assert.deepEqual(holdersOf(undefined, vmcTable), []);
    assert.deepEqual(
      holdersOf(TEST_PLATE, undefined).map((h) => h.name),
      ["plate's clamps"],
    );
  });

  it("grips a blank wider than the vise opens on the table, and a narrow one in the vise", () => {
    const holders = holdersOf(defaultWorkholding("vmc-850-fanuc"), vmcTable);
    assert.equal(blankHolder(holders, box(804, 454))?.name, "table's clamps");
    assert.equal(blankHolder(holders, box(300, 200))?.name, "vise");
    assert.equal(blankHolder([], box(10, 10)), undefined);
  });
});

describe("plateHolder", () => {
  it("keeps room on the plate for the clamps on the faces it grips", () => {
    const table = plateHolder(vmcTable, "table");
    // 454 + 2 x 50 mm of clamps across y is more than the 500 mm table; across x 904 fits its 1000
    assert.match(table.refusal(box(804, 454), "y") ?? "", /does not fit on the 1000 x 500 mm table/);
    assert.equal(table.refusal(box(804, 454), "x"), null);
    const layout = table.layout(box(804, 454), "x");
    assert.equal(layout.type, "machine_table");
    for (const clamp of layout.clamps) {
      const support = layout.supports[0]!;
      assert.ok(clamp.min[0] >= support.min[0] && clamp.max[0] <= support.max[0], "each clamp stands on the table");
    }
  });

  it("turns a plate to take what fits only that way round, never the machine's table", () => {
    // 300 + 100 mm of clamps along the plate's 300 mm width does not fit; turned, along its 400 mm length
    const tall = box(200, 300);
    assert.equal(plateHolder(TEST_PLATE).refusal(tall, "y"), null);
    assert.equal(plateHolder(TEST_PLATE).layout(tall, "y").type, "fixture_plate");
    assert.notEqual(plateHolder(TEST_PLATE, "table").refusal(tall, "y"), null);
  });
});
