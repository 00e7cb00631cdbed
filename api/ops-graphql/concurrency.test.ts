import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import express from "express";
import { readEnv } from "../../config/env.ts";
import { createHttpServer } from "../../http/http-server.ts";
import { errorHandler } from "../../http/errors/index.ts";
import { requestId } from "../../http/request-id/index.ts";
import { concurrencyGate } from "./concurrency.ts";

/** requests to /hold stay open until the test lets them go */
const held: (() => void)[] = [];
let server: ReturnType<typeof createHttpServer>;
let origin: string;

before(async () => {
  const app = express();
  app.use(requestId);
  app.use(concurrencyGate({ slots: 1, maxWaitMs: 300 }));
  app.get("/hold", (_req, res) => {
    held.push(() => res.json({ ok: true }));
  });
  app.get("/quick", (_req, res) => {
    res.json({ ok: true });
  });
  app.use(errorHandler);
  server = createHttpServer(app, readEnv({}));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe("the GraphQL concurrency gate", () => {
  it("lets a waiting request in when the slot frees, and answers 503 with Retry-After to one that waited too long", async () => {
    const first = fetch(`${origin}/hold`);
    await until(() => held.length === 1);
    const waited = await fetch(`${origin}/quick`);
    assert.equal(waited.status, 503);
    assert.equal(waited.headers.get("retry-after"), "1");
    const body = (await waited.json()) as { detail: { code: string; request_id: string } };
    assert.equal(body.detail.code, "ops_graphql_busy");
    assert.equal(body.detail.request_id, waited.headers.get("x-request-id"));

    const second = fetch(`${origin}/quick`);
    held.shift()!();
    assert.equal((await first).status, 200);
    assert.equal((await second).status, 200, "the waiting request took the freed slot");
  });

  it("gives the slot back when a client goes away, running or waiting", async () => {
    const running = new AbortController();
    const abandoned = fetch(`${origin}/hold`, { signal: running.signal }).catch(() => "aborted");
    await until(() => held.length === 1);
    const waiting = new AbortController();
    const gaveUp = fetch(`${origin}/quick`, { signal: waiting.signal }).catch(() => "aborted");
    await new Promise((resolve) => setTimeout(resolve, 50));
    waiting.abort();
    running.abort();
    assert.equal(await abandoned, "aborted");
    assert.equal(await gaveUp, "aborted");
    held.shift();
    const next = await fetch(`${origin}/quick`);
    assert.equal(next.status, 200, "no slot leaked to the clients that left");
  });
});
