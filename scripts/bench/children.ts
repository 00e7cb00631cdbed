/**
 * Child processes of the benchmark: each a small entry script under scripts/bench/, run with
 * `node --import tsx`, talking over the IPC channel. Every child is tracked until it exits so
 * that the parent can stop them all, politely in `finally` and by force on a second Ctrl-C
 * or at process exit.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { repoRoot } from "../../config/env.ts";
import { isChildMessage, type ChildMessage } from "./protocol.ts";

const live = new Set<ChildProcess>();

export interface BenchChild {
  name: string;
  pid: number;
  /** the port of a server child; undefined for the worker */
  port: number | undefined;
  onMessage(listener: (message: ChildMessage) => void): void;
  /** false once the process has exited */
  running(): boolean;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs` */
  stop(graceMs?: number): Promise<void>;
}

export async function startChild(
  name: string,
  entry: string,
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; signal?: AbortSignal; nodeArgs?: readonly string[] } = {},
): Promise<BenchChild> {
  const args = [...(options.nodeArgs ?? []), "--import", "tsx", path.join(repoRoot, "scripts", "bench", entry)];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, ...env },
  });
  live.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      live.delete(child);
      resolve();
    });
  });

  const listeners: ((message: ChildMessage) => void)[] = [];
  child.on("message", (message: unknown) => {
    if (isChildMessage(message)) for (const listener of listeners) listener(message);
  });

  const stop = async (graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  };

  const timeoutMs = options.readyTimeoutMs ?? 60_000;
  let port: number | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not get ready within ${timeoutMs} ms`)), timeoutMs);
      const fail = (reason: Error) => {
        clearTimeout(timer);
        reject(reason);
      };
      listeners.push((message) => {
        if (message.type !== "ready") return;
        clearTimeout(timer);
        port = message.port;
        resolve();
      });
      child.once("exit", (code, signal) => fail(new Error(`${name} exited before it was ready (${signal ?? `code ${code}`})`)));
      child.once("error", fail);
      options.signal?.addEventListener("abort", () => fail(new Error("aborted")), { once: true });
    });
  } catch (error) {
    await stop(1000);
    throw error;
  }

  return {
    name,
    pid: child.pid ?? -1,
    port,
    onMessage: (listener) => listeners.push(listener),
    running: () => child.exitCode === null && child.signalCode === null,
    stop,
  };
}

/** Signals every child still running; synchronous, for signal and exit handlers. */
export function signalAllChildren(signal: NodeJS.Signals): void {
  for (const child of live) child.kill(signal);
}

export function liveChildCount(): number {
  return live.size;
}
