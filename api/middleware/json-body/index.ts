/**
 * JSON bodies for the routes that take one: a size limit (413), application/json only (415),
 * malformed JSON (400 malformed_json, through the error middleware), a body that does not
 * decompress as its Content-Encoding says (400 malformed_body), one nested deeper than
 * MAX_JSON_DEPTH (400 json_too_deep), one with a `__proto__` key anywhere (400 invalid_parameter,
 * code invalid_key, each such key named). A route without a body schema does not parse one.
 */
import express, { type RequestHandler } from "express";
import { HttpError, invalidParameter } from "../../../http/errors/index.ts";
import { protoKeyPaths } from "./proto-keys.ts";

/**
 * No body of this API nests more than a dozen levels. The free-form objects (an equipment
 * library's remote_data, a holder's or tool's vendor_data) take any JSON, and JSON.stringify
 * writing one a few thousand levels deep into the database overflowed the stack: a 500.
 */
export const MAX_JSON_DEPTH = 64;

export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req, res, next) => {
    const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
    if (!hasBody) {
      req.body = undefined;
      next();
      return;
    }
    if (!req.is("application/json") && !req.is("application/*+json")) {
      next(
        new HttpError(415, "unsupported_media_type", "send the body as application/json", {
          content_type: req.get("content-type") ?? null,
        }),
      );
      return;
    }
    parse(req, res, (error?: unknown) => {
      // body-parser hands on the decompression stream's own error (zlib's "incorrect header
      // check" for a gzip body that is not gzip, a truncated one) marked 400 but without the
      // `type` its own errors carry: the error middleware did not know it and answered 500
      if (isUntypedClientError(error)) {
        next(
          new HttpError(400, "malformed_body", "the request body does not decompress as its Content-Encoding says", {
            content_encoding: req.get("content-encoding") ?? null,
          }),
        );
        return;
      }
      if (!error && nestsDeeperThan(req.body, MAX_JSON_DEPTH)) {
        next(
          new HttpError(
            400,
            "json_too_deep",
            `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
            {
              max_depth: MAX_JSON_DEPTH,
            },
          ),
        );
        return;
      }
      const protoKeys = error ? [] : protoKeyPaths(req.body);
      if (protoKeys.length > 0) {
        next(
          invalidParameter(
            protoKeys.map((path) => ({
              field: `body.${path}`,
              code: "invalid_key",
              message: "__proto__ is not allowed as a key",
            })),
          ),
        );
        return;
      }
      next(error);
    });
  };
}

/** Whether arrays and objects nest deeper than `limit` (walked without recursion: the value may be deep). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    if (typeof node !== "object" || node === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

function isUntypedClientError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { status, type } = error as { status?: unknown; type?: unknown };
  return status === 400 && type === undefined;
}
