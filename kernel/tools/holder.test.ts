import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { holderMaxDiameter, holderViolations, segmentsLength, validateHolder } from "./holder.ts";
import { colletChuck } from "./testdata/fixtures.ts";

const rules = (input: unknown) => holderViolations(input).map((v) => `${v.field} ${v.rule}`);

describe("validateHolder", () => {
  it("accepts a collet chuck whose gauge length is its segments' sum", () => {
    const result = validateHolder(colletChuck);
    assert.equal(result.ok, true);
    if (result.ok) {
      assert.equal(segmentsLength(result.holder.segments!), 70);
      assert.equal(
        holderMaxDiameter({
          ...result.holder,
          segments: result.holder.segments!,
          gauge_length_mm: result.holder.gauge_length_mm!,
        }),
        63,
      );
    }
  });

  it("accepts Extension and Adapter stacking groups and a holder without a uuid", () => {
    const { uuid: _uuid, ...anonymous } = colletChuck;
    for (const stacking_group of ["Extension", "Adapter"])
      assert.deepEqual(rules({ ...anonymous, stacking_group }), []);
  });

  it("reports every bad segment, the gauge length and the clamping range at once", () => {
    assert.deepEqual(
      rules({
        ...colletChuck,
        stacking_group: "Spindle",
        gauge_length_mm: 80,
        clamping_range_mm: { min: 20, max: 2 },
        segments: [
          { length_mm: 0, upper_diameter_mm: 63, lower_diameter_mm: 63 },
          { length_mm: 70, upper_diameter_mm: -50, lower_diameter_mm: 5000 },
        ],
      }).sort(),
      [
        "clamping_range_mm.min min_at_most_max",
        "segments.0.length_mm positive",
        "segments.1.lower_diameter_mm range",
        "segments.1.upper_diameter_mm positive",
        "stacking_group one_of",
      ],
    );
    assert.deepEqual(rules({ ...colletChuck, gauge_length_mm: 71 }), ["gauge_length_mm equals_segment_sum"]);
    assert.deepEqual(rules({ ...colletChuck, gauge_length_mm: 70.005 }), [], "within 0.01 mm");
  });

  it("accepts the spec's fields alone (uuid, name, stacking_group, manufacturer): the profile is assumed where it is used", () => {
    const { uuid, name, stacking_group, manufacturer } = colletChuck;
    assert.deepEqual(rules({ uuid, name, stacking_group, manufacturer }), []);
    const { gauge_length_mm: _gauge, ...noGauge } = colletChuck;
    assert.deepEqual(rules(noGauge), [], "a gauge length is the segments' sum");
    const { segments: _segments, ...noSegments } = colletChuck;
    assert.deepEqual(rules(noSegments), [], "a gauge length without a profile");
  });

  it("refuses an empty profile and unknown fields", () => {
    const { gauge_length_mm: _gauge, ...noGauge } = colletChuck;
    assert.deepEqual(rules({ ...noGauge, segments: [], colour: "blue" }).sort(), [
      "colour unknown_field",
      "segments non_empty",
    ]);
    assert.deepEqual(rules({ ...colletChuck, segments: [{ length_mm: 70, diameter_mm: 50 }] }).sort(), [
      "segments.0.diameter_mm unknown_field",
      "segments.0.lower_diameter_mm required",
      "segments.0.upper_diameter_mm required",
    ]);
  });
});
