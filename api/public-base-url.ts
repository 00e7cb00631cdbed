/**
 * Where clients reach this API, for the absolute URLs it gives out (presigned files):
 * PUBLIC_BASE_URL when set; else the request's own scheme and Host. X-Forwarded-Proto and
 * X-Forwarded-Host count only from a proxy TRUST_PROXY trusts (Express's req.protocol and
 * req.host). The Host header is the client's to choose, so a client can only point its own
 * answer's URLs elsewhere; a proxy in front must pass the Host on or set the forwarded headers,
 * or PUBLIC_BASE_URL must be set. A Host that is not a host name or address (and HTTP/1.0
 * without one) gives the address the connection came in on.
 */
import type { Request } from "express";

/** a DNS name or IPv4 address, or an IPv6 address in brackets, each with an optional port */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function connectionHost(req: Request): string {
  const address = (req.socket.localAddress ?? "127.0.0.1").replace(/^::ffff:(?=\d+\.)/, "");
  return `${address.includes(":") ? `[${address}]` : address}:${req.socket.localPort ?? 80}`;
}

/** scheme, host and any path prefix, without a trailing slash: `https://cam.example.com/swarf` */
export function publicBaseUrl(req: Request, configured: string | undefined): string {
  if (configured) return configured;
  const encrypted = "encrypted" in req.socket && req.socket.encrypted === true;
  const protocol = req.protocol === "https" || req.protocol === "http" ? req.protocol : encrypted ? "https" : "http";
  const host = req.host !== undefined && HOST.test(req.host) ? req.host : connectionHost(req);
  return `${protocol}://${host}`;
}
