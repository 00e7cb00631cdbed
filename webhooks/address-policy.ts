/**
 * Where a webhook may be delivered. Every address a receiver's host resolves to is checked
 * before connecting, and the connection goes to a checked address (so a DNS answer that
 * changes between check and connect cannot redirect it). Public addresses are always
 * allowed; loopback, private and link-local ones (the cloud metadata address 169.254.169.254
 * among them) only when configured (WEBHOOK_ALLOWED_ADDRESS_CLASSES); unspecified, multicast,
 * broadcast and reserved ones never.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { Env } from "../config/env.ts";

export type AddressClass = "public" | "loopback" | "private" | "link_local" | "forbidden";
export type AllowedClass = "loopback" | "private" | "link_local";

export interface WebhookPolicy {
  allowed: readonly AllowedClass[];
  requireHttps: boolean;
  timeoutMs: number;
}

export function webhookPolicyFrom(env: Env): WebhookPolicy {
  const production = env.NODE_ENV === "production";
  const configured = env.WEBHOOK_ALLOWED_ADDRESS_CLASSES;
  const allowed =
    configured === undefined
      ? production
        ? []
        : (["loopback"] as AllowedClass[])
      : (configured
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s.length > 0) as AllowedClass[]);
  return { allowed, requireHttps: production && !env.WEBHOOK_ALLOW_HTTP, timeoutMs: env.WEBHOOK_TIMEOUT_MS };
}

function ipv4Class(ip: string): AddressClass {
  const [a = 0, b = 0, c = 0, d = 0] = ip.split(".").map(Number);
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127))
    return "private";
  if (a === 169 && b === 254) return "link_local";
  if (a === 0 || a >= 224 || (a === 192 && b === 0 && c === 0) || (a === 198 && (b === 18 || b === 19)))
    return "forbidden";
  if (a === 255 && b === 255 && c === 255 && d === 255) return "forbidden";
  return "public";
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail expanded). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split("%")[0]!;
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4[1]!.split(".").map(Number);
    text = `${text.slice(0, -v4[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<number>(zeros).fill(0), ...right];
}

/** The IPv4 address two 16-bit groups spell. */
function ipv4Of(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * An address that leads to two IPv4 addresses is allowed only where both are: the same class,
 * or the non-public one of a public and a non-public; two different non-public classes would
 * each need configuring, so they count as forbidden.
 */
function bothOf(a: AddressClass, b: AddressClass): AddressClass {
  if (a === b || b === "public") return a;
  return a === "public" ? b : "forbidden";
}

/**
 * IPv6, with every form that carries an IPv4 address judged as that address: a receiver
 * reached through one of them is where the IPv4 address is.
 */
function ipv6Class(ip: string): AddressClass {
  const g = ipv6Groups(ip);
  if (g.length !== 8) return "forbidden";
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const last32 = ipv4Of(g[6]!, g[7]!);
  const first = g[0]!;
  if (zeros(0, 7) && g[7] === 1) return "loopback"; // ::1
  if (zeros(0, 6)) return ipv4Class(last32); // ::a.b.c.d, IPv4-compatible (deprecated, RFC 4291); :: is 0.0.0.0
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Class(last32); // ::ffff:a.b.c.d, IPv4-mapped
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Class(last32); // ::ffff:0:a.b.c.d, IPv4-translated (RFC 2765)
  if (first === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Class(last32); // 64:ff9b::/96, NAT64 (RFC 6052)
  // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): the network's own translator, at a prefix length it chose
  // (so the IPv4 address may sit anywhere in bits 48-127); never reachable from the internet
  if (first === 0x64 && g[1] === 0xff9b && g[2] === 1) return "private";
  if (first === 0x2002) return ipv4Class(ipv4Of(g[1]!, g[2]!)); // 2002:a.b.c.d::/48, 6to4 (RFC 3056)
  // 2001:0::/32, Teredo (RFC 4380): the server's IPv4 address in bits 32-63, the client's (every bit flipped) in 96-127
  if (first === 0x2001 && g[1] === 0)
    return bothOf(ipv4Class(ipv4Of(g[2]!, g[3]!)), ipv4Class(ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)));
  if ((first & 0xffc0) === 0xfe80) return "link_local";
  if ((first & 0xfe00) === 0xfc00) return "private"; // fc00::/7, fd00:ec2::254 (AWS metadata) among them
  if ((first & 0xffc0) === 0xfec0) return "private"; // fec0::/10, site-local (deprecated, RFC 3879)
  if ((first & 0xff00) === 0xff00) return "forbidden"; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return "forbidden"; // documentation
  return "public";
}

export function classifyAddress(ip: string): AddressClass {
  const family = isIP(ip);
  if (family === 4) return ipv4Class(ip);
  if (family === 6) return ipv6Class(ip);
  return "forbidden";
}

export function addressAllowed(ip: string, policy: WebhookPolicy): boolean {
  const cls = classifyAddress(ip);
  return cls === "public" || (cls !== "forbidden" && policy.allowed.includes(cls));
}

export class WebhookUrlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookUrlRefused";
  }
}

/** The URL's own rules (scheme, credentials, a literal address), without DNS: for the API. */
export function checkWebhookUrl(raw: string, policy: WebhookPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRefused("not an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new WebhookUrlRefused("must be an http or https URL");
  if (policy.requireHttps && url.protocol !== "https:") throw new WebhookUrlRefused("must be an https URL");
  if (url.username || url.password) throw new WebhookUrlRefused("must not carry credentials");
  if (url.hash) throw new WebhookUrlRefused("must not have a fragment");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host) ? host : host === "localhost" || host.endsWith(".localhost") ? "127.0.0.1" : null;
  if (literal && !addressAllowed(literal, policy)) {
    throw new WebhookUrlRefused(`delivery to ${classifyAddress(literal)} addresses is not allowed on this server`);
  }
  return url;
}

/** Resolves the URL's host and checks every address; returns the addresses to connect to. */
export async function resolveWebhookTarget(
  raw: string,
  policy: WebhookPolicy,
): Promise<{ url: URL; addresses: string[] }> {
  const url = checkWebhookUrl(raw, policy);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  if (addresses.length === 0) throw new WebhookUrlRefused(`${host} has no address`);
  const refused = addresses.filter((a) => !addressAllowed(a, policy));
  if (refused.length > 0) {
    throw new WebhookUrlRefused(
      `${host} resolves to ${refused.join(", ")} (${classifyAddress(refused[0]!)}), where delivery is not allowed`,
    );
  }
  return { url, addresses };
}
