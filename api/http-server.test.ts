import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
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
    const env = readEnv({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "120", HTTP_HEADERS_TIMEOUT_SECONDS: "125", HTTP_REQUEST_TIMEOUT_SECONDS: "900" });
    const server = createHttpServer((_req, res) => res.end("ok"), env);
    assert.deepEqual([server.keepAliveTimeout, server.headersTimeout, server.requestTimeout], [120_000, 125_000, 900_000]);
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
