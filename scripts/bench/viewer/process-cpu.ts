/**
 * The CPU time a process and all its descendants have used so far (Linux's /proc): the
 * browser's processes (renderer, GPU process with SwiftShader's threads) are what draws a frame,
 * and on a machine shared with other work their CPU time per frame says what a frame costs
 * where frames per second say mostly how busy the machine is. NaN where /proc is not there.
 */
import fs from "node:fs";

const TICKS_PER_S = 100;

interface Stat {
  command: string;
  ppid: number;
  /** utime + stime, in clock ticks */
  ticks: number;
}

function stat(pid: number): Stat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // the command name is in parentheses and may hold spaces: the fields start after its ")"
    const close = text.lastIndexOf(")");
    const fields = text.slice(close + 2).split(" ");
    const command = text.slice(text.indexOf("(") + 1, close);
    return { command, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/**
 * The CPU time of `root`'s descendants (not `root` itself: the benchmark's own process, which
 * serves the pages), leaving out the subtrees whose command `skip` names (the database).
 */
export function descendantsCpuMs(root: number, skip: RegExp): number {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return Number.NaN;
  }
  const stats = new Map<number, Stat>();
  for (const name of entries) {
    const found = stat(Number(name));
    if (found) stats.set(Number(name), found);
  }
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of stats) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  let ticks = 0;
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    const found = stats.get(pid);
    if (!found || skip.test(found.command)) continue;
    ticks += found.ticks;
    stack.push(...(children.get(pid) ?? []));
  }
  return (ticks * 1000) / TICKS_PER_S;
}
