/**
 * The signed-in user's API keys (the web app's Settings, API keys):
 *
 *   GET    /keys           -> 200 {items: [{id, name, prefix, scopes, created_at, last_used_at}]}
 *   POST   /keys           {name, scopes?} -> 201 the key and its plaintext `key`, shown once
 *   DELETE /keys/{key_id}  -> 204; another user's or an unknown id: 404
 *   GET    /scopes         -> 200 {scopes}
 *
 * Each runs in a request transaction opened with the session (begin_request), so the SQL
 * functions see the same user as RLS does. A revoked key leaves this process's key cache at
 * once; other processes refuse it on their next database-backed request (begin_request).
 */
import type { Response } from "express";
import { z } from "zod";
import { generateApiKey } from "../../auth/api-key.ts";
import { SCOPES } from "../../auth/scopes.ts";
import { createOwnApiKey, ownApiKeys, revokeOwnApiKey, type OwnApiKey } from "../../db/queries/api-keys.ts";
import { withRequestTransaction } from "../../db/request-transaction.ts";
import { notFound } from "../../http/errors/index.ts";
import type { AuthenticatedKey } from "../locals.ts";
import type { ApiServices } from "../services.ts";

export const KEY_NAME_MAX = 100;

export const CreateKeyBody = z.strictObject({
  name: z
    .string()
    .refine((name) => name.trim().length > 0, "a key needs a name")
    .refine((name) => [...name].length <= KEY_NAME_MAX, `a key's name is at most ${KEY_NAME_MAX} characters`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
    .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), "a key's name has no control characters"),
  scopes: z
    .array(z.enum(SCOPES))
    .min(1)
    .refine((scopes) => new Set(scopes).size === scopes.length, "each scope once")
    .optional(),
});

export const KeyParams = z.strictObject({ key_id: z.uuid() });

function shown(key: OwnApiKey) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.key_prefix,
    scopes: key.scopes,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at?.toISOString() ?? null,
  };
}

export async function listKeys(res: Response, services: ApiServices, auth: AuthenticatedKey): Promise<void> {
  const keys = await withRequestTransaction(services.pool, auth.credential, [], (db) => ownApiKeys(db));
  res.status(200).json({ items: keys.map(shown) });
}

export async function createKey(res: Response, services: ApiServices, auth: AuthenticatedKey): Promise<void> {
  const body = CreateKeyBody.parse(res.locals.input?.body);
  const key = generateApiKey();
  const created = await withRequestTransaction(services.pool, auth.credential, [], (db) =>
    createOwnApiKey(db, { name: body.name, prefix: key.prefix, hash: key.hash, scopes: body.scopes ?? [...SCOPES] }),
  );
  res.status(201).json({ ...shown(created), key: key.plaintext });
}

export async function revokeKey(
  res: Response,
  services: ApiServices,
  auth: AuthenticatedKey,
  forget: (keyHash: Buffer) => void,
): Promise<void> {
  const { key_id: keyId } = KeyParams.parse(res.locals.input?.params);
  const hash = await withRequestTransaction(services.pool, auth.credential, [], (db) => revokeOwnApiKey(db, keyId));
  if (!hash) throw notFound("API key", keyId);
  forget(hash);
  res.status(204).end();
}

export function listScopes(res: Response): void {
  res.status(200).json({ scopes: SCOPES });
}
