import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cellCentre, stockHeightField } from "../simulation/height-field.ts";
import { simulateSetup } from "../simulation/simulate.ts";
import type { Box3, Move, Operation, Vec2, Vec3 } from "../types.ts";
import { contour } from "./contour.ts";
import { faceMilling } from "./face-milling.ts";
import { floorFinishing, wallFinishing } from "./finishing.ts";
import type { MillingOutcome } from "./operation.ts";
import { createSlicer } from "./slicer.ts";
import { roughing } from "./roughing.ts";
import { difference, offset, rectangle, union } from "./polygons.ts";
import { CLEARANCE_MM } from "./regions.ts";
import { InProcessStock } from "./stock.ts";
import {
  boxesSoup,
  cutting,
  distanceToBoxesAbove,
  endMill,
  HeightMap,
  POCKET,
  POCKETED_BLOCK,
  samplePath,
  STOCK,
} from "./test-support.ts";

const R = 3;
const ROUGH_ALLOWANCE = 0.3;

function operationOf(outcome: MillingOutcome): Operation {
  assert.ok(outcome.operation, `no operation: ${outcome.reason}`);
  return outcome.operation;
}

/** The stock simulation of the pocketed block finds no gouge, rapid through material or holder collision. */
function assertSimulatedClean(operations: Operation[]): void {
  const simulated = simulateSetup({ stock: STOCK, part: boxesSoup(POCKETED_BLOCK), operations, cellSize: 0.2 });
  assert.deepEqual(
    [simulated.total.gouges, simulated.total.rapids_through_material, simulated.total.holder_collisions],
    [0, 0, 0],
    JSON.stringify(simulated.violations.slice(0, 3)),
  );
}

/** The pocketed block faced with a 20 mm end mill and roughed with an 8 mm one, leaving ROUGH_ALLOWANCE on the walls. */
function facedAndRoughed(allowanceZ: number) {
  const part = createSlicer(boxesSoup(POCKETED_BLOCK));
  const facing = {
    part,
    stock: new InProcessStock(STOCK),
    tool: endMill(20),
    parameters: cutting({ stepover_mm: 14, stepdown_mm: 1.5 }),
  };
  const faceOutcome = faceMilling(facing);
  const faced = facing.stock.withCleared(faceOutcome.cleared);
  const roughOutcome = roughing({
    part,
    stock: faced,
    tool: endMill(8),
    parameters: cutting({ allowance_xy_mm: ROUGH_ALLOWANCE, allowance_z_mm: allowanceZ }),
  });
  return {
    part,
    stock: faced.withCleared(roughOutcome.cleared),
    faced: operationOf(faceOutcome),
    rough: operationOf(roughOutcome),
  };
}

/** Linear moves at constant height, as (from, to) pairs. */
function levelMoves(moves: Move[]): [Vec3, Vec3][] {
  const out: [Vec3, Vec3][] = [];
  let at: Vec3 | null = null;
  for (const move of moves) {
    if (move.kind === "drill") continue;
    if (at && move.kind === "linear" && move.to[2] === at[2] && (move.to[0] !== at[0] || move.to[1] !== at[1]))
      out.push([at, move.to]);
    at = move.to;
  }
  return out;
}

/** The nearest point of the boxes above z to (x, y). */
function nearestOnBoxes(boxes: Box3[], x: number, y: number, z: number): Vec2 {
  let best: Vec2 = [x, y];
  let bestD = Infinity;
  for (const box of boxes) {
    if (box.max[2] <= z + 1e-9) continue;
    const p: Vec2 = [Math.min(Math.max(x, box.min[0]), box.max[0]), Math.min(Math.max(y, box.min[1]), box.max[1])];
    const d = Math.hypot(p[0] - x, p[1] - y);
    if (d < bestD) {
      bestD = d;
      best = p;
    }
  }
  return best;
}

/** the finishing tool: its flutes reach the block's 20 mm walls (its shank is as wide as the cut, so it may not follow them down) */
const finisher = endMill(2 * R, { flute_length: 21 });

describe("finishing a pocketed block after roughing", () => {
  const part = createSlicer(boxesSoup(POCKETED_BLOCK));
  let stock = new InProcessStock(STOCK);
  const faced = operationOf(
    faceMilling({
      part,
      stock,
      tool: endMill(20, { centre_cutting: false }),
      parameters: cutting({ stepover_mm: 14, stepdown_mm: 1.5 }),
    }),
  );
  stock = stock.withCleared(
    faceMilling({ part, stock, tool: endMill(20), parameters: cutting({ stepover_mm: 14, stepdown_mm: 1.5 }) }).cleared,
  );
  const roughOutcome = roughing({
    part,
    stock,
    tool: endMill(8),
    parameters: cutting({ allowance_xy_mm: ROUGH_ALLOWANCE, allowance_z_mm: 0.2 }),
  });
  const rough = operationOf(roughOutcome);
  stock = stock.withCleared(roughOutcome.cleared);
  const floorOutcome = floorFinishing({
    part,
    stock,
    tool: finisher,
    parameters: cutting({ allowance_xy_mm: ROUGH_ALLOWANCE, stepover_mm: 2.4 }),
  });
  const floors = operationOf(floorOutcome);
  stock = stock.withCleared(floorOutcome.cleared);
  const wallOutcome = wallFinishing({
    part,
    stock,
    tool: finisher,
    parameters: cutting({ stepdown_mm: 10, stepover_mm: 0.5 }),
  });
  const walls = operationOf(wallOutcome);
  stock = stock.withCleared(wallOutcome.cleared);
  const profile = operationOf(
    contour({ part, stock, tool: finisher, parameters: cutting({ stepdown_mm: 10, stepover_mm: 0.5 }) }),
  );

  it("runs the wall passes at exactly the tool radius from the walls (within 1e-3 mm), never closer", () => {
    let atWall = 0;
    let closest = Infinity;
    for (const { point, kind } of samplePath(walls.moves, walls.clearance_z, 0.1)) {
      if (kind === "rapid") continue;
      const d = distanceToBoxesAbove(POCKETED_BLOCK, point[0], point[1], point[2] + 1e-6);
      closest = Math.min(closest, d);
      // (lead arcs come and go tangentially: only the passes themselves are held to the radius)
      if (kind === "linear" && d < R + 0.05) {
        assert.ok(Math.abs(d - R) <= 1e-3, `a wall pass ${d} from the wall at ${point}`);
        atWall += 1;
      }
    }
    assert.ok(closest >= R - 1e-3, `closest ${closest}`);
    assert.ok(atWall > 1000, `${atWall} points on walls`);
  });

  it("climb mills: the wall is on the right of every wall pass", () => {
    let checked = 0;
    for (const [from, to] of levelMoves(walls.moves)) {
      const mid: Vec2 = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2];
      if (Math.abs(distanceToBoxesAbove(POCKETED_BLOCK, mid[0], mid[1], to[2] + 1e-6) - R) > 1e-3) continue;
      const wall = nearestOnBoxes(POCKETED_BLOCK, mid[0], mid[1], to[2] + 1e-6);
      const cross = (to[0] - from[0]) * (wall[1] - mid[1]) - (to[1] - from[1]) * (wall[0] - mid[0]);
      assert.ok(cross < 0, `the wall is on the left of ${from} -> ${to}`);
      checked += 1;
    }
    assert.ok(checked > 20);
  });

  it("enters every closed wall loop by a quarter-circle arc tangent to the wall", () => {
    let at: Vec3 | null = null;
    let leadIns = 0;
    walls.moves.forEach((move, index) => {
      if (move.kind === "drill") return;
      const next = walls.moves[index + 1];
      const onWall = (p: Vec3): boolean =>
        Math.abs(distanceToBoxesAbove(POCKETED_BLOCK, p[0], p[1], p[2] + 1e-6) - R) <= 1e-3;
      if (move.kind === "arc" && at && !onWall(move.to)) assert.ok(onWall(at), "a lead-out starts on the wall pass");
      if (move.kind === "arc" && at && onWall(move.to) && next?.kind === "linear") {
        const r = Math.hypot(at[0] - move.centre[0], at[1] - move.centre[1]);
        const e: Vec2 = [move.to[0] - move.centre[0], move.to[1] - move.centre[1]];
        // counter-clockwise: the tangent at the end is the radius turned left
        const tangent: Vec2 = [-e[1] / r, e[0] / r];
        const d: Vec2 = [next.to[0] - move.to[0], next.to[1] - move.to[1]];
        const cos = (tangent[0] * d[0] + tangent[1] * d[1]) / Math.hypot(d[0], d[1]);
        assert.ok(cos > 0.999, `lead-in not tangent (cos ${cos})`);
        const start: Vec2 = [at[0] - move.centre[0], at[1] - move.centre[1]];
        const turn = Math.atan2(start[0] * e[1] - start[1] * e[0], start[0] * e[0] + start[1] * e[1]);
        assert.ok(Math.abs(turn - Math.PI / 2) < 1e-6, `turns ${turn}`);
        leadIns += 1;
      }
      at = move.to;
    });
    // the outside and the pocket, at each level with walls
    assert.ok(leadIns >= 4, `${leadIns} lead-ins`);
  });

  it("finishes the pocket floor at its exact height, keeping the walls' allowance", () => {
    const inPocket = levelMoves(floors.moves).filter(
      ([, to]) => to[0] > POCKET.min[0] && to[0] < POCKET.max[0] && to[1] > POCKET.min[1] && to[1] < POCKET.max[1],
    );
    assert.ok(inPocket.length > 0);
    for (const [, to] of inPocket) assert.equal(to[2], POCKET.floor);
    for (const { point, kind } of samplePath(floors.moves, floors.clearance_z, 0.1)) {
      if (kind === "rapid") continue;
      assert.ok(
        distanceToBoxesAbove(POCKETED_BLOCK, point[0], point[1], point[2] + 1e-6) >= R + ROUGH_ALLOWANCE - 1e-3,
        `${point}`,
      );
    }
  });

  it("contours only the outer silhouette, clockwise, at the tool radius", () => {
    let checked = 0;
    for (const [from, to] of levelMoves(profile.moves)) {
      assert.ok(
        !(to[0] > POCKET.min[0] && to[0] < POCKET.max[0] && to[1] > POCKET.min[1] && to[1] < POCKET.max[1]),
        "no pass in the pocket",
      );
      const mid: Vec2 = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2];
      const d = distanceToBoxesAbove(POCKETED_BLOCK, mid[0], mid[1], to[2] + 1e-6);
      if (Math.abs(d - R) > 1e-3) continue;
      const wall = nearestOnBoxes(POCKETED_BLOCK, mid[0], mid[1], to[2] + 1e-6);
      assert.ok(
        (to[0] - from[0]) * (wall[1] - mid[1]) - (to[1] - from[1]) * (wall[0] - mid[0]) < 0,
        "clockwise round the part",
      );
      checked += 1;
    }
    assert.ok(checked > 8);
  });

  it("leaves only the corners a 6 mm tool cannot reach, without gouge, rapid into material or collision", () => {
    const operations = [faced, rough, floors, walls, profile];
    const map = new HeightMap(STOCK, POCKETED_BLOCK);
    for (const [operation, radius] of [
      [faced, 10],
      [rough, 4],
      [floors, R],
      [walls, R],
      [profile, R],
    ] as const) {
      const report = map.run(operation.moves, radius, operation.clearance_z);
      assert.equal(report.gouges, 0, `${operation.kind}: ${report.worstGouge}`);
      assert.equal(report.rapidsIntoMaterial, 0, operation.kind);
    }
    // the pocket corners: (1 - pi / 4) R² each, over the pocket's 8 mm depth, within the grid's reach
    const corners = 4 * (1 - Math.PI / 4) * R * R * 8;
    assert.ok(map.materialAbovePart(-22) < 1.5 * corners, `left ${map.materialAbovePart(-22)} mm³`);
    const simulated = simulateSetup({ stock: STOCK, part: boxesSoup(POCKETED_BLOCK), operations, cellSize: 0.2 });
    assert.deepEqual(
      [simulated.total.gouges, simulated.total.rapids_through_material, simulated.total.holder_collisions],
      [0, 0, 0],
      JSON.stringify(simulated.violations.slice(0, 3)),
    );
  });
});

describe("finishing a pocket's walls in several levels", () => {
  const { part, stock, faced, rough } = facedAndRoughed(0);
  const parameters = cutting({ stepdown_mm: 2, stepover_mm: 0.5 });
  const walls = operationOf(wallFinishing({ part, stock, tool: finisher, parameters }));
  const AIR = 3 * parameters.feed_mm_min;
  const fast = operationOf(wallFinishing({ part, stock, tool: finisher, parameters, air_feed_mm_min: AIR }));
  const inPocket = (p: Vec3) =>
    p[0] > POCKET.min[0] && p[0] < POCKET.max[0] && p[1] > POCKET.min[1] && p[1] < POCKET.max[1];

  it("stays down from a level to the next on the same wall: into the pocket every other level at most", () => {
    let at: Vec3 = [0, 0, walls.clearance_z];
    let entries = 0;
    const levels = new Set<number>();
    for (const move of walls.moves) {
      if (move.kind === "drill") continue;
      if (inPocket(move.to) && move.to[2] < -2 && !(inPocket(at) && at[2] < -2)) entries += 1;
      if (inPocket(move.to) && move.kind === "linear") levels.add(move.to[2]);
      at = move.to;
    }
    // the outer walls and the pocket's take turns being first at a level: the one the tool is at
    // the end of goes on down, the other is gone into from above
    assert.ok(levels.size >= 4, `the pocket's walls at ${[...levels].join(", ")}`);
    assert.ok(entries <= levels.size / 2, `${entries} ways into the pocket for ${levels.size} levels`);
    assertSimulatedClean([faced, rough, walls]);
  });

  it("feeds through cleared air at the air feed, cutting nothing there, and keeps the cutting feed beside the stock's faces", () => {
    const inset = R + 2;
    let air = 0;
    let besideFaces = 0;
    for (const move of fast.moves) {
      if (move.kind !== "linear") continue;
      const inside =
        move.to[0] >= STOCK.min[0] + inset &&
        move.to[0] <= STOCK.max[0] - inset &&
        move.to[1] >= STOCK.min[1] + inset &&
        move.to[1] <= STOCK.max[1] - inset;
      if (move.feed === AIR) {
        assert.ok(inside && move.to[2] <= STOCK.max[2], `an air feed to ${move.to}`);
        air += 1;
      } else if (!inside && move.to[2] < -2) besideFaces += 1;
    }
    assert.ok(air >= 2, `${air} air feeds`);
    assert.ok(besideFaces > 0);
    // the air feeds as rapids: the height map finds none through material
    const map = new HeightMap(STOCK, POCKETED_BLOCK);
    map.run(faced.moves, 10, faced.clearance_z);
    map.run(rough.moves, 4, fast.clearance_z);
    const asRapids = fast.moves.map(
      (move): Move => (move.kind === "linear" && move.feed === AIR ? { kind: "rapid", to: move.to } : move),
    );
    const report = map.run(asRapids, R, fast.clearance_z);
    assert.deepEqual([report.gouges, report.rapidsIntoMaterial], [0, 0]);
    // the last millimetre down to a start no material stands over is air too
    const plunges = (operation: Operation) =>
      operation.moves.filter((move) => move.kind === "linear" && move.feed === parameters.plunge_feed_mm_min).length;
    assert.ok(plunges(fast) < plunges(walls), `${plunges(fast)} plunges, ${plunges(walls)} without the air feed`);
  });
});

describe("finishing walls deeper than the flutes with a shank as wide as the cut", () => {
  it("keeps the shank clear of the walls above the flutes, and the simulation finds no contact", () => {
    const { part, stock, faced, rough } = facedAndRoughed(0.2);
    // 18 mm of flutes, a 6 mm shank above them, walls 20 mm deep
    const short = endMill(2 * R, { flute_length: 18 });
    const walls = operationOf(
      wallFinishing({ part, stock, tool: short, parameters: cutting({ stepdown_mm: 10, stepover_mm: 0.5 }) }),
    );
    // levels at -10, -16 and -22: at -22 the shank would run along the outer walls from -4 up
    const atWall = new Map<number, number>();
    for (const { point, kind } of samplePath(walls.moves, walls.clearance_z, 0.1)) {
      if (kind === "rapid") continue;
      const shankAt = point[2] + 18;
      assert.ok(
        distanceToBoxesAbove(POCKETED_BLOCK, point[0], point[1], shankAt) >= R + 0.5 - 1e-3,
        `the shank within 0.5 mm of a wall at ${point}`,
      );
      if (Math.abs(distanceToBoxesAbove(POCKETED_BLOCK, point[0], point[1], point[2] + 1e-6) - R) < 1e-3)
        atWall.set(point[2], (atWall.get(point[2]) ?? 0) + 1);
    }
    assert.ok((atWall.get(-16) ?? 0) > 100, "the walls are finished down to where the shank would meet them");
    assert.equal(atWall.get(-22) ?? 0, 0);
    assertSimulatedClean([faced, rough, walls]);
  });
});

describe("finishing a wall beside stock the tool cannot take", () => {
  it("keeps the passes a radius and its clearance from it once it stands above the flutes: the ends do not creep into it level by level", () => {
    // a boss 3 mm below the stock's top whose walls keep 0.3 mm of stock, and beside its front
    // wall (y = 10) a column of stock standing to the top (x 30..33, y 7..10), always more than
    // the stepdown above the levels of a 2 mm end mill (6 mm flutes, stepdown 0.5 mm) with a
    // neck narrower than the cut, as long as the walls are deep: nothing but the flutes' own
    // radius keeps the tool from stock above them
    const boss: Box3 = { min: [10, 10, -20], max: [60, 40, -3] };
    const column: Box3 = { min: [30, 7, -25], max: [33, 10, 0] };
    const part = createSlicer(boxesSoup([boss]));
    const everything = rectangle([STOCK.min[0], STOCK.min[1]], [STOCK.max[0], STOCK.max[1]]);
    const columnArea = rectangle([column.min[0], column.min[1]], [column.max[0], column.max[1]]);
    const wallStock = offset(rectangle([boss.min[0], boss.min[1]], [boss.max[0], boss.max[1]]), 0.3);
    const stock = new InProcessStock(STOCK).withCleared([
      { z: -3, area: difference(everything, columnArea) },
      { z: -20, area: difference(everything, union(wallStock, columnArea)) },
    ]);
    const tool = endMill(2, { flute_length: 6, neck_diameter: 1.8, neck_length: 20 });
    const walls = operationOf(
      wallFinishing({ part, stock, tool, parameters: cutting({ stepdown_mm: 0.5, stepover_mm: 0.5 }) }),
    );
    // the same stock for the simulation, cell by cell
    const initial = stockHeightField(STOCK, 0.1);
    initial.heights.forEach((_, k) => {
      const [x, y] = cellCentre(initial, k);
      const onWall =
        Math.hypot(Math.max(boss.min[0] - x, 0, x - boss.max[0]), Math.max(boss.min[1] - y, 0, y - boss.max[1])) <= 0.3;
      const inColumn = x >= column.min[0] && x <= column.max[0] && y >= column.min[1] && y <= column.max[1];
      initial.heights[k] = inColumn ? 0 : onWall ? -3 : -20;
    });
    const simulated = simulateSetup({
      stock: STOCK,
      part: boxesSoup([boss]),
      operations: [walls],
      initial,
      cellSize: 0.1,
    });
    assert.deepEqual(
      [simulated.total.gouges, simulated.total.rapids_through_material, simulated.total.holder_collisions],
      [0, 0, 0],
      JSON.stringify(simulated.violations.slice(0, 3)),
    );
    // and the passes along the front wall still go up to the column, at 30 levels and more
    const nearest = new Map<number, number>();
    for (const { point, kind, move } of samplePath(walls.moves, walls.clearance_z, 0.01)) {
      const cut = walls.moves[move];
      if (kind === "rapid" || cut === undefined || cut.kind === "drill" || cut.to[2] !== point[2]) continue;
      nearest.set(
        point[2],
        Math.min(nearest.get(point[2]) ?? Infinity, distanceToBoxesAbove([column], point[0], point[1], point[2])),
      );
    }
    assert.ok(
      [...nearest.values()].filter((d) => d < 1 + CLEARANCE_MM + 0.3).length >= 30,
      JSON.stringify([...nearest]),
    );
  });
});
