import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Box3, Move } from "../types.ts";
import { TEST_VISE } from "../../workholding/test-support.ts";
import { viseLayout } from "../../workholding/vise-geometry.ts";
import { fixtureBoxAt, fixtureField, workholdingCollisions } from "./fixtures.ts";
import { cellAt } from "./height-field.ts";
import { cutter, feed, near, operation, rapid } from "./test-support.ts";

// A 100 x 60 x 30 mm blank in the 150 mm test vise, gripped 5 mm deep on 40 mm parallels: the
// jaws span x -25..125, the fixed one y 60..80, the moving one y -20..0, both z -70..-25; the
// parallels lie under the blank along each jaw (y 0..5 and 55..60, z -70..-30).
const stock: Box3 = { min: [0, 0, -30], max: [100, 60, 0] };
const layout = viseLayout(TEST_VISE, stock, 5);
const boxes: Box3[] = [layout.jaws.fixed, layout.jaws.moving, ...layout.supports];
const FIXED = 0,
  MOVING = 1,
  PARALLEL_NEAR_MOVING = 2;
/** what the simulation demands (issue 35: at least 1 mm) */
const CLEARANCE_MM = 1;
const field = fixtureField(boxes, CLEARANCE_MM);
const JAW_HEIGHT = -25 + CLEARANCE_MM;

/** A 10 mm end mill, 22 mm of flutes, 30 mm out of a holder 30 mm across at its nose. */
const endMill = cutter("flat", 10, {
  flute_length: 22,
  stick_out: 30,
  holder: [{ length: 40, lower_diameter: 30, upper_diameter: 40 }],
});

const heightAt = (x: number, y: number): number => field.heights[cellAt(field, x, y)] as number;

describe("fixtureField", () => {
  it("holds the vise's boxes grown by the clearance and half a cell's diagonal, no more", () => {
    assert.deepEqual(layout.jaws.fixed, { min: [-25, 60, -70], max: [125, 80, -25] });
    assert.equal(field.top, JAW_HEIGHT);
    // 0.25 mm cells over x -26.25..126.25, y -21.25..81.25: centres at -26.125 + 0.25 i, -21.125 + 0.25 j
    assert.deepEqual(
      [field.x0, field.y0, field.nx, field.ny, field.dx, field.dy],
      [-26.25, -21.25, 610, 410, 0.25, 0.25],
    );
    assert.equal(heightAt(50.1, 70.1), JAW_HEIGHT, "inside the fixed jaw");
    assert.equal(heightAt(50.1, 81.1), JAW_HEIGHT, "1.125 mm beyond its outer face: within 1 + 0.177");
    assert.equal(heightAt(50.1, 58.9), JAW_HEIGHT, "1.125 mm inside the blank from the jaw's face");
    assert.equal(heightAt(50.1, 58.6), -30 + CLEARANCE_MM, "1.375 mm from the jaw, over the parallel: its top + 1");
    assert.equal(heightAt(50.1, 53.9), -30 + CLEARANCE_MM, "1.125 mm beside the parallel");
    assert.equal(heightAt(50.1, 53.6), -Infinity, "1.375 mm beside the parallel: nothing");
    assert.equal(heightAt(50.1, 30.1), -Infinity, "the middle of the blank");
    // beyond the fixed jaw's outer corner (125, 80): a box grown square would hold both
    assert.equal(heightAt(125.7, 80.9), JAW_HEIGHT, "(0.625, 0.875) from the corner: 1.075 mm");
    assert.equal(heightAt(125.9, 80.9), -Infinity, "(0.875, 0.875) from the corner: 1.237 mm");
    assert.equal(fixtureBoxAt(field, cellAt(field, 50.1, 81.1)), FIXED);
    assert.equal(fixtureBoxAt(field, cellAt(field, 50.1, -20.9)), MOVING);
    assert.equal(fixtureBoxAt(field, cellAt(field, 50.1, 2.6)), PARALLEL_NEAR_MOVING);
    // where the moving jaw's clearance reaches over the parallel, the jaw is the higher
    assert.equal(fixtureBoxAt(field, cellAt(field, 50.1, 0.6)), MOVING);
  });

  it("rejects an empty box and gives an empty field for no boxes", () => {
    assert.throws(() => fixtureField([{ min: [0, 0, 0], max: [10, 0, 5] }], 1), /box 0 is empty/);
    const none = fixtureField([], 1);
    assert.equal(none.top, -Infinity);
    assert.deepEqual(workholdingCollisions(operation(endMill, [rapid(0, 0, -100)]), none), {
      moves: 0,
      worst: null,
      sweeps: 0,
    });
  });
});

describe("workholdingCollisions", () => {
  /** Down in the blank's middle, then along x at y, 3 mm below the jaws' top (in the grip band). */
  const cutAlongJaw = (y: number): Move[] => [
    rapid(10, 30, 5),
    feed(10, 30, -28),
    feed(10, y, -28),
    feed(90, y, -28),
    rapid(90, y, 5),
  ];

  it("finds a cut 0.5 mm from a jaw and none 1.5 mm from it", () => {
    // the tool's edge at y 59.5: 0.5 mm from the fixed jaw's face, 3 mm below its top + 1 mm
    const close = workholdingCollisions(operation(endMill, cutAlongJaw(54.5)), field);
    assert.equal(close.moves, 3, "the feed towards the jaw, the feed along it and the rapid up beside it");
    assert.ok(close.worst !== null);
    assert.equal(close.worst.move_index, 2);
    assert.equal(close.worst.body, "cutter");
    assert.equal(close.worst.box, FIXED);
    assert.equal(close.worst.hole, null);
    near(close.worst.depth_mm, 4, 1e-6, "depth below the jaw's top plus the clearance");
    near(close.worst.position[2], -28, 1e-6, "the flutes' z");
    assert.ok(close.worst.position[1] > 58.8 && close.worst.position[1] < 59.5, `y ${close.worst.position[1]}`);

    // 1.5 mm: swept (it is below the jaws' top) and clear
    const clear = workholdingCollisions(operation(endMill, cutAlongJaw(53.5)), field);
    assert.equal(clear.moves, 0);
    assert.equal(clear.worst, null);
    assert.ok(clear.sweeps >= 3, `${clear.sweeps} sweeps`);
  });

  it("finds a rapid through a jaw", () => {
    const through = workholdingCollisions(
      operation(endMill, [rapid(50, 100, 5), rapid(50, 100, -40), rapid(50, 30, -40), rapid(50, 30, 5)]),
      field,
    );
    assert.equal(through.moves, 1);
    assert.equal(through.worst?.move_index, 2);
    assert.equal(through.worst?.box, FIXED);
    assert.equal(through.worst?.body, "cutter");
    near(through.worst?.depth_mm ?? 0, 16, 1e-6, "depth");
  });

  it("finds the holder coming down beside a jaw while the flutes clear it", () => {
    // beside the moving jaw's outer face (y -20), the tool's edge 1.2 mm from it (the nearest
    // cell centres counted near the jaw, 1.125 mm from it, stay 0.075 mm out of its reach), down
    // to 10 mm above the ways: the holder, 15 mm in radius from 30 mm above the tip, reaches over the jaw
    const moves = [rapid(50, -26.2, 5), feed(50, -26.2, -60), rapid(50, -26.2, 5)];
    const holder = workholdingCollisions(operation(endMill, moves), field);
    assert.equal(holder.moves, 2, "down and back up");
    assert.equal(holder.worst?.move_index, 1);
    assert.equal(holder.worst?.body, "holder");
    assert.equal(holder.worst?.box, MOVING);
    near(holder.worst?.depth_mm ?? 0, JAW_HEIGHT - (-60 + 30), 1e-6, "the holder's nose below the jaw's top + 1");
    // the same tool without its holder: flutes and shank, swept over the grid, pass the jaw
    const bare = workholdingCollisions(operation({ ...endMill, holder: [] }, moves), field);
    assert.equal(bare.moves, 0);
    assert.equal(bare.sweeps, 4, "flutes and shank, down and up");
  });

  it("sweeps arcs as arcs", () => {
    const arc = (radius: number): Move[] => [
      rapid(50 - radius, 30, 5),
      feed(50 - radius, 30, -28),
      // clockwise over the top: through (50, 30 + radius)
      { kind: "arc", to: [50 + radius, 30, -28], centre: [50, 30], clockwise: true, feed: 1000 },
      rapid(50 + radius, 30, 5),
    ];
    // the edge reaches y 62, 2 mm into the fixed jaw, though the arc's chord stays at y 30
    const into = workholdingCollisions(operation(endMill, arc(27)), field);
    assert.equal(into.moves, 1);
    assert.equal(into.worst?.move_index, 2);
    assert.equal(into.worst?.box, FIXED);
    near(into.worst?.depth_mm ?? 0, 4, 1e-6, "depth");
    near(into.worst?.position[0] ?? 0, 50, 14, "within 25° of the arc's top");
    // radius 23: the edge reaches y 58, 2 mm from the jaw
    assert.equal(workholdingCollisions(operation(endMill, arc(23)), field).moves, 0);
  });

  it("finds a through hole's drill point over a parallel, naming the hole", () => {
    const drill = cutter("drill", 3, { flute_length: 20, stick_out: 30 });
    // the 118° point is 0.90 mm long: 0.5 mm of breakthrough below the blank's bottom at -30
    const cycle: Move = {
      kind: "drill",
      cycle: "drill",
      at: [
        [30, 30],
        [50, 3.5],
      ],
      retract_z: 2,
      top_z: 0,
      bottom_z: -31.4,
      peck_mm: null,
      dwell_s: 0,
      feed: 200,
    };
    const holes = workholdingCollisions(operation(drill, [cycle]), field);
    assert.equal(holes.moves, 1, "a cycle is one move");
    assert.equal(holes.worst?.hole, 1);
    assert.equal(holes.worst?.box, PARALLEL_NEAR_MOVING);
    assert.equal(holes.worst?.body, "cutter");
    // the point's lowest over the nearest cell centres, 0.177 mm off the axis: -31.4 + 0.177 x
    // 0.601 (the point's rise per mm), 2.294 mm below the parallel's top plus the clearance, -29
    near(holes.worst?.depth_mm ?? 0, 2.294, 0.002, "depth");
  });

  it("skips a move above the jaws and checks one within the clearance over them", () => {
    const across = (z: number): Move[] => [rapid(50, -40, 5), rapid(50, -40, z), feed(50, 100, z)];
    const above = workholdingCollisions(operation(endMill, across(-20)), field);
    assert.deepEqual(above, { moves: 0, worst: null, sweeps: 0 });
    // exactly the clearance above the jaws' top: clear
    assert.equal(workholdingCollisions(operation(endMill, across(-24)), field).moves, 0);
    // 0.9 mm above it: within the clearance over both jaws
    const within = workholdingCollisions(operation(endMill, across(-24.1)), field);
    assert.equal(within.moves, 1);
    assert.equal(within.worst?.move_index, 2);
    near(within.worst?.depth_mm ?? 0, 0.1, 1e-5, "depth");
    assert.ok(within.sweeps > 0);
  });
});
