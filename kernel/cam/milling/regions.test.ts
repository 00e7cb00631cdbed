import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boxToFrame, setupFrame } from "../frames.ts";
import { area, difference, disk, isEmpty, offset, rectangle, toUnits, union } from "./polygons.ts";
import { ShadowsAhead, toolCentreRegion } from "./regions.ts";
import { needKey, ShadowMaker, ShadowQueue, type ShadowNeed } from "./shadows.ts";
import { createSlicer } from "./slicer.ts";
import { InProcessStock } from "./stock.ts";
import { endMill, PART_C_STOCK, partCFrom } from "./test-support.ts";

describe("the tool centre's region", () => {
  it("within a work window lies inside the region computed whole, wherever the window's edges cut the keep-outs (partC from +Z, stock left in islands)", () => {
    const part = createSlicer(partCFrom([0, 0, 1]));
    const framed = boxToFrame(setupFrame([0, 0, 1], PART_C_STOCK), PART_C_STOCK);
    // cleared down to -22 but for forty round islands: stock deeper than the depth of cut, kept
    // out beside the part's own keep-out
    const islands = union(
      ...Array.from({ length: 40 }, (_, k) => disk([-3 + ((k * 9.37) % 95), -3 + ((k * 5.71) % 55)], 4 + (k % 3))),
    );
    const everywhere = rectangle([framed.min[0], framed.min[1]], [framed.max[0], framed.max[1]]);
    const stock = new InProcessStock(framed).withCleared([{ z: -22, area: difference(everywhere, islands) }]);
    // the holder far above the stock: the part's and the islands' keep-outs are the ones that count
    const spec = { part, stock, cutter: endMill(12, { stick_out: 200 }), z: -20, allowance_xy: 0.3, depth_of_cut: 1 };
    const whole = toolCentreRegion(spec);
    assert.ok(area(whole) > 100, `the whole region: ${area(whole)} mm²`);
    // a micrometre round the whole region: a window's region may differ from it by its rounding
    const slack = offset(whole, 0.001);
    for (let k = 0; k < 700; k += 1) {
      const x = -8 + ((k * 7.1234567) % 95);
      const y = -8 + ((k * 3.3456789) % 55);
      const window = {
        left: toUnits(x),
        top: toUnits(y),
        right: toUnits(x + 11.3 + (k % 7)),
        bottom: toUnits(y + 9.9 + (k % 5)),
      };
      // a sliver along the window's edge, between the keep-outs clipped to it and the outline, was
      // a region a tool went into
      const outside = difference(toolCentreRegion({ ...spec, window }), slack);
      assert.ok(
        isEmpty(outside, 1e-7),
        `window ${k} at (${x.toFixed(3)}, ${y.toFixed(3)}): ${area(outside)} mm² outside the whole region`,
      );
    }
    part.close();
  });
});

/** The shadows of a part made in this thread, as the planner's own queue makes them, remembering what was asked for. */
class RecordedShadows extends ShadowQueue {
  readonly asked: string[] = [];

  protected override asking(need: ShadowNeed): void {
    this.asked.push(needKey(need));
    super.asking(need);
  }
}

describe("the shadows asked for ahead", () => {
  it("are every shadow of the next levels after a level with work, and only the deciding ones after a level without", () => {
    let recorded: RecordedShadows | null = null;
    const part = createSlicer(partCFrom([0, 0, 1]), (triangles) => {
      recorded = new RecordedShadows(new ShadowMaker(triangles));
      return recorded;
    });
    const asked = (): string[] => (recorded as RecordedShadows | null)?.asked ?? [];
    const cutter = endMill(6);
    const levels = [-2, -6, -10, -14, -18, -22];
    const depthOfCut = 4;
    // the tool's keep-out (regions.ts: toolKeepOut) and the depth of cut's shadow are read only by a level with work
    const toolKeepOut = (z: number) => needKey({ z, mm: 3 + 0.3 + 0.0005, tolerance_mm: 0.0005 });
    const depthShadow = (z: number) => needKey({ z: z + depthOfCut + 1e-6 });
    const ahead = new ShadowsAhead(part, cutter, levels, 0.3, depthOfCut);

    ahead.before(0);
    for (const z of levels.slice(0, 3)) {
      assert.ok(asked().includes(needKey({ z })), `the shadow at ${z}`);
      assert.ok(
        asked().includes(toolKeepOut(z)) && asked().includes(depthShadow(z)),
        `every shadow of the level at ${z}, before any level was decided`,
      );
    }
    ahead.decided(0, false);
    ahead.before(1);
    assert.ok(asked().includes(needKey({ z: -14 })), "the next level's own shadow");
    assert.ok(
      !asked().includes(toolKeepOut(-14)) && !asked().includes(depthShadow(-14)),
      "nothing more of it after a level without work",
    );
    ahead.decided(1, false);
    ahead.before(2);
    ahead.decided(2, false);
    ahead.before(3);
    ahead.decided(3, true);
    assert.ok(
      asked().includes(toolKeepOut(-14)) && asked().includes(depthShadow(-14)),
      "a level with work asks for the rest of its own",
    );
    ahead.before(4);
    assert.ok(asked().includes(toolKeepOut(-22)), "and every shadow of the levels ahead again");
    // each shadow asked once
    assert.equal(new Set(asked()).size, asked().length);
    part.close();
  });
});
