/** Device tokens of browsers that have signed in (sql: 000015), as the API role. */
import type { Queryable } from "../request-transaction.ts";

/**
 * Whether a sign-in as `email` with this device token takes the trusted path: the token is
 * live, is that email's user's and is under `limit` failed attempts. Counts the attempt as
 * failed until a success replaces the token; a token over its limit is deleted.
 */
export async function claimSignInDevice(
  db: Queryable,
  tokenHash: Buffer,
  email: string,
  limit: number,
): Promise<boolean> {
  const { rows } = await db.query<{ trusted: boolean }>(
    "select app_public.claim_sign_in_device($1, $2, $3) as trusted",
    [tokenHash, email, limit],
  );
  return rows[0]?.trusted === true;
}

/** A new device token for the user, replacing the one the browser sent (if any). */
export async function issueSignInDevice(
  db: Queryable,
  device: { userId: string; tokenHash: Buffer; replacedHash: Buffer | null; validSeconds: number },
): Promise<void> {
  await db.query("select app_public.issue_sign_in_device($1, $2, $3, $4)", [
    device.userId,
    device.tokenHash,
    device.replacedHash,
    device.validSeconds,
  ]);
}
