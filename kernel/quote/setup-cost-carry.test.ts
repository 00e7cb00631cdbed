import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SetupCostEntry } from "./layers.ts";
import {
  carrySetupCosts,
  formatDirection,
  sameDirection,
  type OverrideOrigin,
  type SetupRef,
} from "./setup-cost-carry.ts";

const entry = (name: string, fix: string): SetupCostEntry => ({
  is_fixed_price: "true",
  name,
  value: "0",
  unit: "EUR",
  fix_price: fix,
});
const setup = (id: string, index: number, direction: [number, number, number], name = id): SetupRef => ({
  id,
  name,
  index,
  direction,
});

const OLD = [
  setup("old-top", 0, [0, 0, 1], "+Z"),
  setup("old-bottom", 1, [0, 0, -1], "-Z"),
  setup("old-side", 2, [0, -1, 0], "-Y"),
];
const origins = (plan: SetupRef[], age = 0) =>
  new Map<string, OverrideOrigin>(plan.map((s) => [s.id, { setup: s, plan, age }]));

describe("per-setup cost overrides across a re-plan", () => {
  it("moves each override to the new setup of the same direction, and drops one whose direction the new plan has not", () => {
    const next = [setup("new-bottom", 0, [0, 0, -1]), setup("new-top", 1, [1e-9, 0, 1])];
    const carried = carrySetupCosts({
      overrides: { "old-top": entry("Vice", "45"), "old-side": entry("Tilted", "80") },
      origins: origins(OLD),
      next,
    });
    assert.deepEqual(carried.setup_costs, { "new-top": entry("Vice", "45") });
    assert.deepEqual(carried.dropped, [
      { setup_id: "old-side", name: "-Y", direction: [0, -1, 0], entry: entry("Tilted", "80") },
    ]);
  });

  it("keeps an override of a setup the new plan still has, and forgets one no plan had", () => {
    const next = [setup("old-top", 0, [0, 0, 1])];
    const carried = carrySetupCosts({
      overrides: { "old-top": entry("Vice", "45"), ghost: entry("Ghost", "1") },
      origins: new Map(),
      next,
    });
    assert.deepEqual(carried, { setup_costs: { "old-top": entry("Vice", "45") }, dropped: [] });
  });

  it("pairs setups of one direction in their order: the second +Z takes the second's override", () => {
    const old = [setup("a", 0, [0, 0, 1]), setup("b", 1, [0, 0, -1]), setup("c", 2, [0, 0, 1])];
    const next = [setup("x", 0, [0, 0, 1]), setup("y", 1, [0, 0, 1])];
    const carried = carrySetupCosts({ overrides: { c: entry("Second clamping", "30") }, origins: origins(old), next });
    assert.deepEqual(carried.setup_costs, { y: entry("Second clamping", "30") });
    const fewer = carrySetupCosts({
      overrides: { c: entry("Second clamping", "30") },
      origins: origins(old),
      next: [next[0]!],
    });
    assert.deepEqual(fewer.setup_costs, {});
    assert.equal(fewer.dropped[0]?.setup_id, "c");
  });

  it("gives a setup the newer of two overrides that claim it, and drops the older", () => {
    const older = [setup("o1", 0, [0, 0, 1])];
    const newer = [setup("n1", 0, [0, 0, 1])];
    const all = new Map<string, OverrideOrigin>([...origins(older, 1), ...origins(newer, 0)]);
    const carried = carrySetupCosts({
      overrides: { o1: entry("Old", "1"), n1: entry("New", "2") },
      origins: all,
      next: [setup("z", 0, [0, 0, 1])],
    });
    assert.deepEqual(carried.setup_costs, { z: entry("New", "2") });
    assert.deepEqual(
      carried.dropped.map((d) => d.setup_id),
      ["o1"],
    );
  });

  it("tells one direction from another by a thousandth of a radian", () => {
    assert.ok(sameDirection([0, 0, 1], [0, 5e-4, 1]));
    assert.ok(!sameDirection([0, 0, 1], [0, 2e-3, 1]));
    assert.ok(!sameDirection([0, 0, 1], [0, 0, -1]));
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: a direction as a plan stores it, rounded
    assert.equal(formatDirection([-0, -0.70710678, 0.70710678]), "0, -0.707, 0.707");
  });
});
