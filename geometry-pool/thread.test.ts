/** The real geometry thread in the pool: OCCT loaded once, real fixture files in, outputs checked. */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { repoRoot } from "../config/env.ts";
import { createGeometryPool, type GeometryPool } from "./pool.ts";

const parts = path.resolve(repoRoot, "../shared/fixtures/parts");
const read = (name: string) => new Uint8Array(fs.readFileSync(path.join(parts, name)));

let pool: GeometryPool;
before(async () => {
  pool = createGeometryPool({ size: 1 });
  await pool.ready();
});
after(async () => {
  await pool.close();
});

describe("geometry thread", () => {
  it("turns partC.step into measurements, a glb and a PNG thumbnail", async () => {
    const outcome = await pool.ingest(read("partC.step"), { filename: "partC.step" });
    assert.ok(outcome.ok, JSON.stringify(outcome));
    const { workpiece, glb, thumbnail, brep } = outcome;
    assert.equal(workpiece.format, "step");
    assert.equal(workpiece.faceCount, 94);
    assert.ok(workpiece.closedSolid);
    const size = workpiece.bbox.max.map((v, i) => v - workpiece.bbox.min[i]!);
    for (const [got, want] of size.map((v, i) => [v, [85.5, 44.6, 27.5][i]!] as const)) {
      assert.ok(Math.abs(got - want) < 0.1, `bbox ${size.join(" x ")}`);
    }
    assert.equal(new TextDecoder().decode(glb.subarray(0, 4)), "glTF");
    const image = await sharp(thumbnail).metadata();
    assert.equal(image.format, "png");
    assert.ok(brep && brep.length > 1000, "the B-rep comes back for storage");
    assert.ok(outcome.timings.glb !== undefined && outcome.timings.thumbnail !== undefined);
  });

  it("reads partC.stl without OCCT's help and agrees with the STEP on size", async () => {
    const outcome = await pool.ingest(read("partC.stl"));
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.workpiece.format, "stl");
    assert.equal(outcome.brep, null);
    assert.ok(outcome.workpiece.triangleCount > 100);
  });

  it("answers a refusal with the kernel's code, and keeps serving", async () => {
    const truncated = read("partC.step").subarray(0, 20_000);
    const refused = await pool.ingest(truncated);
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok && ["corrupt_file", "geometry_failed"].includes(refused.code), JSON.stringify(refused));
    const random = await pool.ingest(new Uint8Array(4096).map((_, i) => (i * 7919) % 251));
    assert.ok(!random.ok && random.code === "unsupported_format");
    const again = await pool.ingest(read("partC.stl"));
    assert.ok(again.ok);
  });
});
