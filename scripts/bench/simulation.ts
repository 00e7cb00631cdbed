/**
 * `npm run bench:simulation`: the simulation on a realistic setup, timed.
 *
 * A 200 x 150 x 40 block at 0.1 mm (3 million cells; another cell size as the first argument,
 * `npm run bench:simulation -- 0.2`) for a plate with a raised rim, a central
 * boss, a shelf along the back, a pocket between them and 20 holes through the pocket's floor:
 * facing with a 50 mm face mill, roughing in 6 levels with a 10 mm end mill (helical entries),
 * wall finishing with a 6 mm end mill (arcs round the boss), 3D finishing of a wavy surface over
 * the shelf with a 6 mm ball, peck drilling.
 */
import { performance } from "node:perf_hooks";
import type { Box3, Move, Operation } from "../../kernel/cam/types.ts";
import { stockGrid } from "../../kernel/cam/simulation/height-field.ts";
import { partHeights } from "../../kernel/cam/simulation/part-heights.ts";
import { simulateSetup } from "../../kernel/cam/simulation/simulate.ts";
import { boxesSoup, cutter, feed, operation, rapid } from "../../kernel/cam/simulation/test-support.ts";

const stock: Box3 = { min: [0, 0, -40], max: [200, 150, 0] };
const cellSize = Number(process.argv[2] ?? 0.1);
const TOP = -2,
  FLOOR = -20,
  SHELF = -10;
const holes: [number, number][] = [];
for (const y of [25, 40]) for (let x = 25; x <= 175; x += 16.5) holes.push([x, y]);

/** The base plate with square openings 9 mm wide round each hole, the rim and the boss. */
function plate(): Box3[] {
  const boxes: Box3[] = [];
  const half = 4.5;
  let y = 0;
  for (const hy of [25, 40]) {
    boxes.push({ min: [0, y, -40], max: [200, hy - half, FLOOR] });
    let x = 0;
    for (const [hx, hy2] of holes) {
      if (hy2 !== hy) continue;
      boxes.push({ min: [x, hy - half, -40], max: [hx - half, hy + half, FLOOR] });
      x = hx + half;
    }
    boxes.push({ min: [x, hy - half, -40], max: [200, hy + half, FLOOR] });
    y = hy + half;
  }
  boxes.push({ min: [0, y, -40], max: [200, 150, FLOOR] });
  boxes.push({ min: [0, 0, FLOOR], max: [10, 150, TOP] }, { min: [190, 0, FLOOR], max: [200, 150, TOP] });
  boxes.push({ min: [10, 0, FLOOR], max: [190, 10, TOP] }, { min: [10, 140, FLOOR], max: [190, 150, TOP] });
  boxes.push({ min: [70, 55, FLOOR], max: [130, 95, TOP] }, { min: [10, 105, FLOOR], max: [190, 140, SHELF] });
  return boxes;
}

function facing(): Operation {
  const moves: Move[] = [rapid(-30, 10, 5), rapid(-30, 10, TOP)];
  for (let y = 10, n = 0; y <= 150; y += 35, n++)
    moves.push(feed(n % 2 ? 230 : -30, y, TOP), feed(n % 2 ? -30 : 230, y, TOP), feed(n % 2 ? -30 : 230, y + 35, TOP));
  return operation(cutter("flat", 50, { flute_length: 8, shank_diameter: 22, stick_out: 45 }), moves, 10);
}

/** A helical entry of 2.5 mm radius down to z, from 0.5 mm above the last level. */
function helix(x: number, y: number, from: number, to: number): Move[] {
  const moves: Move[] = [rapid(x + 2.5, y, 5), rapid(x + 2.5, y, from + 0.5)];
  for (let z = from; z > to; z = Math.max(to, z - 1))
    moves.push({ kind: "arc", to: [x + 2.5, y, Math.max(to, z - 1)], centre: [x, y], clockwise: false, feed: 800 });
  moves.push({ kind: "arc", to: [x + 2.5, y, to], centre: [x, y], clockwise: false, feed: 800 });
  return moves;
}

function roughing(tool = cutter("flat", 10, { flute_length: 25, stick_out: 35 })): Operation {
  const moves: Move[] = [];
  for (let level = 1; level <= 6; level++) {
    const z = TOP + ((FLOOR + 0.3 - TOP) * level) / 6;
    const previous = level === 1 ? 0 : TOP + ((FLOOR + 0.3 - TOP) * (level - 1)) / 6;
    moves.push(...helix(20, 20, previous, z), feed(15, 15, z));
    // below the shelf's top, the pocket stops short of it
    for (let y = 15, n = 0; y <= (z > SHELF ? 135 : 100); y += 4, n++) {
      const blocked = y > 50 && y < 100;
      const [a, b] = n % 2 ? [185, 15] : [15, 185];
      moves.push(feed(a, y, z));
      if (blocked) {
        // round the boss over the top: up, across, down
        const [stop, restart] = n % 2 ? [135, 65] : [65, 135];
        moves.push(feed(stop, y, z), rapid(stop, y, 2), rapid(restart, y, 2), feed(restart, y, z));
      }
      moves.push(feed(b, y, z));
    }
    const last = moves.at(-1) as Move & { to: [number, number, number] };
    moves.push(rapid(last.to[0], last.to[1], 5));
  }
  return operation(tool, moves, 5);
}

/** Round the boss (with arcs at its corners) and along the rim short of the shelf, 3 mm out, in 4 levels. */
function finishing(): Operation {
  const r = 3,
    moves: Move[] = [];
  for (let level = 1; level <= 4; level++) {
    const z = TOP + ((FLOOR - TOP) * level) / 4;
    moves.push(rapid(70 - r, 55, 5), rapid(70 - r, 55, 0), feed(70 - r, 55, z));
    moves.push(
      { kind: "arc", to: [70, 55 - r, z], centre: [70, 55], clockwise: false, feed: 600 },
      feed(130, 55 - r, z),
    );
    moves.push(
      { kind: "arc", to: [130 + r, 55, z], centre: [130, 55], clockwise: false, feed: 600 },
      feed(130 + r, 95, z),
    );
    moves.push(
      { kind: "arc", to: [130, 95 + r, z], centre: [130, 95], clockwise: false, feed: 600 },
      feed(70, 95 + r, z),
    );
    moves.push(
      { kind: "arc", to: [70 - r, 95, z], centre: [70, 95], clockwise: false, feed: 600 },
      feed(70 - r, 55, z),
      rapid(70 - r, 55, 5),
    );
    moves.push(
      rapid(13, 100, 5),
      rapid(13, 100, 0),
      feed(13, 100, z),
      feed(13, 13, z),
      feed(187, 13, z),
      feed(187, 100, z),
      rapid(187, 100, 5),
    );
  }
  return operation(cutter("flat", 6, { flute_length: 22, stick_out: 30 }), moves, 5);
}

/** A wavy surface 50 x 27 mm over the shelf, 0.25 mm stepover, 1 mm segments. */
function waves(): Operation {
  const moves: Move[] = [rapid(15, 108, 5)];
  const height = (x: number, y: number) => SHELF + 2.5 + 1.5 * Math.sin(x / 6) * Math.cos(y / 9);
  for (let y = 108, n = 0; y <= 135; y += 0.25, n++) {
    for (let s = 0; s <= 50; s += 1) {
      const x = n % 2 ? 65 - s : 15 + s;
      moves.push(feed(x, y, height(x, y)));
    }
  }
  moves.push(rapid(15, 135, 5));
  return operation(cutter("ball", 6, { flute_length: 18, stick_out: 30 }), moves, 5);
}

function drilling(): Operation {
  const cycle: Move = {
    kind: "drill",
    cycle: "peck",
    at: holes,
    retract_z: FLOOR + 2,
    top_z: FLOOR,
    bottom_z: -41,
    peck_mm: 5,
    dwell_s: 0,
    feed: 200,
  };
  return operation(
    cutter("drill", 8, { flute_length: 45, stick_out: 60 }),
    [rapid(holes[0]![0], holes[0]![1], 5), cycle, rapid(holes.at(-1)![0], holes.at(-1)![1], 5)],
    5,
  );
}

function pathLength(operations: Operation[]): number {
  let total = 0;
  for (const op of operations) {
    let at = op.moves[0]?.kind === "drill" ? null : (op.moves[0]?.to ?? null);
    for (const move of op.moves) {
      if (move.kind === "drill" || at === null) {
        at = null;
        continue;
      }
      if (move.kind === "arc") {
        const r = Math.hypot(at[0] - move.centre[0], at[1] - move.centre[1]);
        const a0 = Math.atan2(at[1] - move.centre[1], at[0] - move.centre[0]),
          a1 = Math.atan2(move.to[1] - move.centre[1], move.to[0] - move.centre[0]);
        let sweep = (move.clockwise ? a0 - a1 : a1 - a0) % (2 * Math.PI);
        if (sweep <= 1e-9) sweep += 2 * Math.PI;
        total += Math.hypot(r * sweep, move.to[2] - at[2]);
      } else {
        total += Math.hypot(move.to[0] - at[0], move.to[1] - at[1], move.to[2] - at[2]);
      }
      at = move.to;
    }
  }
  return total;
}

const part = boxesSoup(plate());
const operations = [facing(), roughing(), finishing(), waves(), drilling()];
const moves = operations.reduce((n, op) => n + op.moves.length, 0);
let started = performance.now();
const heights = partHeights(stockGrid(stock, cellSize), part);
const rasterMs = performance.now() - started;
started = performance.now();
const result = simulateSetup({ stock, part, operations, partHeights: heights, cellSize });
const simulateMs = performance.now() - started;
console.log(
  `${plate().length} boxes; ${result.cells} cells, ${operations.length} operations, ${moves} moves, ${(pathLength(operations) / 1000).toFixed(1)} m of toolpath (drill cycles not counted)`,
);
console.log(`part heights ${rasterMs.toFixed(0)} ms; simulation ${simulateMs.toFixed(0)} ms`);
for (const op of [...result.operations, { operation_id: "total", ...result.total }]) {
  console.log(
    `${op.operation_id}: gouges ${op.gouges}, rapids through material ${op.rapids_through_material}, collisions ${op.holder_collisions}, left ${op.material_left_mm3.toFixed(0)} mm³ (${op.material_left_pct.toFixed(1)} %)`,
  );
}
for (const v of result.violations.slice(0, 5)) console.log(v);

// each operation alone, continuing from the field the ones before it left
let field = undefined as ReturnType<typeof simulateSetup>["field"] | undefined;
for (const op of operations) {
  const t = performance.now();
  const alone = simulateSetup({ stock, part, operations: [op], partHeights: heights, initial: field, cellSize });
  console.log(
    `${op.id} ${op.tool.name}: ${op.moves.length} moves, ${(pathLength([op]) / 1000).toFixed(1)} m, ${(performance.now() - t).toFixed(0)} ms`,
  );
  field = alone.field;
}

// the roughing again with a bull nose: every cell's envelope computed, helices minimised numerically
const bull = roughing(cutter("bull", 10, { corner_radius: 1, flute_length: 25, stick_out: 35 }));
const t = performance.now();
const withBull = simulateSetup({
  stock,
  part,
  operations: [operations[0] as Operation, bull],
  partHeights: heights,
  cellSize,
});
console.log(
  `facing, then roughing with a 10 mm bull nose (r 1): ${(performance.now() - t).toFixed(0)} ms, gouges ${withBull.total.gouges}, left ${withBull.total.material_left_pct.toFixed(1)} %`,
);
