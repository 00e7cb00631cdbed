import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cutterProfile } from "./cutter-profile.ts";
import { cutter, near } from "./test-support.ts";

describe("cutterProfile", () => {
  it("gives a ball its radius of height at its edge and a bull nose a flat centre then its corner", () => {
    const ball = cutterProfile(cutter("ball", 10)).cutting;
    near(ball.height(5), 5, 1e-12, "ball at its edge");
    near(ball.height(3), 1, 1e-12, "ball at 3 mm");
    const bull = cutterProfile(cutter("bull", 10, { corner_radius: 1 })).cutting;
    assert.equal(bull.height(4), 0);
    near(bull.height(5), 1, 1e-12, "bull at its edge");
    near(bull.height(4.6), 1 - Math.sqrt(1 - 0.36), 1e-12, "bull in its corner");
  });

  it("gives a drill a cone of its point angle and a chamfer mill a flat tip then a cone at its angle to the axis", () => {
    const drill = cutterProfile(cutter("drill", 10, { tip_angle_deg: 90 })).cutting;
    near(drill.height(5), 5, 1e-12, "90° point at the edge");
    const chamfer = cutterProfile(cutter("chamfer", 12, { tip_diameter: 2, chamfer_angle_deg: 30 })).cutting;
    assert.equal(chamfer.height(1), 0);
    near(chamfer.height(6), 5 / Math.tan(Math.PI / 6), 1e-12, "30° cone at the edge");
  });

  it("simulates an M6 tap as a cylinder of its 4.92 mm core", () => {
    const tap = cutterProfile(cutter("tap", 6, { pitch_mm: 1 })).cutting;
    near(2 * tap.reach, 6 - 1.0825, 1e-12, "core diameter");
    assert.equal(tap.shape, "flat");
  });

  it("stacks the neck from the flutes to the neck length, the shank to the stick-out, then the holder's segments", () => {
    const profile = cutterProfile(
      cutter("flat", 6, {
        flute_length: 8,
        neck_diameter: 5.5,
        neck_length: 20,
        shank_diameter: 6,
        stick_out: 30,
        holder: [
          { length: 10, lower_diameter: 20, upper_diameter: 32 },
          { length: 40, lower_diameter: 40, upper_diameter: 40 },
        ],
      }),
    );
    assert.equal(profile.fluteLength, 8);
    assert.deepEqual(
      profile.bodies.map((b) => [b.name, b.envelope.base, b.envelope.reach]),
      [
        ["neck", 8, 2.75],
        ["shank", 20, 3],
        ["holder", 30, 16],
        ["holder", 40, 20],
      ],
    );
    // the cone of the first holder segment: its lowest point at 13 mm out is half way up
    near(profile.bodies[2]?.envelope.height(13) ?? NaN, 35, 1e-12, "cone of the holder");
  });

  it("refuses a cutter without a diameter", () => {
    assert.throws(() => cutterProfile(cutter("flat", 0)), RangeError);
  });
});
