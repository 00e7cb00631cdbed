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
    for (const name of ["HTTP_KEEP_ALIVE_TIMEOUT_SECONDS", "HTTP_HEADERS_TIMEOUT_SECONDS", "HTTP_REQUEST_TIMEOUT_SECONDS"]) {
      for (const value of ["abc", "0", "-5", "1.5"]) assert.match(refusal({ [name]: value }), new RegExp(`^invalid environment:\\n  ${name}: `), `${name}=${value}`);
    }
  });

  it("refuses a headers timeout not above the keep-alive timeout, and a request timeout below the headers timeout", () => {
    assert.match(refusal({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "70" }), /HTTP_HEADERS_TIMEOUT_SECONDS: must be more than HTTP_KEEP_ALIVE_TIMEOUT_SECONDS \(70\)/);
    assert.match(
      refusal({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "70", HTTP_HEADERS_TIMEOUT_SECONDS: "70" }),
      /HTTP_HEADERS_TIMEOUT_SECONDS: must be more than/,
    );
    assert.match(refusal({ HTTP_REQUEST_TIMEOUT_SECONDS: "60" }), /HTTP_REQUEST_TIMEOUT_SECONDS: must be at least HTTP_HEADERS_TIMEOUT_SECONDS \(66\)/);
    const env = readEnv({ HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: "350", HTTP_HEADERS_TIMEOUT_SECONDS: "360", HTTP_REQUEST_TIMEOUT_SECONDS: "360" });
    assert.deepEqual([env.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, env.HTTP_HEADERS_TIMEOUT_SECONDS, env.HTTP_REQUEST_TIMEOUT_SECONDS], [350, 360, 360]);
  });
});
