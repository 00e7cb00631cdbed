import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Vec3 } from "../types.ts";
import { APPROACH_MM, materialHeights, RAPID_CLEARANCE_MM, ToolpathWriter } from "./linking.ts";
import { rectangle } from "./polygons.ts";
import { createSlicer } from "./slicer.ts";
import { InProcessStock } from "./stock.ts";
import { boxesSoup, endMill } from "./test-support.ts";

describe("the toolpath writer's rapids", () => {
  // a 100 x 100 mm stock cleared to z -10 everywhere but a block whose edge runs along x = 50;
  // the part is a small block far from it
  const part = createSlicer(boxesSoup([{ min: [80, 80, -20], max: [90, 90, -15] }]));
  const box = { min: [0, 0, -20], max: [100, 100, 0] } as const;
  const stock = new InProcessStock({ min: [...box.min], max: [...box.max] }, [{ z: -10, area: rectangle([0, 0], [50, 100]) }]);
  const tool = endMill(12);
  const descendTo = (x: number): Vec3[] => {
    const writer = new ToolpathWriter(tool, 5, { feed: 1000, plunge: 300 }, materialHeights(part, stock));
    writer.append({ start: [x, 50, -10], moves: [{ kind: "linear", to: [x - 5, 50, -10], feed: 1000 }] });
    return writer.moves.filter((m) => m.kind === "rapid").map((m) => m.to as Vec3);
  };

  it("comes down above material that lies within a simulation cell beyond the tool's radius", () => {
    // the tool's edge 0.05 mm short of the block: the block is within RAPID_CLEARANCE_MM
    const rapids = descendTo(50 - 6 - 0.05);
    const lowest = Math.min(...rapids.map((p) => p[2]));
    assert.ok(RAPID_CLEARANCE_MM > 0.05);
    assert.equal(lowest, 0 + APPROACH_MM, `the rapids end at ${lowest}`);
  });

  it("comes down to just above the cut's level where the material is farther than that", () => {
    const rapids = descendTo(50 - 6 - 0.5);
    const lowest = Math.min(...rapids.map((p) => p[2]));
    assert.equal(lowest, -10 + APPROACH_MM);
  });
});
