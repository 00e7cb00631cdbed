import assert from "node:assert/strict";
import net, { type AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { readEnv } from "../config/env.ts";
import { createHttpServer } from "./http-server.ts";

describe("the HTTP server", () => {
  it("keeps idle connections longer than a load balancer's 60 s by default, and headers and requests longer still", () => {
    const server = createHttpServer(() => {}, readEnv({}));
    assert.equal(server.keepAliveTimeout, 65_000);
    assert.equal(server.headersTimeout, 66_000);
    assert.equal(server.requestTimeout, 300_000);
  });

  it("takes HTTP_*_TIMEOUT_SECONDS and tells clients its keep-alive timeout", async () => {
    const env = readEnv({
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "120",
      HTTP_HEADERS_TIMEOUT_SECONDS: "125",
      HTTP_REQUEST_TIMEOUT_SECONDS: "900",
    });
    const server = createHttpServer((_req, res) => res.end("ok"), env);
    assert.deepEqual(
      [server.keepAliveTimeout, server.headersTimeout, server.requestTimeout],
      [120_000, 125_000, 900_000],
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      assert.equal(await response.text(), "ok");
      assert.equal(response.headers.get("keep-alive"), "timeout=120");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/** sends raw bytes and reads until the server closes: what a client of a broken request gets */
async function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    let reply = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (reply += chunk));
    socket.on("close", () => resolve(reply));
    socket.on("error", reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer")));
  });
}

describe("requests Node's parser refuses", () => {
  it("are answered in the error envelope with X-Request-Id, not an empty 400", async () => {
    const server = createHttpServer((_req, res) => res.end("ok"), readEnv({}));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const cases: [string, string, number, string][] = [
        ["a DEL byte in a header", "GET / HTTP/1.1\r\nHost: x\r\nX-Note: a\x7fb\r\n\r\n", 400, "malformed_request"],
        [
          "Content-Length with Transfer-Encoding",
          "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
          400,
          "malformed_request",
        ],
        [
          "a 70 kB header",
          `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(70_000)}\r\n\r\n`,
          431,
          "request_header_fields_too_large",
        ],
      ];
      for (const [what, request, status, code] of cases) {
        const reply = await rawExchange(port, request);
        const [head = "", body = ""] = reply.split("\r\n\r\n");
        assert.match(head, new RegExp(`^HTTP/1.1 ${status} `), `${what}: ${head}`);
        const id = /^x-request-id: (\S+)$/im.exec(head)?.[1];
        assert.ok(id, `${what}: X-Request-Id`);
        assert.equal(Number(/^content-length: (\d+)$/im.exec(head)?.[1]), Buffer.byteLength(body), what);
        const detail = (JSON.parse(body) as { detail: { code: string; message: string; request_id: string } }).detail;
        assert.equal(detail.code, code, what);
        assert.equal(detail.request_id, id, what);
        assert.ok(detail.message.length > 0);
      }
      const after = await fetch(`http://127.0.0.1:${port}/`);
      assert.equal(await after.text(), "ok", "the server serves the next connection");
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
