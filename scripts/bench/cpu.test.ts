/**
 * The benchmarks' CPU readings from /proc: the calling thread's alone (bench:cam's planner
 * seconds) against the whole process's.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import { describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import { threadCpuSeconds } from "./cpu.ts";

/** Spins until the calling thread has used `seconds` more CPU (read as threadCpuSeconds does, in a worker too). */
const SPIN = `
  const fs = require("node:fs");
  const own = () => {
    const stat = fs.readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const spin = (seconds) => {
    const until = own() + seconds;
    let x = 0;
    while (own() < until) for (let i = 0; i < 1e5; i += 1) x += i;
    return x;
  };
`;

function spinHere(seconds: number): void {
  const until = (threadCpuSeconds() as number) + seconds;
  let x = 0;
  while ((threadCpuSeconds() as number) < until) for (let i = 0; i < 1e5; i += 1) x += i;
  assert.ok(x > 0);
}

describe("threadCpuSeconds", () => {
  it("counts this thread's CPU time and not another thread's", { skip: !fs.existsSync("/proc/thread-self") && "no /proc/thread-self" }, async () => {
    const thread0 = threadCpuSeconds();
    const process0 = process.cpuUsage();
    assert.notEqual(thread0, null);
    // another thread burns 0.4 s of CPU while this one sleeps on its exit
    const worker = new Worker(`${SPIN} spin(0.4);`, { eval: true });
    await new Promise<void>((resolve, reject) => {
      worker.once("error", reject);
      worker.once("exit", () => resolve());
    });
    spinHere(0.2);
    const thread = (threadCpuSeconds() as number) - (thread0 as number);
    const used = process.cpuUsage(process0);
    const processSeconds = (used.user + used.system) / 1e6;
    assert.ok(thread >= 0.2, `this thread used ${thread} s`);
    // the worker's 0.4 s are the process's, not this thread's (starting it cost this thread a little)
    assert.ok(processSeconds - thread >= 0.35, `process ${processSeconds} s, this thread ${thread} s`);
  });
});
