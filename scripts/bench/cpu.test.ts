/**
 * The benchmarks' CPU readings from /proc: the calling thread's alone (bench:cam's planner
 * seconds) against the whole process's.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import { burnCpu } from "./cpu-burn.ts";
import { threadCpuSeconds } from "./cpu.ts";

describe("threadCpuSeconds", () => {
  it("counts this thread's CPU time and not another thread's", {
    skip: !fs.existsSync("/proc/thread-self") && "no /proc/thread-self",
  }, async () => {
    const thread0 = threadCpuSeconds();
    const process0 = process.cpuUsage();
    assert.notEqual(thread0, null);
    // another thread burns 0.4 s of CPU while this one sleeps on its exit
    const worker = new Worker(new URL("../../kernel/threads/typescript-thread.mjs", import.meta.url), {
      workerData: { threadModule: new URL("./cpu-burn.ts", import.meta.url).href, seconds: 0.4 },
    });
    await new Promise<void>((resolve, reject) => {
      worker.once("error", reject);
      worker.once("exit", () => resolve());
    });
    burnCpu(0.2);
    const thread = (threadCpuSeconds() as number) - (thread0 as number);
    const used = process.cpuUsage(process0);
    const processSeconds = (used.user + used.system) / 1e6;
    // readings are whole clock ticks divided by 100, so their difference can fall a hair short (0.43 - 0.23)
    assert.ok(thread >= 0.2 - 1e-9, `this thread used ${thread} s`);
    // the worker's 0.4 s are the process's, not this thread's (starting it cost this thread a little)
    assert.ok(processSeconds - thread >= 0.35, `process ${processSeconds} s, this thread ${thread} s`);
  });
});
