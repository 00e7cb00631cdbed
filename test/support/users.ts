/** Users and keys made the way the CLI makes them. */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { generateApiKey } from "../../auth/api-key.ts";
import { SCOPES, type KeyScope } from "../../auth/scopes.ts";
import { insertApiKey } from "../../db/queries/api-keys.ts";
import { createUser } from "../../db/queries/users.ts";

export interface TestUser {
  id: string;
  email: string;
  /** a key with every scope */
  key: string;
  /** a further key with only these scopes */
  keyWith(scopes: readonly KeyScope[]): Promise<string>;
}

export interface TestUserOptions {
  /** the default library starts empty (`cli user create --empty-library`), not with the starter library */
  emptyLibrary?: boolean;
}

export async function createTestUser(owner: pg.Pool, label = "user", options: TestUserOptions = {}): Promise<TestUser> {
  const email = `${label}-${randomBytes(4).toString("hex")}@example.com`;
  const user = await createUser(owner, email, { starterLibrary: !options.emptyLibrary });
  const keyWith = async (scopes: readonly KeyScope[]) => {
    const key = generateApiKey();
    await insertApiKey(owner, {
      userId: user.id,
      name: `test ${scopes.join(" ")}`,
      prefix: key.prefix,
      hash: key.hash,
      scopes,
    });
    return key.plaintext;
  };
  return { id: user.id, email, key: await keyWith(SCOPES), keyWith };
}
