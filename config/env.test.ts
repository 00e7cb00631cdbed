import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readEnv } from "./env.ts";

const refusal = (source: NodeJS.ProcessEnv): string => {
  try {
    readEnv(source);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(source)}`);
};

describe("the environment", () => {
  it("refuses HTTP timeouts that are not whole seconds, naming the variable", () => {
    for (const name of [
      "HTTP_KEEP_ALIVE_TIMEOUT_SECONDS",
      "HTTP_HEADERS_TIMEOUT_SECONDS",
      "HTTP_REQUEST_TIMEOUT_SECONDS",
    ]) {
      for (const value of ["abc", "0", "-5", "1.5"])
        assert.match(refusal({ [name]: value }), new RegExp(`^invalid environment:\\n  ${name}: `), `${name}=${value}`);
    }
  });

  it("refuses a headers timeout not above the keep-alive timeout, and a request timeout below the headers timeout", () => {
    assert.match(
      refusal({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "70" }),
      /HTTP_HEADERS_TIMEOUT_SECONDS: must be more than HTTP_KEEP_ALIVE_TIMEOUT_SECONDS \(70\)/,
    );
    assert.match(
      refusal({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "70", HTTP_HEADERS_TIMEOUT_SECONDS: "70" }),
      /HTTP_HEADERS_TIMEOUT_SECONDS: must be more than/,
    );
    assert.match(
      refusal({ HTTP_REQUEST_TIMEOUT_SECONDS: "60" }),
      /HTTP_REQUEST_TIMEOUT_SECONDS: must be at least HTTP_HEADERS_TIMEOUT_SECONDS \(66\)/,
    );
    const env = readEnv({
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "350",
      HTTP_HEADERS_TIMEOUT_SECONDS: "360",
      HTTP_REQUEST_TIMEOUT_SECONDS: "360",
    });
    assert.deepEqual(
      [env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, env.HTTP_HEADERS_TIMEOUT_SECONDS, env.HTTP_REQUEST_TIMEOUT_SECONDS],
      [350, 360, 360],
    );
  });

  it("takes PUBLIC_BASE_URL as an http(s) origin with an optional path prefix, without a trailing slash", () => {
    assert.equal(readEnv({}).PUBLIC_BASE_URL, undefined);
    assert.equal(readEnv({ PUBLIC_BASE_URL: "https://cam.example.com" }).PUBLIC_BASE_URL, "https://cam.example.com");
    assert.equal(readEnv({ PUBLIC_BASE_URL: "https://cam.example.com/" }).PUBLIC_BASE_URL, "https://cam.example.com");
    assert.equal(
      readEnv({ PUBLIC_BASE_URL: "https://CAM.example.com:443/swarf/" }).PUBLIC_BASE_URL,
      "https://cam.example.com/swarf",
    );
    assert.equal(readEnv({ PUBLIC_BASE_URL: "http://10.0.0.5:8080" }).PUBLIC_BASE_URL, "http://10.0.0.5:8080");
  });

  it("refuses a PUBLIC_BASE_URL that is relative, not http(s), or carries a query, fragment or credentials", () => {
    for (const value of [
      "/swarf",
      "cam.example.com",
      "ftp://cam.example.com",
      "https://cam.example.com/?a=1",
      "https://cam.example.com/#top",
      "https://user:pw@cam.example.com",
      "https://cam.example.com?",
    ]) {
      assert.match(refusal({ PUBLIC_BASE_URL: value }), /^invalid environment:\n {2}PUBLIC_BASE_URL: /, value);
    }
  });
});
