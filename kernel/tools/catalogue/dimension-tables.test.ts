import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DIN_333_A,
  DIN_338,
  DIN_6527_K,
  DIN_6527_L,
  DIN_6537_K,
  DIN_6537_L,
  METRIC_COARSE,
  METRIC_FINE,
  rowFor,
  TAP_BODIES,
} from "./dimension-tables.ts";

describe("DIN 338", () => {
  it("gives the published jobber lengths (10 mm: flute 87, overall 133)", () => {
    const at = (d: number) => {
      const row = rowFor(DIN_338, d);
      return [row.flute, row.overall];
    };
    assert.deepEqual(at(10), [87, 133]);
    assert.deepEqual(at(1), [12, 34]);
    assert.deepEqual(at(2), [24, 49]);
    assert.deepEqual(at(5), [52, 86]);
    assert.deepEqual(at(6), [57, 93]);
    assert.deepEqual(at(8), [75, 117]);
    assert.deepEqual(at(20), [140, 205]);
  });

  it("puts a diameter on a range's upper bound in that range, not the next", () => {
    assert.deepEqual(rowFor(DIN_338, 3.0).overall, 61);
    assert.deepEqual(rowFor(DIN_338, 3.1).overall, 65);
    assert.deepEqual(rowFor(DIN_338, 0.1 + 0.2 + 2.7).overall, 61, "float noise");
    assert.throws(() => rowFor(DIN_338, 20.1), /no row/);
  });

  it("grows monotonically", () => {
    for (let i = 1; i < DIN_338.length; i++) {
      assert.ok(
        DIN_338[i]!.upTo > DIN_338[i - 1]!.upTo &&
          DIN_338[i]!.overall > DIN_338[i - 1]!.overall &&
          DIN_338[i]!.flute > DIN_338[i - 1]!.flute,
        `row ${i}`,
      );
    }
  });
});

describe("DIN 6527 and DIN 6537", () => {
  it("give the long series end mills their published bodies (6 mm: 13 x 57 on a 6 mm shank)", () => {
    assert.deepEqual(DIN_6527_L[6], { flute: 13, overall: 57, shank: 6 });
    assert.deepEqual(DIN_6527_L[10], { flute: 22, overall: 72, shank: 10 });
    assert.deepEqual(DIN_6527_L[20], { flute: 38, overall: 104, shank: 20 });
  });

  it("make the short series shorter than the long one, diameter by diameter", () => {
    for (const [d, long] of Object.entries(DIN_6527_L)) {
      const short = DIN_6527_K[Number(d)];
      assert.ok(
        short && short.flute < long.flute && short.overall <= long.overall && short.shank === long.shank,
        `Ø${d}`,
      );
    }
  });

  it("give the 5xD carbide drill its catalogue body (3 mm: 28 x 66 on 6 mm, 23 usable)", () => {
    assert.deepEqual(rowFor(DIN_6537_L, 3), { upTo: 3.99, shank: 6, overall: 66, flute: 28, usable: 23 });
    for (const table of [DIN_6537_K, DIN_6537_L]) {
      for (const row of table)
        assert.ok(
          row.usable <= row.flute && row.flute < row.overall && row.shank >= Math.floor(row.upTo),
          JSON.stringify(row),
        );
    }
  });
});

describe("DIN 333 form A", () => {
  it("lists the ISO 866 sizes with a body wider than the pilot", () => {
    assert.deepEqual(
      DIN_333_A.map((r) => r.pilot),
      [1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8, 10],
    );
    assert.deepEqual(
      DIN_333_A.find((r) => r.pilot === 2.5),
      { pilot: 2.5, body: 6.3, overall: 45, pilotLength: 3.1 },
    );
    for (const row of DIN_333_A) assert.ok(row.body > row.pilot && row.pilotLength < row.overall);
  });
});

describe("ISO metric threads", () => {
  it("have the ISO 261 coarse pitches of M2..M20", () => {
    assert.deepEqual(
      METRIC_COARSE.map((t) => `M${t.nominal} ${t.pitch}`),
      [
        "M2 0.4",
        "M2.5 0.45",
        "M3 0.5",
        "M4 0.7",
        "M5 0.8",
        "M6 1",
        "M8 1.25",
        "M10 1.5",
        "M12 1.75",
        "M14 2",
        "M16 2",
        "M18 2.5",
        "M20 2.5",
      ],
    );
  });

  it("have tap drills between the thread's core and its size, and a tap body for every size", () => {
    for (const t of [...METRIC_COARSE, ...METRIC_FINE]) {
      assert.ok(t.tapDrill < t.nominal && t.tapDrill >= t.nominal - 1.0825 * t.pitch, `M${t.nominal}x${t.pitch}`);
      assert.ok(TAP_BODIES[t.nominal], `M${t.nominal}`);
    }
    assert.equal(METRIC_FINE.find((t) => t.nominal === 10 && t.pitch === 1.25)?.tapDrill, 8.75);
  });
});
