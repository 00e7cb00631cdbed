/**
 * What a route handler returns. The router serialises it once, so an idempotent replay sends
 * the very bytes the first response sent.
 *
 * Content encoding is chosen when sending, per request: a reply that varies by
 * Accept-Encoding (bytes(..., {compressible: true})) is sent gzip-encoded to a client that
 * asks for gzip. The Vary header is stored with an idempotent response, so a replay
 * negotiates the same way for its own request.
 */
import { createGzip } from "node:zlib";
import type { Response } from "express";

export interface Reply {
  status: number;
  /** a JSON body, or raw bytes with their content type; neither for 204 */
  body?: { json: unknown } | { bytes: Buffer; contentType: string };
  headers?: Record<string, string>;
}

export interface SerializedReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer | null;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, body: { json: value }, headers };
}

export function noContent(): Reply {
  return { status: 204 };
}

/** Raw bytes. compressible: gzip them for a client whose Accept-Encoding asks for it. */
export function bytes(
  status: number,
  data: Buffer,
  contentType: string,
  headers: Record<string, string> = {},
  options: { compressible?: boolean } = {},
): Reply {
  return {
    status,
    body: { bytes: data, contentType },
    headers: options.compressible ? { ...headers, Vary: "Accept-Encoding" } : headers,
  };
}

/** smaller bodies are not worth a gzip header and a deflate stream */
const GZIP_MIN_BYTES = 1024;

function sendsGzip(res: Response, reply: SerializedReply): boolean {
  if (!reply.body || reply.body.length < GZIP_MIN_BYTES) return false;
  const vary = Object.entries(reply.headers).find(([name]) => name.toLowerCase() === "vary")?.[1] ?? "";
  if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) return false;
  // no Accept-Encoding at all: identity (what clients expect, although RFC 9110 would allow any)
  if (!res.req.get("accept-encoding")) return false;
  return res.req.acceptsEncodings("gzip", "identity") === "gzip";
}

export function serializeReply(reply: Reply): SerializedReply {
  const headers: Record<string, string> = { ...reply.headers };
  if (!reply.body) return { status: reply.status, headers, body: null };
  if ("json" in reply.body) {
    headers["Content-Type"] = "application/json; charset=utf-8";
    return { status: reply.status, headers, body: Buffer.from(JSON.stringify(reply.body.json)) };
  }
  headers["Content-Type"] = reply.body.contentType;
  return { status: reply.status, headers, body: reply.body.bytes };
}

export function sendSerialized(res: Response, reply: SerializedReply): void {
  res.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  if (reply.body === null) {
    res.end();
  } else if (sendsGzip(res, reply)) {
    res.setHeader("Content-Encoding", "gzip");
    res.removeHeader("Content-Length");
    const gzip = createGzip();
    gzip.on("error", () => res.destroy());
    gzip.pipe(res);
    gzip.end(reply.body);
  } else {
    res.end(reply.body);
  }
}
