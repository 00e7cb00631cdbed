import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { operationTime } from "../machining-time.ts";
import type { Box3, Operation } from "../types.ts";
import { chipThinningFactor } from "./adaptive/parameters.ts";
import { engagementAlong } from "./adaptive/test-support.ts";
import { restRoughing, roughing } from "./roughing.ts";
import { createSlicer } from "./slicer.ts";
import { InProcessStock } from "./stock.ts";
import { boxesSoup, cutting, endMill, POCKETED_BLOCK, STOCK } from "./test-support.ts";

const MAX_FEED = 10_000;
const ROUGH = cutting({ allowance_xy_mm: 0.3, allowance_z_mm: 0.2, stepdown_mm: 8, stepover_mm: 3.2 });
const REST = cutting({ allowance_xy_mm: 0.2, allowance_z_mm: 0.2, stepdown_mm: 4, stepover_mm: 1.6 });
const MACHINE = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;

function rough(boxes: Box3[], thin: boolean): { rough: Operation; rest: Operation } {
  const part = createSlicer(boxesSoup(boxes));
  const extra = thin ? { thin_chip_max_feed_mm_min: MAX_FEED } : {};
  const first = roughing({ part, stock: new InProcessStock(STOCK), tool: endMill(8), parameters: ROUGH, ...extra });
  assert.ok(first.operation, `no roughing: ${first.reason}`);
  const rest = restRoughing({
    part,
    stock: new InProcessStock(STOCK).withCleared(first.cleared),
    tool: endMill(4),
    parameters: REST,
    ...extra,
  });
  assert.ok(rest.operation, `no rest roughing: ${rest.reason}`);
  return { rough: first.operation, rest: rest.operation };
}

/** The chip at each point that cut, as a share of the cutting data's (its feed at its engagement, thinned, over the table's feed). */
function chipShares(operation: Operation, spec: { radius: number; tableFeed: number; before?: Operation }): number[] {
  const { radius, tableFeed, before } = spec;
  const report = engagementAlong(operation.moves, {
    stock: STOCK,
    radius,
    clearance: operation.clearance_z,
    // coarser than the measure's default: the same worst figures on this block, in a quarter of the time
    cell: 0.1,
    ...(before === undefined
      ? {}
      : { before: { moves: before.moves, radius: before.tool.diameter / 2, clearance: before.clearance_z } }),
  });
  return report.samples.map((ae, i) => (report.feeds[i] as number) / tableFeed / chipThinningFactor(ae, 2 * radius));
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

describe("offset passes fed for their chip", () => {
  const plain = rough(POCKETED_BLOCK, false);
  const thin = rough(POCKETED_BLOCK, true);

  it("cut the same paths as at the cutting feed", () => {
    for (const kind of ["rough", "rest"] as const) {
      const at = (op: Operation) => op.moves.map((m) => (m.kind === "drill" ? m.at : m.to));
      assert.deepEqual(at(thin[kind]), at(plain[kind]), kind);
    }
  });

  it("raise the feed where a pass engages less, never past the chip the cutting data gives", () => {
    for (const [kind, tableFeed, radius] of [
      ["rough", ROUGH.feed_mm_min, 4],
      ["rest", REST.feed_mm_min, 2],
    ] as const) {
      const op = thin[kind];
      const raised = op.moves.filter((m) => m.kind === "linear" && m.feed > tableFeed);
      assert.ok(raised.length > 0, `${kind}: no pass fed faster`);
      const shares = chipShares(op, { radius, tableFeed, ...(kind === "rest" ? { before: thin.rough } : {}) });
      // the reading errs low by up to a cell, added back; the independent measure's own resolution is a few %
      assert.ok(quantile(shares, 0.99) <= 1.1, `${kind}: p99 chip ${quantile(shares, 0.99)} of the table's`);
      assert.ok(Math.max(...shares) <= 1.35, `${kind}: largest chip ${Math.max(...shares)} of the table's`);
    }
  });

  it("take less time, most of it on the rest tool", () => {
    const time = (op: Operation) => operationTime(op, MACHINE).total_s;
    assert.ok(time(thin.rough) < time(plain.rough), `roughing ${time(thin.rough)} s against ${time(plain.rough)}`);
    assert.ok(
      time(thin.rest) < 0.9 * time(plain.rest),
      `rest roughing ${time(thin.rest)} s against ${time(plain.rest)}`,
    );
  });
});
