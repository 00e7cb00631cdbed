import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boxToFrame, fromFrame, setupFrame, toFrame } from "./frames.ts";
import type { Box3, Vec3 } from "./types.ts";

const stock: Box3 = { min: [-5, -10, 0], max: [55, 30, 20] };
const near = (a: Vec3, b: Vec3) =>
  assert.ok(
    a.every((v, i) => Math.abs(v - (b[i] as number)) < 1e-9),
    `${a} != ${b}`,
  );

describe("setup frames", () => {
  it("puts the work offset at the stock's top corner from +Z, in the workpiece's own axes", () => {
    const frame = setupFrame([0, 0, 1], stock);
    assert.deepEqual(frame, { origin: [-5, -10, 20], x_axis: [1, 0, 0], z_axis: [0, 0, 1] });
    assert.deepEqual(boxToFrame(frame, stock), { min: [0, 0, -20], max: [60, 40, 0] });
  });

  it("turns the part over about X from -Z: the stock still lies at x, y >= 0 and z <= 0", () => {
    const frame = setupFrame([0, 0, -1], stock);
    assert.deepEqual(frame.x_axis, [1, 0, 0]);
    near(toFrame(frame, [-5, 30, 0]), [0, 0, 0]);
    assert.deepEqual(boxToFrame(frame, stock), { min: [0, 0, -20], max: [60, 40, 0] });
  });

  it("machines a side from +X with the workpiece's Y as x, and maps points there and back", () => {
    const frame = setupFrame([1, 0, 0], stock);
    assert.deepEqual(frame.x_axis, [0, 1, 0]);
    assert.deepEqual(boxToFrame(frame, stock), { min: [0, 0, -60], max: [40, 20, 0] });
    const p: Vec3 = [12.5, -3, 7];
    near(fromFrame(frame, toFrame(frame, p)), p);
  });
});
