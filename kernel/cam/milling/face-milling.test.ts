import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Box3, Vec3 } from "../types.ts";
import { faceMilling } from "./face-milling.ts";
import { createSlicer } from "./slicer.ts";
import { InProcessStock } from "./stock.ts";
import { boxesSoup, cutting, endMill, HeightMap, POCKETED_BLOCK, STOCK } from "./test-support.ts";

describe("face milling", () => {
  const part = createSlicer(boxesSoup(POCKETED_BLOCK));
  const faceMill = endMill(20, { centre_cutting: false, tool_type: "FaceMill", flute_length: 6 });
  const outcome = faceMilling({
    part,
    stock: new InProcessStock(STOCK),
    tool: faceMill,
    parameters: cutting({ stepover_mm: 14, stepdown_mm: 1.5 }),
  });
  const operation = outcome.operation;

  it("takes the stock's top down to the part's top in levels no deeper than the stepdown", () => {
    assert.ok(operation, outcome.reason ?? "");
    const map = new HeightMap(STOCK, POCKETED_BLOCK);
    const report = map.run(operation.moves, 10, operation.clearance_z);
    assert.equal(report.gouges, 0);
    assert.equal(report.rapidsIntoMaterial, 0);
    assert.equal(report.verticalFeedsIntoMaterial, 0, "a face mill comes down outside the stock");
    assert.ok(
      map.top.every((top) => top <= -2 + 1e-9),
      "the whole top is down to -2",
    );
    const levels = [...new Set(operation.moves.flatMap((move) => (move.kind === "linear" ? [move.to[2]] : [])))].sort(
      (a, b) => b - a,
    );
    assert.deepEqual(levels, [-1, -2]);
    assert.deepEqual(
      outcome.cleared.map((layer) => layer.z),
      [-1, -2],
    );
  });

  it("overhangs the stock on both ends of every pass and covers it across", () => {
    assert.ok(operation);
    let at: Vec3 | null = null;
    const across: number[] = [];
    for (const move of operation.moves) {
      if (move.kind === "drill") continue;
      if (at && move.kind === "linear" && move.to[2] === at[2] && move.to[1] === at[1]) {
        assert.ok(
          Math.min(at[0], move.to[0]) <= STOCK.min[0] - 10 && Math.max(at[0], move.to[0]) >= STOCK.max[0] + 10,
          "a pass clears both ends",
        );
        across.push(move.to[1]);
      }
      at = move.to;
    }
    const ys = [...new Set(across)].sort((a, b) => a - b);
    assert.ok((ys[0] as number) - 10 <= STOCK.min[1] && (ys[ys.length - 1] as number) + 10 >= STOCK.max[1]);
    for (let i = 1; i < ys.length; i += 1) assert.ok((ys[i] as number) - (ys[i - 1] as number) <= 14 + 1e-9);
  });

  it("has nothing to do when the stock's top is the part's top", () => {
    const flush: Box3[] = [{ min: [5, 5, -22], max: [65, 45, 0] }];
    const none = faceMilling({
      part: createSlicer(boxesSoup(flush)),
      stock: new InProcessStock(STOCK),
      tool: faceMill,
      parameters: cutting(),
    });
    assert.equal(none.operation, null);
    assert.match(none.reason ?? "", /nothing to face/);
  });
});
