/**
 * One pino logger for the process, and adapters for the graphile libraries' loggers.
 * API keys never reach a log line: the access log records the key prefix only.
 */
import type { LogLevel } from "graphile-worker";
import { pino, type Logger } from "pino";
import { readEnv } from "./env.ts";

// stderr, so that stdout stays for what commands print (the CLI prints a key and nothing else)
export const log: Logger = pino(
  {
    level: readEnv().LOG_LEVEL,
    base: { pid: process.pid },
    redact: { paths: ['*.headers["x-api-key"]', "*.apiKey", "*.plaintext"], censor: "[redacted]" },
  },
  pino.destination(2),
);

const levelMap: Record<LogLevel, "error" | "warn" | "info" | "debug"> = {
  error: "error",
  warning: "warn",
  info: "info",
  debug: "debug",
};

/**
 * graphile-worker and graphile-migrate each take a @graphile/logger Logger (of their own
 * copy of that package): `new Logger(graphileLogFactory("worker"))`.
 */
export function graphileLogFactory(component: string) {
  const child = log.child({ component });
  return () => (level: LogLevel, message: string, meta?: unknown) => {
    child[levelMap[level] ?? "info"]((meta ?? {}) as object, message);
  };
}
