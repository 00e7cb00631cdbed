/**
 * Every response carries X-Request-Id: the client's own if it sent a sane one (so a
 * gateway's id follows the request through), otherwise a fresh one. Error bodies repeat it
 * as detail.request_id.
 */
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const CLIENT_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** an id of our own, for a request that came without a sane one */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll("-", "")}`;
}

export const requestId: RequestHandler = (req, res, next) => {
  const offered = req.get("x-request-id");
  const id = offered && CLIENT_ID.test(offered) ? offered : newRequestId();
  res.locals.requestId = id;
  res.setHeader("X-Request-Id", id);
  next();
};
