import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Vec3 } from "../types.ts";
import {
  ballEnvelope,
  bullEnvelope,
  coneEnvelope,
  flatEnvelope,
  frustumEnvelope,
  type Envelope,
} from "./cutter-profile.ts";
import { stockGrid } from "./height-field.ts";
import { sweepArc, sweepLine, visitEachCell, type ArcPath, type CellVisitor } from "./sweep.ts";

const grid = stockGrid({ min: [0, 0, -20], max: [24, 24, 0] }, 0.25);

/** Records what the sweep reports per cell, skipping nothing. */
class Recorder implements CellVisitor {
  readonly low = new Float64Array(grid.nx * grid.ny).fill(Infinity);
  readonly high = new Float64Array(grid.nx * grid.ny).fill(-Infinity);
  visit(_i: number, _j: number, k: number, low: number, highTip: number): void {
    this.low[k] = Math.min(this.low[k] as number, low);
    this.high[k] = Math.max(this.high[k] as number, highTip);
  }
  visitRow(j: number, i0: number, i1: number, row: number, low: number, highTip: number): void {
    visitEachCell(this, j, i0, i1, row, low, highTip);
  }
  threshold(): number {
    return Infinity;
  }
  rowThreshold(): number {
    return Infinity;
  }
}

/** The same by stamping the envelope at `samples` points along the path: slow and simple. */
function stamped(at: (t: number) => Vec3, envelope: Envelope, samples: number): Float64Array {
  const low = new Float64Array(grid.nx * grid.ny).fill(Infinity);
  for (let s = 0; s <= samples; s++) {
    const [px, py, pz] = at(s / samples);
    const r = envelope.reach;
    const j0 = Math.max(0, Math.floor((py - r) / grid.dy) - 1),
      j1 = Math.min(grid.ny - 1, Math.ceil((py + r) / grid.dy) + 1);
    const i0 = Math.max(0, Math.floor((px - r) / grid.dx) - 1),
      i1 = Math.min(grid.nx - 1, Math.ceil((px + r) / grid.dx) + 1);
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const d = Math.hypot(grid.x0 + (i + 0.5) * grid.dx - px, grid.y0 + (j + 0.5) * grid.dy - py);
        if (d <= envelope.reach)
          low[j * grid.nx + i] = Math.min(low[j * grid.nx + i] as number, pz + envelope.height(d));
      }
    }
  }
  return low;
}

/**
 * Every stamped cell is swept, never higher than the stamps (but for the 1e-4 mm to which the
 * sweep minimises numerically), and at most `slack` lower (what stamping misses between samples).
 */
function assertMatches(swept: Recorder, reference: Float64Array, slack: number, what: string): void {
  let compared = 0;
  for (let k = 0; k < reference.length; k++) {
    const expected = reference[k] as number;
    if (expected === Infinity) continue;
    const actual = swept.low[k] as number;
    assert.ok(
      actual <= expected + 2e-4 && actual >= expected - slack,
      `${what}, cell ${k}: swept ${actual}, stamped ${expected}`,
    );
    compared++;
  }
  assert.ok(compared > 500, `${what}: only ${compared} cells compared`);
}

const envelopes: [string, Envelope][] = [
  ["flat", flatEnvelope(4)],
  ["ball", ballEnvelope(4)],
  ["bull", bullEnvelope(4, 1.5)],
  ["drill", coneEnvelope(4, 0, 1 / Math.tan((59 * Math.PI) / 180))],
  ["chamfer", coneEnvelope(4, 1, 1)],
  ["holder cone", frustumEnvelope(2, 6, 1.5, 4)],
];

describe("sweepLine and sweepArc", () => {
  for (const [name, envelope] of envelopes) {
    it(`sweep a ${name} along a ramp, a level line and a plunge exactly as a dense stamping does`, () => {
      const cases: [Vec3, Vec3][] = [
        [
          [5, 6, -1],
          [19, 15, -4],
        ],
        [
          [4, 18, -2],
          [20, 9, -2],
        ],
        [
          [12.1, 12.1, 1],
          [12.1, 12.1, -5],
        ],
        [
          [18, 4, -6],
          [7, 8, -1],
        ],
      ];
      for (const [from, to] of cases) {
        const swept = new Recorder();
        sweepLine(grid, from, to, envelope, swept);
        const at = (t: number): Vec3 => [
          from[0] + t * (to[0] - from[0]),
          from[1] + t * (to[1] - from[1]),
          from[2] + t * (to[2] - from[2]),
        ];
        assertMatches(swept, stamped(at, envelope, 2000), 0.01, `${name} from ${from} to ${to}`);
      }
    });

    it(`sweep a ${name} along a level arc and down a helix exactly as a dense stamping does`, () => {
      const arcs: ArcPath[] = [
        { centre: [12, 12], radius: 6, start: 0.3, sweep: 2, z0: -2, z1: -2 },
        { centre: [12, 12], radius: 2.5, start: 0, sweep: 2 * Math.PI, z0: -1, z1: -2 },
        { centre: [11, 13], radius: 7, start: 4, sweep: 4, z0: -3, z1: -1 },
      ];
      for (const arc of arcs) {
        const swept = new Recorder();
        sweepArc(grid, arc, envelope, swept);
        const at = (t: number): Vec3 => {
          const angle = arc.start + t * arc.sweep;
          return [
            arc.centre[0] + arc.radius * Math.cos(angle),
            arc.centre[1] + arc.radius * Math.sin(angle),
            arc.z0 + t * (arc.z1 - arc.z0),
          ];
        };
        assertMatches(swept, stamped(at, envelope, 3000), 0.01, `${name} on the arc from ${arc.start} by ${arc.sweep}`);
      }
    });
  }

  it("reports the tip's highest z while a cell is within reach: the start of a descending ramp for a cell by the start", () => {
    const swept = new Recorder();
    sweepLine(grid, [4, 12, 0], [20, 12, -8], flatEnvelope(2), swept);
    const k = (j: number, i: number) => j * grid.nx + i;
    // the cell centred at (4.125, 12.125) is within reach from t = 0 (z = 0) to where x = 6.12
    assert.equal(swept.high[k(48, 16)], 0);
    // the cell at (12.125, 12.125): reach from x = 10.12 (z = -3.06) on
    assert.ok(
      Math.abs((swept.high[k(48, 48)] as number) - -(8 * (12.125 - Math.sqrt(4 - 0.125 ** 2) - 4)) / 16) < 1e-9,
    );
  });
});

describe("a level flat polyline", () => {
  it("visits only the cells each segment newly reaches when told its start disc was just swept, and reaches the same cells", () => {
    // a wiggly polyline of short segments at one height, as Clipper's offsets are
    const points: Vec3[] = [];
    for (let k = 0; k <= 60; k++) points.push([4 + k * 0.27, 12 + 3 * Math.sin(k / 5) + (k % 3) * 0.01, -2]);
    const envelope = flatEnvelope(4);
    const all = new Recorder();
    const skipping = new Recorder();
    let visits = 0;
    const counting: CellVisitor = {
      visit: (i, j, k, low, high) => {
        visits++;
        skipping.visit(i, j, k, low, high);
      },
      visitRow(j, i0, i1, row, low, high) {
        visitEachCell(this, j, i0, i1, row, low, high);
      },
      threshold: () => Infinity,
      rowThreshold: () => Infinity,
    };
    let full = 0;
    const counted: CellVisitor = {
      visit: (i, j, k, low, high) => {
        full++;
        all.visit(i, j, k, low, high);
      },
      visitRow(j, i0, i1, row, low, high) {
        visitEachCell(this, j, i0, i1, row, low, high);
      },
      threshold: () => Infinity,
      rowThreshold: () => Infinity,
    };
    for (let k = 1; k < points.length; k++) {
      sweepLine(grid, points[k - 1] as Vec3, points[k] as Vec3, envelope, counted);
      sweepLine(grid, points[k - 1] as Vec3, points[k] as Vec3, envelope, counting, k > 1);
    }
    assert.deepEqual(skipping.low, all.low);
    assert.deepEqual(skipping.high, all.high);
    assert.ok(visits * 5 < full, `${visits} visits skipping, ${full} without`);
  });
});
