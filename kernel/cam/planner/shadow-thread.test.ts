import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { ARC_TOLERANCE_MM, COARSE_TOLERANCE_MM, SCALE } from "../milling/polygons.ts";
import type { ShadowNeed } from "../milling/shadows.ts";
import { createSlicer } from "../milling/slicer.ts";
import { partCFrom } from "../milling/test-support.ts";
import { HELPER_NICE } from "../../threads/priority.ts";
import { pack, ThreadedShadows, unpack } from "./shadow-thread.ts";

const partC = () => partCFrom([0, 0, 1]);

describe("the shadow thread", () => {
  it("makes on its thread the shadows the planner's own queue makes from the same asks, for one slicer after another", () => {
    const soup = partC();
    const levels = [-4, -8.5, -13, -17.5, -22, -26.5];
    const needs = (z: number): ShadowNeed[] => [
      { z },
      { z, mm: 3.0205, tolerance_mm: ARC_TOLERANCE_MM },
      { z: z + 6, mm: 0.02, tolerance_mm: COARSE_TOLERANCE_MM },
    ];
    const read = (slicer: ReturnType<typeof createSlicer>, ahead: boolean) =>
      levels.flatMap((z, i) => {
        if (ahead) for (const next of levels.slice(i, i + 3)) slicer.ahead(needs(next));
        return [slicer.shadow(z), slicer.grownShadow(z, 3.0205), slicer.grownShadow(z + 6, 0.02, COARSE_TOLERANCE_MM)];
      });
    const inline = read(createSlicer(soup), true);
    for (let round = 0; round < 2; round += 1) {
      const threaded = createSlicer(soup, (triangles) => new ThreadedShadows(triangles));
      try {
        assert.deepEqual(read(threaded, true), inline);
      } finally {
        threaded.close();
      }
    }
    // the shadows at the levels: the part is there
    assert.ok(inline.filter((_, i) => i % 3 === 0).every((region) => region.length > 0));
  });

  it("passes regions between threads exactly: negative coordinates, holes, nothing at all", () => {
    const region = [
      [
        { x: -5 * SCALE, y: -5 * SCALE },
        { x: 5 * SCALE, y: -5 * SCALE },
        { x: 5 * SCALE, y: 5 * SCALE },
        { x: -5 * SCALE, y: 5 * SCALE },
      ],
      [
        { x: -1, y: -1 },
        { x: -1, y: 1 },
        { x: 1, y: 1 },
        { x: 1, y: -1 },
      ],
    ];
    assert.deepEqual(unpack(pack(region)), region);
    assert.deepEqual(unpack(pack([])), []);
  });

  it("runs below the planner's priority, which stays as it was (Linux: a nice value of its own)", {
    skip: !fs.existsSync("/proc/thread-self") && "no /proc/thread-self",
  }, () => {
    const before = niceOfThreads().get(process.pid);
    const slicer = createSlicer(partC(), (triangles) => new ThreadedShadows(triangles));
    try {
      assert.ok(slicer.shadow(-4).length > 0);
    } finally {
      slicer.close();
    }
    const nice = niceOfThreads();
    assert.equal(nice.get(process.pid), before, "the planner's thread");
    assert.ok(
      [...nice.values()].some((n) => n >= HELPER_NICE),
      `no thread at nice ${HELPER_NICE}: ${JSON.stringify([...nice])}`,
    );
  });
});

/** Each of this process's threads' nice value, by thread id (the main thread's is the process id). */
function niceOfThreads(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of fs.readdirSync("/proc/self/task")) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    // the fields after the command's closing parenthesis start at the third, the state; nice is the 19th
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    nice.set(Number(tid), Number(fields[16]));
  }
  return nice;
}
