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
