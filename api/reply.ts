/**
 * What a route handler returns. The router serialises it once, so an idempotent replay sends
 * the very bytes the first response sent.
 */
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
  if (reply.body === null) res.end();
  else res.end(reply.body);
}
