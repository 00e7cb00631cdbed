import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findMachineArchetype, type MachineArchetype } from "../../machines/archetypes.ts";
import { setupTravelExcess, travelExcess, travelWarnings } from "./travel.ts";

// 450 x 450 x 100 mm
const router = findMachineArchetype("router-450-grbl") as MachineArchetype;
const box = (x: number, y: number, z: number) => ({
  min: [0, 0, 0] as [number, number, number],
  max: [x, y, z] as [number, number, number],
});

describe("the machine's travel", () => {
  it("takes a stock within X, Y and Z, and one that fits only turned a quarter about Z", () => {
    assert.equal(travelExcess(router, box(450, 450, 100)), null);
    const narrow = { ...router, travel_y_mm: 200 };
    assert.equal(travelExcess(narrow, box(150, 400, 50)), null, "400 along X, 150 along Y when turned");
  });

  it("names the axis the stock exceeds: X or Y across the tool axis, Z along it", () => {
    const wide = travelExcess(router, box(600, 100, 50));
    assert.deepEqual(
      { axis: wide?.axis, stock: wide?.stock_mm, travel: wide?.travel_mm },
      { axis: "X", stock: 600, travel: 450 },
    );
    const narrow = { ...router, travel_y_mm: 200 };
    assert.equal(travelExcess(narrow, box(300, 300, 50))?.axis, "Y");
    const tall = travelExcess(router, box(100, 100, 120.04));
    assert.equal(tall?.axis, "Z");
    assert.match(
      tall?.message ?? "",
      /120 mm along the tool axis, the Desktop router 450 \(Grbl 1\.1\)'s Z travel is 100 mm/,
    );
  });

  it("measures a setup in its own frame: from +X the stock's x extent runs along the tool axis", () => {
    const stock = { min: [-10, 0, 0] as [number, number, number], max: [110, 40, 30] as [number, number, number] };
    assert.equal(setupTravelExcess(router, [0, 0, 1], stock), null);
    assert.equal(setupTravelExcess(router, [1, 0, 0], stock)?.axis, "Z");
    assert.equal(setupTravelExcess(router, [-1, 0, 0], stock)?.stock_mm, 120);
    assert.equal(setupTravelExcess(router, [0, -1, 0], stock), null);
  });

  it("warns once per pair of opposite setup directions the stock does not fit, naming the axis", () => {
    assert.deepEqual(
      travelWarnings(router, box(120, 40, 30)).map((w) => [w.code, w.axis, w.setups]),
      [["stock_exceeds_travel", "Z", ["+X", "-X"]]],
    );
    assert.deepEqual(
      travelWarnings(router, box(120, 140, 30)).map((w) => w.setups),
      [
        ["+X", "-X"],
        ["+Y", "-Y"],
      ],
    );
    assert.deepEqual(travelWarnings(router, box(90, 40, 30)), []);
    const [warning] = travelWarnings(router, box(500, 40, 30));
    assert.match(
      warning?.message ?? "",
      /^setups \+X, -X do not fit the Desktop router 450 \(Grbl 1\.1\) \(Z axis\): the stock is 500 mm along the tool axis/,
    );
  });

  it("warns of a plan's own setups by their names when it is given them", () => {
    const planned = [
      { name: "+Z", direction: [0, 0, 1] as [number, number, number] },
      { name: "+X", direction: [1, 0, 0] as [number, number, number] },
    ];
    const warnings = travelWarnings(router, box(120, 140, 30), planned);
    assert.deepEqual(
      warnings.map((w) => [w.axis, w.setups]),
      [["Z", ["+X"]]],
      "the plan has no Y setup to warn of",
    );
    assert.match(warnings[0]?.message ?? "", /^setup \+X does not fit/);
  });
});
