/**
 * The writer's descents (linking.ts): how low a rapid comes before the feed takes over, and
 * where the plunge feed is needed, on the stock model (stock.ts) of the milling tests' block.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Move, Vec3 } from "../types.ts";
import { ToolpathWriter, type Heights } from "./linking.ts";
import { pathOf, rectangle, sweepCleared } from "./polygons.ts";
import { InProcessStock } from "./stock.ts";
import { STOCK, endMill } from "./test-support.ts";

const FEEDS = { feed: 1200, plunge: 400, air: 3600 };
const TOOL = endMill(10);

function writerOn(stock: InProcessStock): ToolpathWriter {
  return new ToolpathWriter(TOOL, { clearance_z: 5, feeds: FEEDS, heights: heightsOf(stock), box: STOCK });
}

function heightsOf(stock: InProcessStock): Heights {
  return { over: (region) => stock.topOver(region) };
}

/** The moves straight down onto the cut's start, the rapid over it first. */
function descentTo(moves: readonly Move[], start: Vec3): Move[] {
  const last = moves.findIndex(
    (m) => m.kind !== "drill" && m.to[0] === start[0] && m.to[1] === start[1] && m.to[2] === start[2],
  );
  let first = last;
  while (first > 0) {
    const m = moves[first - 1] as Move;
    if (m.kind === "drill" || m.to[0] !== start[0] || m.to[1] !== start[1]) break;
    first -= 1;
  }
  return moves.slice(first, last + 1);
}

const lowestRapid = (moves: readonly Move[]): number =>
  Math.min(...moves.flatMap((m) => (m.kind === "rapid" ? [m.to[2]] : [])));
const plunged = (moves: readonly Move[]): boolean => moves.some((m) => m.kind === "linear" && m.feed === FEEDS.plunge);

describe("descents into air the level's own cuts cleared", () => {
  // a level at z -4 of the uncut block: a first cut clears a 20 mm disc round (35, 25), the
  // second starts in its middle after going up and over
  const z = -4;
  const start: Vec3 = [35, 25, z];
  const write = (sweptKnown: boolean): Move[] => {
    const stock = new InProcessStock(STOCK);
    const writer = writerOn(stock);
    writer.beginLevel(heightsOf(stock), z);
    const swept = sweepCleared([pathOf([[35, 25]])], 20);
    writer.append({
      start: [15, 25, z],
      moves: [{ kind: "linear", to: [55, 25, z], feed: FEEDS.feed }],
      ...(sweptKnown ? { swept } : {}),
    });
    writer.append({ start, moves: [{ kind: "linear", to: [35, 30, z], feed: FEEDS.feed }] });
    return descentTo(writer.finish(), start);
  };

  it("rapid down to the rapid clearance over the level and feed the rest through the air", () => {
    const descent = write(true);
    assert.equal(lowestRapid(descent), z + 2, JSON.stringify(descent));
    assert.ok(!plunged(descent), JSON.stringify(descent));
  });

  it("plunge from over the level's top when the cuts' sweeps are not known", () => {
    const descent = write(false);
    assert.equal(lowestRapid(descent), 2, JSON.stringify(descent));
    assert.ok(plunged(descent), JSON.stringify(descent));
  });
});

describe("descents beside material the tool's edge grazes", () => {
  // the block cut down to z -4 for x < 40; the tool comes down to -4 with its edge over the
  // wall at x 40 by 0.02 mm (a clearing pass's start: free within 0.025 mm) or by 0.05 mm
  const descend = (overlap: number): Move[] => {
    const stock = new InProcessStock(STOCK, [{ z: -4, area: rectangle([-10, -10], [40, 60]) }]);
    const writer = writerOn(stock);
    const start: Vec3 = [40 - 5 + overlap, 25, -4];
    writer.append({ start, moves: [{ kind: "linear", to: [start[0], 10, -4], feed: FEEDS.feed }] });
    return descentTo(writer.finish(), start);
  };

  it("feed down the wall without a plunge where the edge overlaps it by less than 0.025 mm", () => {
    const descent = descend(0.02);
    assert.ok(!plunged(descent), JSON.stringify(descent));
    // the rapid still keeps the rapid clearance over the wall's top beside it
    assert.equal(lowestRapid(descent), 2, JSON.stringify(descent));
  });

  it("plunge where the edge overlaps the wall by more", () => {
    assert.ok(plunged(descend(0.05)));
  });
});
