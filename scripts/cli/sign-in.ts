/**
 * `cli user set-password <email>` and `cli user login-link <email>`: how people get into the
 * web app on a site without mail. The password is read from standard input (its first line;
 * typed unechoed at a terminal), never from the command line, where `ps` and shell history
 * would show it. A login link
 * carries its token in the URL's fragment, which browsers never send in a request line, so no
 * proxy or access log records it; the page posts it to /backend-api/api/app/session/link.
 */
import type { Readable } from "node:stream";
import type { Queryable } from "../../db/request-transaction.ts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../auth/password.ts";
import { newToken, tokenHash } from "../../auth/session-token.ts";
import type { Env } from "../../config/env.ts";
import { insertLoginLink, setPasswordHash } from "../../db/queries/sessions.ts";

export const LOGIN_LINK_VALID_SECONDS = 15 * 60;

/** The first line of the stream (without its line ending); the whole stream when it has no newline. */
export async function readFirstLine(input: Readable): Promise<string> {
  let text = "";
  for await (const chunk of input) {
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    const end = text.indexOf("\n");
    if (end >= 0) return text.slice(0, end).replace(/\r$/, "");
    if (text.length > PASSWORD_MAX_LENGTH * 4) break;
  }
  return text.replace(/\r$/, "");
}

/** A line typed at a terminal, not echoed (Enter ends it, Backspace takes a character back, Ctrl-C cancels). */
export function readHiddenLine(
  input: NodeJS.ReadStream,
  output: NodeJS.WritableStream,
  prompt: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let line = "";
    const finish = (error?: Error) => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      output.write("\n");
      if (error) reject(error);
      else resolve(line);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n" || char === "\u0004") return finish();
        if (char === "\u0003") return finish(new Error("cancelled: no password set"));
        if (char === "\u007f" || char === "\b") line = [...line].slice(0, -1).join("");
        else line += char;
      }
    };
    // echo off before the prompt shows, so that nothing typed after it is ever echoed
    input.setRawMode(true);
    output.write(prompt);
    input.setEncoding("utf8");
    input.on("data", onData);
    input.resume();
  });
}

/** why the password is refused, or null when it is acceptable */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `the password needs at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `the password has at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}

/** Sets the password and ends the user's sessions; resolves to how many were ended. */
export async function setPassword(db: Queryable, userId: string, password: string): Promise<number> {
  return setPasswordHash(db, userId, await hashPassword(password));
}

/** Where the web app is reached: PUBLIC_BASE_URL, or this machine's PORT. */
export function appUrl(env: Pick<Env, "PUBLIC_BASE_URL" | "PORT">): string {
  return env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`;
}

/** A new one-time sign-in URL for the user, valid LOGIN_LINK_VALID_SECONDS. */
export async function createLoginLink(
  db: Queryable,
  userId: string,
  env: Pick<Env, "PUBLIC_BASE_URL" | "PORT">,
): Promise<string> {
  const token = newToken();
  await insertLoginLink(db, { userId, tokenHash: tokenHash(token)!, validSeconds: LOGIN_LINK_VALID_SECONDS });
  return `${appUrl(env)}/sign-in/link#${token}`;
}
