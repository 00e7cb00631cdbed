import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSlicer } from "./slicer.ts";
import { restRoughing, roughing } from "./roughing.ts";
import { InProcessStock } from "./stock.ts";
import {
  boxesSoup,
  cutting,
  endMill,
  HeightMap,
  levelFeedLength,
  POCKET,
  POCKETED_BLOCK,
  STOCK,
} from "./test-support.ts";

const BIG = 4;
const SMALL = 1.5;
const ALLOWANCE = 0.3;

describe("rest roughing", () => {
  const part = createSlicer(boxesSoup(POCKETED_BLOCK));
  const parameters = cutting({ allowance_xy_mm: ALLOWANCE, allowance_z_mm: 0.2 });
  const big = roughing({ part, stock: new InProcessStock(STOCK), tool: endMill(2 * BIG), parameters });
  assert.ok(big.operation);
  const leftByBig = new InProcessStock(STOCK).withCleared(big.cleared);
  const rest = restRoughing({
    part,
    stock: leftByBig,
    tool: endMill(2 * SMALL),
    parameters: cutting({ allowance_xy_mm: ALLOWANCE, allowance_z_mm: 0.2, stepover_mm: 1.2 }),
  });
  assert.ok(rest.operation, rest.reason ?? "");

  // where the big tool's centre could go in the pocket: its corners are what it leaves
  const reach: { min: [number, number]; max: [number, number] } = {
    min: [POCKET.min[0] + BIG + ALLOWANCE, POCKET.min[1] + BIG + ALLOWANCE],
    max: [POCKET.max[0] - BIG - ALLOWANCE, POCKET.max[1] - BIG - ALLOWANCE],
  };
  const fromBigReach = (x: number, y: number): number =>
    Math.hypot(Math.max(reach.min[0] - x, 0, x - reach.max[0]), Math.max(reach.min[1] - y, 0, y - reach.max[1]));
  const inPocket = (x: number, y: number): boolean =>
    x > POCKET.min[0] && x < POCKET.max[0] && y > POCKET.min[1] && y < POCKET.max[1];

  it("cuts only the pocket corners the larger tool could not reach", () => {
    const map = new HeightMap(STOCK, POCKETED_BLOCK);
    map.run(big.operation?.moves ?? [], BIG, 5);
    const cornerMaterial = (): number => {
      let sum = 0;
      for (let j = 0; j < map.ny; j += 1)
        for (let i = 0; i < map.nx; i += 1) {
          const [x, y] = map.centre(i, j);
          // the corners beyond the walls' allowance (which both tools leave)
          const fromWalls = Math.min(x - POCKET.min[0], POCKET.max[0] - x, y - POCKET.min[1], POCKET.max[1] - y);
          if (inPocket(x, y) && fromWalls > ALLOWANCE + map.cell && fromBigReach(x, y) > BIG)
            sum += Math.max(0, (map.top[j * map.nx + i] as number) - (POCKET.floor + 0.2));
        }
      return sum * map.cell * map.cell;
    };
    const before = cornerMaterial();
    const report = map.run(rest.operation?.moves ?? [], SMALL, 5);
    assert.equal(report.gouges, 0);
    assert.equal(report.rapidsIntoMaterial, 0);
    assert.equal(report.verticalFeedsIntoMaterial, 0, `moves ${report.offending}`);
    assert.ok(map.changed.size > 0);
    for (const cell of map.changed) {
      const [x, y] = map.centre(cell % map.nx, Math.floor(cell / map.nx));
      assert.ok(inPocket(x, y), `cell (${x}, ${y}) outside the pocket`);
      assert.ok(fromBigReach(x, y) > BIG - 2 * map.cell, `cell (${x}, ${y}) was within the larger tool's reach`);
    }
    const after = cornerMaterial();
    assert.ok(after < 0.4 * before, `corner material ${before.toFixed(1)} -> ${after.toFixed(1)} mm³`);
  });

  it("cuts far less than the roughing before it", () => {
    const restLength = levelFeedLength(rest.operation?.moves ?? []);
    const bigLength = levelFeedLength(big.operation?.moves ?? []);
    assert.ok(restLength < 0.25 * bigLength, `${restLength.toFixed(0)} mm against ${bigLength.toFixed(0)} mm`);
  });

  it("refuses without the stock an earlier roughing left", () => {
    const outcome = restRoughing({ part, stock: new InProcessStock(STOCK), tool: endMill(3), parameters });
    assert.equal(outcome.operation, null);
    assert.match(outcome.reason ?? "", /earlier roughing/);
  });
});
