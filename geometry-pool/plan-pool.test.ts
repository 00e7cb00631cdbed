/** The geometry pool's plan requests, around the stand-in planner thread: slots, progress, cancel flag, abort. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { PlanInput } from "../kernel/cam/plan-types.ts";
import { findMachineArchetype } from "../kernel/machines/archetypes.ts";
import { namedAssembly } from "../test/support/planning.ts";
import { createGeometryPool, GeometryUnavailable, type GeometryPool } from "./pool.ts";

const threadModule = new URL("../test/support/plan-test-thread.ts", import.meta.url).href;

function input(script: string): PlanInput {
  return {
    workpiece: { format: "stl", bytes: new TextEncoder().encode("solid part"), bytes_format: "stl" },
    stock: { min: [0, 0, 0], max: [10, 10, 10] },
    machine: findMachineArchetype("vmc-850-fanuc")!,
    material_id: "aluminium-6061",
    library: [namedAssembly(script)],
    options: { include_face_milling: true, sort_by_height: false },
  };
}

let pool: GeometryPool;
before(async () => {
  pool = createGeometryPool({ size: 2, threadModule, timeoutMs: 5000 });
  await pool.ready();
});
after(async () => {
  await pool.close();
});

describe("geometry pool plans", () => {
  it("runs one plan fewer than it has threads, so an upload finds a thread while plans run", async () => {
    const started = Date.now();
    const plans = [pool.plan(input("fake:sleep:600")), pool.plan(input("fake:sleep:600"))];
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ingest = await pool.ingest(new TextEncoder().encode("x"));
    assert.equal(ingest.ok, false);
    assert.ok(Date.now() - started < 500, "the upload did not wait for a plan");
    const outcomes = await Promise.all(plans);
    assert.deepEqual(
      outcomes.map((o) => o.kind),
      ["planned", "planned"],
    );
    assert.ok(Date.now() - started >= 1200, "the plans ran one after the other");
  });

  it("hands the planner's progress to onProgress, and its refusals back as outcomes", async () => {
    const seen: number[] = [];
    const outcome = await pool.plan(input("fake:slow"), { onProgress: (fraction) => seen.push(fraction) });
    assert.equal(outcome.kind, "planned");
    assert.ok(seen.length >= 5 && seen.at(-1)! > 0.8, `progress ${seen.join(", ")}`);
    assert.deepEqual(await pool.plan(input("fake:refuse:no_tool_fits")), {
      kind: "refused",
      code: "no_tool_fits",
      message: "refused: no_tool_fits",
    });
  });

  it("lets the planner see the cancel flag, and ends a plan whose signal aborts at once, replacing its thread", async () => {
    const cancel = new SharedArrayBuffer(4);
    const cancelled = pool.plan(input("fake:until-cancelled"), { cancel });
    setTimeout(() => Atomics.store(new Int32Array(cancel), 0, 1), 200);
    assert.deepEqual(await cancelled, { kind: "cancelled" });

    const abort = new AbortController();
    const hung = pool.plan(input("fake:ignore-cancel"), { signal: abort.signal });
    setTimeout(() => abort.abort(), 200);
    await assert.rejects(
      hung,
      (error: unknown) => error instanceof GeometryUnavailable && error.code === "geometry_aborted",
    );
    assert.equal((await pool.plan(input("fake:success"))).kind, "planned", "a new thread plans");
  });
});
