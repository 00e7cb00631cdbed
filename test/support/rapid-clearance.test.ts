/**
 * The rapid clearance check (rapid-clearance.ts) on programs written by hand and read by rs274:
 * a stock box 60 x 40 x 20 mm (top at z = 0) and a 10 mm end mill.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { endMill } from "../../kernel/cam/milling/test-support.ts";
import type { Box3 } from "../../kernel/cam/types.ts";
import { replaySetup } from "./rapid-clearance.ts";
import { readRs274, rs274Missing } from "./rs274.ts";

const STOCK: Box3 = { min: [0, 0, -20], max: [60, 40, 0] };
const TOOLS = new Map([[1, endMill(10)]]);

/** The program, read by rs274 and replayed over the stock. */
function replay(body: string[]) {
  const program = ["G21 G90 G17 G40 G49 G80", "T1 M6", "G0 Z50", "G0 X-20 Y20", ...body, "G0 Z50", "M30", ""].join(
    "\n",
  );
  const read = readRs274(program);
  assert.equal(read.status, 0, read.complaint);
  return replaySetup({ stock: STOCK, tools: TOOLS, moves: read.moves });
}

describe("the rapid clearance of a program", { skip: rs274Missing() }, () => {
  it("finds a rapid down 0.5 mm beside the stock's face, below its top", () => {
    // the tool's side 0.5 mm from the face x = 0: its axis at x = -5.5
    const { close } = replay(["G0 X-5.5 Y20", "G0 Z-5", "G1 X10 F500"]);
    assert.equal(close.length, 1, JSON.stringify(close));
    const [found] = close;
    assert.ok(Math.abs((found?.distance_mm ?? 0) - 0.5) < 1e-9, `${found?.distance_mm}`);
    assert.deepEqual(found?.to, [-5.5, 20, -5]);
  });

  it("passes the same descent 2 mm beside the face, and rapids 2 mm over the top", () => {
    const { close, judged } = replay([
      "G0 X-7 Y20",
      "G0 Z-5",
      "G1 X-5 F500",
      "G0 Z2",
      "G0 X30 Y20",
      "G0 X67 Y20",
      "G0 Z-5",
    ]);
    assert.deepEqual(close, []);
    // the straight-up retract is not judged
    assert.equal(judged, 6);
  });

  it("measures from the material the feeds left: a rapid 1 mm over a cut floor is too close, 3 mm is not", () => {
    // a pocket 5 mm deep from x = 15 to 41 across the stock, cut from outside it
    const cut = ["G0 X20 Y-8", "G0 Z-3", "G1 Z-5 F100", "G1 Y48 F500", "X28", "Y-8", "X36", "Y48", "G0 Z50"];
    const low = replay([...cut, "G0 X28 Y20", "G0 Z-4"]).close;
    assert.equal(low.length, 1);
    assert.ok(Math.abs((low[0]?.distance_mm ?? 0) - 1) < 1e-6, `${low[0]?.distance_mm}`);
    assert.deepEqual(replay([...cut, "G0 X28 Y20", "G0 Z-2"]).close, []);
  });

  it("finds a rapid across the stock 1 mm over its top", () => {
    const { close } = replay(["G0 Z1", "G0 X70"]);
    assert.equal(close.length, 1);
    assert.ok(Math.abs((close[0]?.distance_mm ?? 0) - 1) < 1e-6);
  });
});
