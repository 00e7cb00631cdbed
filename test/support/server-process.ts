/**
 * `npm start` as a child process for the suites that test the whole program: on a free port,
 * its log collected, stopped with SIGTERM as an operator would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { repoRoot } from "../../config/env.ts";
import { findFreePort } from "./ports.ts";
import { waitFor } from "./task-records.ts";

export interface StartedServer {
  child: ChildProcess;
  origin: string;
  port: number;
  stderr(): string;
}

/**
 * A free port can be taken by another process between findFreePort and the child's listen (the
 * suites run in parallel): a server that exits with EADDRINUSE is started again on another port.
 * (Seen once in CI: the embedded cluster held the port the HTTP server was given.)
 */
export async function startServer(env: Record<string, string>): Promise<StartedServer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServerOnce(env);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes("EADDRINUSE")) throw error;
    }
  }
}

/** `npm start` as a child process on a free port, its log collected; not waited for. */
export async function spawnServer(env: Record<string, string>): Promise<StartedServer> {
  // findFreePort may hand out the port it just gave for the embedded cluster again
  let port = await findFreePort();
  while (String(port) === env.EMBEDDED_PG_PORT) port = await findFreePort();
  const { DATABASE_URL: _inherited, ...base } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...base, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "trace", GEOMETRY_WORKERS: "1", ...env },
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { child, origin: `http://127.0.0.1:${port}`, port, stderr: () => stderr };
}

async function startServerOnce(env: Record<string, string>): Promise<StartedServer> {
  const server = await spawnServer(env);
  try {
    // OCCT's start (4-6 s idle) and the first seed of the reference data take far longer on a
    // loaded machine: measured 30 s and more while other suites ran, 123 s at a load of 19 on 2 cores
    await waitFor(
      "GET /healthz answers 200",
      async () => {
        if (server.child.exitCode !== null)
          throw new Error(`npm start exited ${server.child.exitCode}: ${server.stderr()}`);
        const res = await fetch(`${server.origin}/healthz`).catch(() => null);
        return res?.status === 200;
      },
      { timeoutMs: 240_000, intervalMs: 100 },
    );
  } catch (error) {
    // a server that did not come up must not outlive the test (its pipes would keep the file's process alive)
    server.child.kill("SIGKILL");
    throw error;
  }
  return server;
}

/** SIGTERM, then the exit code (or the signal that ended it). */
export async function stopServer(server: StartedServer): Promise<number | string | null> {
  if (server.child.exitCode !== null) return server.child.exitCode;
  server.child.kill("SIGTERM");
  const [code, signal] = (await once(server.child, "exit")) as [number | null, string | null];
  return code ?? signal;
}
