import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { simulateSetup } from "../simulation/simulate.ts";
import type { Box3, Move, Operation, Vec3 } from "../types.ts";
import type { MillingOutcome } from "./operation.ts";
import { SCALE } from "./polygons.ts";
import { createSlicer } from "./slicer.ts";
import { roughing } from "./roughing.ts";
import { InProcessStock } from "./stock.ts";
import { replaySetup } from "../../../test/support/rapid-clearance.ts";
import { arcSweepSigned, type CanonicalMove } from "../../../test/support/rs274.ts";
import {
  boxesSoup,
  cutting,
  distanceToBoxesAbove,
  endMill,
  HeightMap,
  POCKET,
  POCKETED_BLOCK,
  samplePath,
  STEPPED_BLOCK,
  STOCK,
} from "./test-support.ts";

const RADIUS = 4;
const ALLOWANCE = { allowance_xy_mm: 0.3, allowance_z_mm: 0.2 };

function operationOf(outcome: MillingOutcome): Operation {
  assert.ok(outcome.operation, `no operation: ${outcome.reason}`);
  return outcome.operation;
}

function rough(
  boxes: Box3[],
  overrides: Parameters<typeof endMill>[1] = {},
  parameters = cutting(ALLOWANCE),
): MillingOutcome {
  return roughing({
    part: createSlicer(boxesSoup(boxes)),
    stock: new InProcessStock(STOCK),
    tool: endMill(2 * RADIUS, overrides),
    parameters,
  });
}

/** Cutting levels: the heights of feed moves that stay level. */
function levelsOf(moves: Move[]): number[] {
  const levels = new Set<number>();
  let at: Vec3 | null = null;
  for (const move of moves) {
    if (move.kind === "drill") continue;
    if (at && move.kind === "linear" && move.to[2] === at[2]) levels.add(move.to[2]);
    at = move.to;
  }
  return [...levels].sort((a, b) => b - a);
}

/** The moves that go straight down (same x and y, lower z), with where they end. */
function verticalDescents(moves: Move[], clearance: number): { to: Vec3; kind: Move["kind"] }[] {
  const out: { to: Vec3; kind: Move["kind"] }[] = [];
  const first = moves[0];
  if (!first || first.kind === "drill") return out;
  let at: Vec3 = [first.to[0], first.to[1], clearance];
  for (const move of moves) {
    if (move.kind === "drill") continue;
    if (move.kind !== "arc" && move.to[0] === at[0] && move.to[1] === at[1] && move.to[2] < at[2])
      out.push({ to: move.to, kind: move.kind });
    at = move.to;
  }
  return out;
}

describe("roughing a pocketed block", () => {
  const pocketed = operationOf(rough(POCKETED_BLOCK));

  it("keeps every tool centre at least radius + allowance from the part above it", () => {
    let worst = Infinity;
    for (const { point } of samplePath(pocketed.moves, pocketed.clearance_z, 0.2)) {
      worst = Math.min(worst, distanceToBoxesAbove(POCKETED_BLOCK, point[0], point[1], point[2] + 1e-6));
    }
    assert.ok(worst >= RADIUS + 0.3 - 1e-3, `closest approach ${worst}`);
  });

  it("cuts at the pocket floor and the part's top plus the axial allowance, and down to the part's bottom", () => {
    const levels = levelsOf(pocketed.moves);
    assert.ok(levels.includes(POCKET.floor + 0.2), `${levels}`);
    assert.ok(levels.includes(-2 + 0.2), `${levels}`);
    assert.equal(levels[levels.length - 1], -22);
    for (let i = 1; i < levels.length; i += 1) assert.ok((levels[i - 1] as number) - (levels[i] as number) <= 4 + 1e-9);
  });

  it("enters the closed pocket with a helix of 0.5 to 0.9 D that stays inside it at a shallow angle", () => {
    const helix = samplePath(pocketed.moves, pocketed.clearance_z, 0.1).filter((s) => s.kind === "arc");
    assert.ok(helix.length > 0, "no helix");
    const margin = RADIUS + 0.3 - 1e-3;
    for (const { point } of helix) {
      assert.ok(point[0] >= POCKET.min[0] + margin && point[0] <= POCKET.max[0] - margin, `x ${point[0]}`);
      assert.ok(point[1] >= POCKET.min[1] + margin && point[1] <= POCKET.max[1] - margin, `y ${point[1]}`);
    }
    let at: Vec3 | null = null;
    let descending = 0;
    for (const move of pocketed.moves) {
      if (move.kind === "drill") continue;
      if (move.kind === "arc" && at) {
        const radius = Math.hypot(at[0] - move.centre[0], at[1] - move.centre[1]);
        assert.ok(radius >= 0.25 * 2 * RADIUS - 1e-6 && radius <= 0.45 * 2 * RADIUS + 1e-6, `helix radius ${radius}`);
        const drop = at[2] - move.to[2];
        if (drop > 0) {
          descending += 1;
          // a half turn drops pi r tan(angle)
          const angle = (Math.atan(drop / (Math.PI * radius)) * 180) / Math.PI;
          assert.ok(angle <= 3, `helix angle ${angle}`);
        }
      }
      at = move.to;
    }
    assert.ok(descending > 0);
  });

  it("leaves no gouge, no rapid into material and no straight plunge into material (height map)", () => {
    const map = new HeightMap(STOCK, POCKETED_BLOCK);
    const report = map.run(pocketed.moves, RADIUS, pocketed.clearance_z);
    assert.equal(report.gouges, 0, `worst gouge ${report.worstGouge}`);
    assert.equal(report.rapidsIntoMaterial, 0, `moves ${report.offending}`);
    assert.equal(report.verticalFeedsIntoMaterial, 0, `moves ${report.offending}`);
    // what is left is the allowance skin and the pocket's corners, not the pocket
    const pocketCells = cellsIn(map, POCKET.min, POCKET.max, RADIUS + 0.3);
    assert.ok(
      pocketCells.every((top) => top <= POCKET.floor + 0.2 + 1e-9),
      "the pocket's middle is down to the floor + allowance",
    );
  });

  it("passes the stock simulation: no gouge, no rapid through material, no collision", () => {
    const result = simulateSetup({
      stock: STOCK,
      part: boxesSoup(POCKETED_BLOCK),
      operations: [pocketed],
      cellSize: 0.2,
    });
    assert.equal(result.total.gouges, 0, JSON.stringify(result.violations.slice(0, 3)));
    assert.equal(result.total.rapids_through_material, 0, JSON.stringify(result.violations.slice(0, 3)));
    assert.equal(result.total.holder_collisions, 0, JSON.stringify(result.violations.slice(0, 3)));
  });
});

describe("roughing entries", () => {
  it("enters an open step and a through slot from outside the stock, never straight down into material", () => {
    const stepped = operationOf(rough(STEPPED_BLOCK));
    const descents = verticalDescents(stepped.moves, stepped.clearance_z).filter((d) => d.kind === "linear");
    assert.ok(descents.length > 0);
    const outside = descents.filter(
      ({ to }) => to[0] < -RADIUS || to[0] > 70 + RADIUS || to[1] < -RADIUS || to[1] > 50 + RADIUS,
    );
    assert.ok(outside.length >= 1, "at least one level is entered from outside the stock");
    assert.ok(!stepped.moves.some((move) => move.kind === "arc"), "no helix where the air is open");
    const report = new HeightMap(STOCK, STEPPED_BLOCK).run(stepped.moves, RADIUS, stepped.clearance_z);
    assert.equal(report.verticalFeedsIntoMaterial, 0, `moves ${report.offending}`);
    assert.equal(report.rapidsIntoMaterial, 0);
    assert.equal(report.gouges, 0);
  });

  it("never plunges a non-centre-cutting tool straight into material: it helixes into the pocket", () => {
    const operation = operationOf(rough(POCKETED_BLOCK, { centre_cutting: false, tool_type: "EndMill" }));
    assert.ok(operation.moves.some((move) => move.kind === "arc"));
    const report = new HeightMap(STOCK, POCKETED_BLOCK).run(operation.moves, RADIUS, operation.clearance_z);
    assert.equal(report.verticalFeedsIntoMaterial, 0, `moves ${report.offending}`);
  });

  const small: Box3[] = [
    { min: [5, 5, -22], max: [65, 45, -3] },
    { min: [5, 5, -3], max: [30, 45, -2] },
    { min: [39, 5, -3], max: [65, 45, -2] },
    { min: [30, 5, -3], max: [39, 20, -2] },
    { min: [30, 29, -3], max: [39, 45, -2] },
  ];

  it("skips, with the reason, a closed pocket too small for a helix or a ramp when the tool is not centre cutting", () => {
    const outcome = rough(small, { centre_cutting: false }, cutting({ allowance_xy_mm: 0.2 }));
    const pocketSkips = outcome.skipped.filter((s) => s.at[0] > 30 && s.at[0] < 39 && s.at[1] > 20 && s.at[1] < 29);
    assert.ok(pocketSkips.length > 0, JSON.stringify(outcome.skipped));
    assert.match(pocketSkips[0]?.reason ?? "", /not centre cutting/);
    const operation = operationOf(outcome);
    const inPocket = samplePath(operation.moves, operation.clearance_z).filter(
      ({ point }) => point[0] > 30 && point[0] < 39 && point[1] > 20 && point[1] < 29 && point[2] < -2,
    );
    assert.equal(inPocket.length, 0, "the tool never goes into the pocket");
  });

  it("plunges a centre-cutting tool into the same pocket, only 1 mm deep (under a quarter of the diameter)", () => {
    const operation = operationOf(rough(small, {}, cutting({ allowance_xy_mm: 0.2 })));
    const plunges = verticalDescents(operation.moves, operation.clearance_z).filter(
      ({ to, kind }) => kind === "linear" && to[0] > 30 && to[0] < 39 && to[1] > 20 && to[1] < 29,
    );
    // a rapid to the rapid clearance over the material (z -2), a feed to 1 mm over it, the plunge
    assert.deepEqual(
      plunges.map(({ to }) => to[2]),
      [-1, -3],
      JSON.stringify(plunges),
    );
    const report = new HeightMap(STOCK, small).run(operation.moves, RADIUS, operation.clearance_z);
    assert.equal(report.gouges, 0);
    assert.equal(report.rapidsIntoMaterial, 0);
  });
});

describe("a rapid clearance other than the default", () => {
  /** The operation's moves as a control reads them, tool 1, from its clearance plane over its first point. */
  function canonical(operation: Operation): CanonicalMove[] {
    const first = operation.moves[0] as Exclude<Move, { kind: "drill" }>;
    let here: Vec3 = [first.to[0], first.to[1], operation.clearance_z];
    return operation.moves.map((move, call): CanonicalMove => {
      if (move.kind === "drill") throw new Error("no drill cycles in a roughing");
      const at = { from: here, to: move.to, tool: 1, comment: "", call };
      const read: CanonicalMove =
        move.kind === "arc"
          ? {
              kind: "arc",
              centre: move.centre,
              sweep: arcSweepSigned(here, move.to, move.centre, move.clockwise),
              ...at,
            }
          : { kind: move.kind === "rapid" ? "traverse" : "feed", ...at };
      here = move.to;
      return read;
    });
  }

  it("lifts the clearance plane and keeps every rapid that far from the material", () => {
    const tool = endMill(2 * RADIUS);
    const request = { part: createSlicer(boxesSoup(POCKETED_BLOCK)), tool, parameters: cutting(ALLOWANCE) };
    const wide = operationOf(roughing({ ...request, stock: new InProcessStock(STOCK), rapid_clearance_mm: 6 }));
    assert.equal(wide.clearance_z, STOCK.max[2] + 6);
    const tools = new Map([[1, tool]]);
    const judged = replaySetup({ stock: STOCK, tools, moves: canonical(wide), clearance: 6 });
    assert.ok(judged.judged > 0);
    assert.deepEqual(judged.close, []);
    // the default's rapids come nearer than 6 mm
    const usual = operationOf(roughing({ ...request, stock: new InProcessStock(STOCK) }));
    assert.ok(replaySetup({ stock: STOCK, tools, moves: canonical(usual), clearance: 6 }).close.length > 0);
  });
});

describe("ramp entries", () => {
  // a closed slot 30 x 9.5 mm, 4 mm deep: too narrow for a helix of an 8 mm tool
  const slot: Box3[] = [
    { min: [5, 5, -22], max: [65, 45, -6] },
    { min: [5, 5, -6], max: [20, 45, -2] },
    { min: [50, 5, -6], max: [65, 45, -2] },
    { min: [20, 5, -6], max: [50, 20, -2] },
    { min: [20, 29.5, -6], max: [50, 45, -2] },
  ];

  it("enters a closed slot too narrow for a helix by a ramp along it, no steeper than 3 degrees", () => {
    const operation = operationOf(
      rough(slot, { centre_cutting: false }, cutting({ allowance_xy_mm: 0.2, stepdown_mm: 4 })),
    );
    const inSlot = (p: Vec3): boolean => p[0] > 20 && p[0] < 50 && p[1] > 20 && p[1] < 29.5;
    let at: Vec3 | null = null;
    let ramps = 0;
    for (const move of operation.moves) {
      if (move.kind === "drill") continue;
      if (at && move.kind === "linear" && inSlot(move.to) && move.to[2] < at[2] && move.to[2] < -2) {
        const run = Math.hypot(move.to[0] - at[0], move.to[1] - at[1]);
        const drop = at[2] - move.to[2];
        // descending into the slot only ever at a ramp's angle (1 mm of air above it aside)
        if (at[2] <= -2) {
          assert.ok(run > 0 && (Math.atan(drop / run) * 180) / Math.PI <= 3, `descent of ${drop} over ${run}`);
          ramps += 1;
        }
      }
      at = move.to;
    }
    assert.ok(ramps >= 2, `${ramps} ramp moves`);
    const report = new HeightMap(STOCK, slot).run(operation.moves, RADIUS, operation.clearance_z);
    assert.equal(report.verticalFeedsIntoMaterial, 0, `moves ${report.offending}`);
    assert.equal(report.gouges, 0);
    assert.equal(report.rapidsIntoMaterial, 0);
  });
});

describe("roughing round a focus", () => {
  // the stepped block's step along its front (y 5..15, floor at -12), in Clipper units
  const focus = [{ left: 5 * SCALE, top: 5 * SCALE, right: 65 * SCALE, bottom: 15 * SCALE }];
  const request = {
    part: createSlicer(boxesSoup(STEPPED_BLOCK)),
    tool: endMill(2 * RADIUS),
    parameters: cutting(ALLOWANCE),
  };
  const focused = operationOf(roughing({ ...request, stock: new InProcessStock(STOCK), focus }));

  it("keeps the tool centre over the focus wherever it feeds below the stock's top", () => {
    const strays = samplePath(focused.moves, focused.clearance_z, 0.2).filter(
      ({ point, kind }) =>
        kind !== "rapid" &&
        point[2] < 0 &&
        (point[0] < 5 - 1e-3 || point[0] > 65 + 1e-3 || point[1] < 5 - 1e-3 || point[1] > 15 + 1e-3),
    );
    assert.deepEqual(strays.slice(0, 3), []);
  });

  it("clears the step and leaves the slab over the rest of the part, which the whole roughing takes", () => {
    const map = new HeightMap(STOCK, STEPPED_BLOCK);
    const report = map.run(focused.moves, RADIUS, focused.clearance_z);
    assert.equal(report.gouges, 0, `worst gouge ${report.worstGouge}`);
    assert.equal(report.rapidsIntoMaterial, 0);
    assert.equal(report.verticalFeedsIntoMaterial, 0, `moves ${report.offending}`);
    assert.ok(
      cellsIn(map, [5, 5], [65, 10.7], 1).every((top) => top <= -12 + 0.2 + 1e-9),
      "the step is down to its floor + allowance",
    );
    assert.ok(
      cellsIn(map, [5, 15], [65, 50], RADIUS + 1).every((top) => top === 0),
      "the stock's top beyond the focus is untouched",
    );
    const whole = new HeightMap(STOCK, STEPPED_BLOCK);
    const all = operationOf(roughing({ ...request, stock: new InProcessStock(STOCK) }));
    whole.run(all.moves, RADIUS, all.clearance_z);
    assert.ok(
      cellsIn(whole, [5, 15], [65, 50], RADIUS + 1).every((top) => top <= -2 + 0.2 + 1e-9),
      "the whole roughing takes the slab",
    );
  });
});

/** Material tops of the cells whose centres are at least `inset` inside a rectangle. */
function cellsIn(map: HeightMap, min: [number, number], max: [number, number], inset: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < map.ny; j += 1) {
    for (let i = 0; i < map.nx; i += 1) {
      const [x, y] = map.centre(i, j);
      if (x >= min[0] + inset && x <= max[0] - inset && y >= min[1] + inset && y <= max[1] - inset)
        out.push(map.top[j * map.nx + i] as number);
    }
  }
  return out;
}
