/**
 * A helper thread's scheduling priority, below the planner's.
 *
 * The planner is a plan's critical path; its two helpers (the simulation, the shadows) work ahead
 * of it and it waits for them only when they fall behind. Three busy threads on two cores get two
 * thirds of a core each under fair shares: while both helpers had work, the planner ran at two
 * thirds of its speed. Below it, they share what it leaves. Measured in alternating pairs on two
 * cores: NIST STC-06 planned in 38.9 s instead of 40.3, CTC-01 and FTC-10 within the noise.
 *
 * On Linux a thread has a nice value of its own (setpriority on its thread id, read from
 * /proc/thread-self); elsewhere, or where /proc is not mounted, the helpers keep the process's
 * priority. A helper starved by other processes still gets its nice share, and a planner waiting
 * for it sleeps, leaving it the core.
 */
import fs from "node:fs";
import os from "node:os";

/** The nice value of a helper thread (the process's own is 0 unless it was started niced). */
export const HELPER_NICE = 10;

/** Lowers the calling thread's priority to at least `nice`; false when the system does not allow it. */
export function lowerThreadPriority(nice = HELPER_NICE): boolean {
  let tid: number;
  try {
    // "<pid>/task/<tid>"
    tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return false;
  }
  if (!Number.isInteger(tid) || tid <= 0) return false;
  try {
    // never raised: a process started niced keeps its helpers at least as nice
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
