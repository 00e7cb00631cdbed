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
  options: {
    readyTimeoutMs?: number;
    signal?: AbortSignal;
    nodeArgs?: readonly string[];
    /** gets every message from the start, including those sent before "ready" */
    onMessage?: (message: ChildMessage) => void;
  } = {},
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

  const listeners: ((message: ChildMessage) => void)[] = options.onMessage ? [options.onMessage] : [];
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
      child.once("exit", (code, signal) =>
        fail(new Error(`${name} exited before it was ready (${signal ?? `code ${code}`})`)),
      );
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

/**
 * Tracks a process the benchmark started by other means (a native tool run with spawn), so
 * that Ctrl-C and process exit reach it like the node children.
 */
export function trackProcess(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  live.add(child);
  child.once("exit", () => live.delete(child));
}

/** http://127.0.0.1:port of a server child. */
export function childOrigin(child: BenchChild): string {
  if (child.port === undefined) throw new Error(`${child.name} did not report its port`);
  return `http://127.0.0.1:${child.port}`;
}

/**
 * Ctrl-C or SIGTERM: the first aborts the run (the caller's finally stops the children and
 * the cluster) and passes SIGINT on to the children; a second one kills them at once. Every
 * child still alive at process exit gets SIGKILL. Returns the function that removes the
 * signal handlers.
 */
export function installSignalHandlers(abort: AbortController, say: (line: string) => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (abort.signal.aborted) {
      signalAllChildren("SIGKILL");
      process.exit(130);
    }
    say(`${signal}: stopping`);
    abort.abort(new Error(`interrupted by ${signal}`));
    // SIGINT, as Ctrl-C would: the children stop without reporting every failure on the way
    signalAllChildren("SIGINT");
  };
  const onExit = () => signalAllChildren("SIGKILL");
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("exit", onExit);
  return () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
}

/** Signals every child still running; synchronous, for signal and exit handlers. */
export function signalAllChildren(signal: NodeJS.Signals): void {
  for (const child of live) child.kill(signal);
}

export function liveChildCount(): number {
  return live.size;
}
