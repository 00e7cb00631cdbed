import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boundingBoxStock, STOCK_OFFSET_MAX_MM, StockOffsets } from "./stock.ts";

const bbox = {
  min: [0, 0, 0] as [number, number, number],
  max: [85.51920318603516, 44.62131118774414, 27.52680015563965] as [number, number, number],
};

describe("boundingBoxStock", () => {
  it("grows the part's box by each offset and reports min, max and size", () => {
    const stock = boundingBoxStock(bbox, { minus_x: 2, plus_x: 3, minus_y: 1.5, plus_y: 1.5, minus_z: 0, plus_z: 5 });
    assert.equal(stock.type, "bounding_box");
    assert.deepEqual(stock.min, [-2, -1.5, 0]);
    assert.deepEqual(stock.max, [88.519203, 46.121311, 32.5268]);
    assert.deepEqual(stock.size, [90.519203, 47.621311, 32.5268]);
  });

  it("keeps the part's box for zero offsets and rounds away float noise", () => {
    const stock = boundingBoxStock(
      { min: [0.1, -0.2, 0], max: [0.2, 0.1, 0.3] },
      { minus_x: 0, plus_x: 0.1, minus_y: 0, plus_y: 0.2, minus_z: 0, plus_z: 0 },
    );
    assert.deepEqual(stock.max, [0.3, 0.3, 0.3]);
    assert.deepEqual(stock.size, [0.2, 0.5, 0.3]);
    assert.ok(!Object.is(stock.min[2], -0), "no negative zero");
  });

  it("accepts offsets from 0 to the bound and refuses negative, infinite, NaN, too large, missing or unknown ones", () => {
    const ok = { minus_x: 0, plus_x: STOCK_OFFSET_MAX_MM, minus_y: 1, plus_y: 1, minus_z: 1, plus_z: 1 };
    assert.equal(StockOffsets.safeParse(ok).success, true);
    for (const bad of [-0.001, Infinity, -Infinity, NaN, STOCK_OFFSET_MAX_MM + 0.001, "5", null]) {
      assert.equal(StockOffsets.safeParse({ ...ok, minus_x: bad }).success, false, String(bad));
    }
    const { plus_z: _missing, ...five } = ok;
    assert.equal(StockOffsets.safeParse(five).success, false);
    assert.equal(StockOffsets.safeParse({ ...ok, plus_w: 1 }).success, false);
  });
});
