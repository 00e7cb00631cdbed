import assert from "node:assert/strict";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import express from "express";
import { readEnv, repoRoot } from "../../config/env.ts";
import { parseAnswer } from "../../test/support/http-client-process.ts";
import { createHttpServer } from "../http-server.ts";
import { errorHandler, HttpError } from "../errors/index.ts";
import { requestId } from "../request-id/index.ts";

/** a real part as the body: 1.86 MB of STEP */
const PART = fs.readFileSync(
  path.resolve(repoRoot, "..", "shared", "fixtures", "parts", "nist_ftc_10_asme1_ap242-e2.stp"),
);

let server: ReturnType<typeof createHttpServer>;
let port: number;

before(async () => {
  const app = express();
  app.use(requestId);
  app.post("/refused", () => {
    throw new HttpError(401, "api_key_missing", "send your API key in the X-API-Key header");
  });
  app.post("/read", express.raw({ type: () => true, limit: "10mb" }), () => {
    throw new HttpError(400, "invalid_parameter", "read, then refused");
  });
  app.get("/next", (_req, res) => {
    res.json({ ok: true });
  });
  app.use(errorHandler);
  server = createHttpServer(app, readEnv({}));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A connection that reads answers one at a time and reports how it ended. */
class Connection {
  readonly socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: (() => void) | undefined;
  ended = false;
  error: string | undefined;

  constructor() {
    this.socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    this.socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.waiting?.();
    });
    this.socket.on("end", () => {
      this.ended = true;
      this.waiting?.();
    });
    this.socket.on("error", (error: NodeJS.ErrnoException) => {
      this.error = error.code ?? error.message;
      this.waiting?.();
    });
  }

  write(bytes: Buffer | string): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** the next whole answer: status, headers, body */
  async answer(): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    for (;;) {
      const answer = parseAnswer(this.buffer);
      if (answer) {
        this.buffer = answer.rest;
        return { status: answer.status, headers: answer.headers, body: answer.body.toString("utf8") };
      }
      if (this.ended || this.error) throw new Error(`no whole answer: ${this.error ?? "the server closed"}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** resolves when the server has closed its side */
  async closedByServer(): Promise<void> {
    while (!this.ended && !this.error) await new Promise<void>((resolve) => (this.waiting = resolve));
  }
}

const head = (target: string, extra: string[] = []) =>
  [
    `POST ${target} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/step",
    `Content-Length: ${PART.length}`,
    ...extra,
    "",
    "",
  ].join("\r\n");

describe("a request answered before its body arrived", () => {
  it("keeps its connection: the rest of the body is read and discarded, and the next request is answered", async () => {
    const connection = new Connection();
    await connection.write(head("/refused"));
    await connection.write(PART.subarray(0, 64 * 1024));
    const refused = await connection.answer();
    assert.equal(refused.status, 401);
    assert.equal(JSON.parse(refused.body).detail.code, "api_key_missing");
    assert.equal(refused.headers.connection, "keep-alive");
    await connection.write(PART.subarray(64 * 1024));
    await connection.write("GET /next HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const next = await connection.answer();
    assert.equal(next.status, 200);
    assert.deepEqual(JSON.parse(next.body), { ok: true });
    assert.equal(connection.error, undefined);
    connection.socket.destroy();
  });

  it("keeps it also when the client asked to close, so the client can finish writing and read the answer", async () => {
    const connection = new Connection();
    await connection.write(head("/refused", ["Connection: close"]));
    await connection.write(PART.subarray(0, 64 * 1024));
    const refused = await connection.answer();
    assert.equal(refused.status, 401);
    assert.equal(connection.ended, false, "the server did not close under the writer");
    // megabytes after the answer: a closed connection would reset and these writes fail
    for (let at = 64 * 1024; at < PART.length; at += 64 * 1024) {
      await connection.write(PART.subarray(at, at + 64 * 1024));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    assert.equal(connection.error, undefined);
    connection.socket.end();
    await connection.closedByServer();
    assert.equal(connection.error, undefined, "closed without a reset");
  });

  it("changes nothing for a request whose body was read: the client's Connection: close is honoured", async () => {
    const connection = new Connection();
    await connection.write(head("/read", ["Connection: close"]));
    await connection.write(PART);
    const refused = await connection.answer();
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.connection, "close");
    await connection.closedByServer();
  });
});
