/**
 * `cli user set-password` and `cli user login-link` as an operator runs them: a child process
 * against the test database, the result used to sign in through the real API.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../../config/env.ts";
import { APP_ROUTES_PATH } from "../../http/base-path.ts";
import { SESSION_COOKIE } from "../../auth/session-token.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { setCookieValue } from "../support/sessions.ts";
import { createTestUser } from "../support/users.ts";

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let db: TestDatabase;
let api: TestApi;

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db);
});
after(async () => {
  await api.close();
  await db.drop();
});

function cli(args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/cli.ts", ...args], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: db.ownerUrl, LOG_LEVEL: "info", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    // a hang guard, not a speed check
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.stdin ?? "");
  });
}

/**
 * `cli user set-password <email>` at a terminal: util-linux's `script` runs it on a
 * pseudo-terminal, passes what is written to its stdin on as keystrokes and copies what the
 * terminal shows to its stdout. Chosen over python3's pty module because it is one command,
 * not a program of our own to keep; the command line is fixed and takes the email from the
 * environment, so nothing needs quoting for the shell `script -c` runs. `typed` is sent once
 * the prompt is on the screen.
 */
function setPasswordAtTerminal(email: string, typed: string): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolve, reject) => {
    const command = '"$SWARF_NODE" --import tsx scripts/cli.ts user set-password "$SWARF_EMAIL"';
    const child = spawn("script", ["--quiet", "--return", "--command", command, "/dev/null"], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: db.ownerUrl, SWARF_NODE: process.execPath, SWARF_EMAIL: email },
      stdio: ["pipe", "pipe", "inherit"],
    });
    let screen = "";
    let sent = false;
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      screen += chunk;
      if (!sent && screen.includes(`password for ${email}: `)) {
        sent = true;
        child.stdin.write(typed);
      }
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

function signIn(email: string, password: string) {
  return api.request<{ user: { id: string } }>("POST", `${APP_ROUTES_PATH}/session`, { body: { email, password } });
}

describe("cli user set-password and login-link", () => {
  it("sets a password from standard input's first line; the user signs in with it", async () => {
    const user = await createTestUser(db.owner, "cli");
    const res = await cli(["user", "set-password", user.email], {
      stdin: "a long enough secret\nignored second line\n",
    });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stdout, `password set for ${user.email}\n`);
    const { rows } = await db.owner.query<{ password_hash: string }>(
      "select password_hash from app_private.user_passwords where user_id = $1",
      [user.id],
    );
    assert.match(rows[0]?.password_hash ?? "", /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    assert.ok(!rows[0]?.password_hash.includes("a long enough secret"));

    const signedIn = await signIn(user.email, "a long enough secret");
    assert.equal(signedIn.status, 200);
    assert.equal(signedIn.body.user.id, user.id);
    assert.equal((await signIn(user.email, "ignored second line")).status, 401);

    // a new password replaces the old one and ends the sessions signed in with it
    const cookie = `${SESSION_COOKIE}=${setCookieValue(signedIn)}`;
    const session = `${APP_ROUTES_PATH}/session`;
    assert.equal((await api.request("GET", session, { headers: { Cookie: cookie } })).status, 200);
    const again = await cli(["user", "set-password", user.email], { stdin: "another password here" });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, `password set for ${user.email}; 1 session ended\n`);
    assert.equal((await api.request("GET", session, { headers: { Cookie: cookie } })).status, 401);
    assert.equal((await signIn(user.email, "a long enough secret")).status, 401);
    assert.equal((await signIn(user.email, "another password here")).status, 200);
  });

  it("at a terminal, reads the password unechoed and sets it", async () => {
    const user = await createTestUser(db.owner, "tty");
    // Backspace takes the X back; Enter at a terminal in raw mode is a carriage return
    const { code, screen } = await setPasswordAtTerminal(user.email, "typed at a terminalX\u007f\r");
    assert.equal(code, 0, screen);
    assert.ok(screen.includes(`password for ${user.email}: `), screen);
    assert.ok(screen.includes(`password set for ${user.email}`), screen);
    assert.ok(!screen.includes("typed") && !screen.includes("terminal") && !screen.includes("*"), screen);

    assert.equal((await signIn(user.email, "typed at a terminal")).status, 200);
    assert.equal((await signIn(user.email, "typed at a terminalX")).status, 401);
  });

  it("refuses a short password, an unknown user and a missing email, changing nothing", async () => {
    const user = await createTestUser(db.owner, "short");
    const short = await cli(["user", "set-password", user.email], { stdin: "123456789\n" });
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 10 characters/);
    const empty = await cli(["user", "set-password", user.email]);
    assert.equal(empty.code, 1);
    const { rows } = await db.owner.query("select 1 from app_private.user_passwords where user_id = $1", [user.id]);
    assert.equal(rows.length, 0);

    const unknown = await cli(["user", "set-password", "nobody@example.com"], { stdin: "long enough password\n" });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no user has the email nobody@example.com/);
    assert.equal((await cli(["user", "set-password"])).code, 2);
    assert.equal((await cli(["user", "login-link", "nobody@example.com"])).code, 1);
  });

  it("prints a login link under PUBLIC_BASE_URL that signs in once", async () => {
    const user = await createTestUser(db.owner, "link");
    const res = await cli(["user", "login-link", user.email], { env: { PUBLIC_BASE_URL: api.origin } });
    assert.equal(res.code, 0, res.stderr);
    const match = new RegExp(`^${api.origin}/sign-in/link#([A-Za-z0-9_-]{43})\\n$`).exec(res.stdout);
    assert.ok(match?.[1], res.stdout);
    const link = `${APP_ROUTES_PATH}/session/link`;
    const first = await api.request<{ user: { id: string } }>("POST", link, { body: { token: match[1] } });
    assert.equal(first.status, 200);
    assert.equal(first.body.user.id, user.id);
    assert.equal((await api.request("POST", link, { body: { token: match[1] } })).status, 401);

    const local = await cli(["user", "login-link", user.email], { env: { PORT: "9123" } });
    assert.equal(local.code, 0, local.stderr);
    assert.match(local.stdout, /^http:\/\/localhost:9123\/sign-in\/link#[A-Za-z0-9_-]{43}\n$/);
  });
});
