/** The scopes of the public API (spec: Authentication). A key holds a subset. */
export const SCOPES = [
  "projects:read",
  "projects:write",
  "cam:write",
  "automation:run",
  "quote:read",
  "quote:write",
  "quote:export",
  "equipment:read",
  "equipment:write",
  "libraries:read",
  "webhooks:write",
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Scopes outside the public API, for the people who run the service. A key gets one only when
 * asked for by name (`cli key create --scopes ops:read`), never with "every scope".
 * ops:read: the operator read API (/ops/graphql) shows every user's rows and the fleet.
 */
export const OPERATOR_SCOPES = ["ops:read"] as const;

export type KeyScope = Scope | (typeof OPERATOR_SCOPES)[number];

export function isKeyScope(value: string): value is KeyScope {
  return isScope(value) || (OPERATOR_SCOPES as readonly string[]).includes(value);
}
