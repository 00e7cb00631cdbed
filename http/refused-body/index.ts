/**
 * A request answered before its body arrived (401, 403, 429, 415, a 413 judged from the
 * Content-Length) keeps its connection until the client has sent the rest, which the server
 * reads and discards. Had the server closed it instead, the client, still writing, would meet a
 * reset: Node's fetch (undici) then reports `EPIPE` instead of the answer, and a client or proxy
 * that sends the whole body before it reads (nginx, Python's requests) never sees it at all.
 *
 * This holds also when the client asked to close (`Connection: close`, as nginx sends
 * upstream): the answer says keep-alive and the client closes when it has read it. A client
 * that reads early answers (undici, curl) stops sending and closes at once. How long the rest
 * may take is bounded like any request body: HTTP_REQUEST_TIMEOUT_SECONDS from the request's
 * start, then the connection is cut.
 */
import type { Request, Response } from "express";

function hasBody(req: Request): boolean {
  return Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
}

/** Call before answering `req` without having read its body. */
export function readRestAfterAnswer(req: Request, res: Response): void {
  if (req.complete || req.destroyed || res.headersSent || !hasBody(req)) return;
  res.shouldKeepAlive = true;
  // Node discards an unread body itself once the answer is sent (unless something began to read
  // it and stopped, such as a body parser that gave up): make sure it flows
  res.once("finish", () => {
    if (!req.complete && !req.destroyed) req.resume();
  });
}
