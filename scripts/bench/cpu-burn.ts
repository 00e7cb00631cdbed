/**
 * CPU burnt on purpose, as threadCpuSeconds counts it (cpu.test.ts). Loaded as a worker thread's
 * module (kernel/threads/typescript-thread.mjs), it burns workerData.seconds on that thread.
 */
import { isMainThread, workerData } from "node:worker_threads";
import { threadCpuSeconds } from "./cpu.ts";

/** Spins until the calling thread has used `seconds` more CPU (Linux: threadCpuSeconds is never null there). */
export function burnCpu(seconds: number): void {
  const until = (threadCpuSeconds() as number) + seconds;
  let x = 0;
  while ((threadCpuSeconds() as number) < until) for (let i = 0; i < 1e5; i += 1) x += i;
  if (!(x > 0)) throw new Error("the spin was optimised away");
}

if (!isMainThread && typeof (workerData as { seconds?: unknown } | null)?.seconds === "number")
  burnCpu((workerData as { seconds: number }).seconds);
