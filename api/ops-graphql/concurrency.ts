/**
 * At most `slots` GraphQL requests of this process run at once; the others wait in order, up to
 * `maxWaitMs`, then get 503 with Retry-After. The heaviest request the limits admit
 * (query-limits.ts) spends about 2 s in the database and some hundreds of ms building its
 * answer on the event loop: a few at once keep /healthz and the public API answering, as many
 * at once as clients like would not. Also bounds the API pool's connections they hold.
 */
import type { RequestHandler } from "express";
import { HttpError } from "../../http/errors/index.ts";

export interface ConcurrencyGate {
  slots: number;
  maxWaitMs: number;
}

export function concurrencyGate({ slots, maxWaitMs }: ConcurrencyGate): RequestHandler {
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return (_req, res, next) => {
    let state: "waiting" | "running" | "done" = "waiting";
    const start = () => {
      state = "running";
      next();
    };
    const stopWaiting = (): boolean => {
      const index = waiting.indexOf(admit);
      if (index >= 0) waiting.splice(index, 1);
      clearTimeout(timer);
      return index >= 0;
    };
    const admit = () => {
      clearTimeout(timer);
      start();
    };
    // the slot is given back however the response ends, a client that went away included
    res.on("close", () => {
      if (state === "running") release();
      if (state === "waiting") stopWaiting();
      state = "done";
    });
    let timer: NodeJS.Timeout | undefined;
    if (running < slots) {
      running += 1;
      start();
      return;
    }
    timer = setTimeout(() => {
      if (!stopWaiting()) return;
      state = "done";
      const seconds = Math.max(1, Math.ceil(maxWaitMs / 1000));
      next(
        new HttpError(
          503,
          "ops_graphql_busy",
          `${slots} GraphQL requests are running and others waited ${seconds} s: retry after Retry-After seconds`,
          {
            retry_after_seconds: seconds,
          },
          { "Retry-After": String(seconds) },
        ),
      );
    }, maxWaitMs);
    waiting.push(admit);
  };
}
