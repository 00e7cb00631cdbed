/**
 * `npm run -s cli -- <command>`: users, API keys, tasks and the catalogue, as the database owner. Works whether or
 * not the server runs (it joins or starts the embedded cluster, or uses DATABASE_URL).
 *
 *   user create <email> [--empty-library]                prints the user id; the default library
 *                                                        holds the starter library unless
 *                                                        --empty-library
 *   user set-password <email>                            the password from standard input (first
 *                                                        line), at least 10 characters; ends
 *                                                        the user's sessions
 *   user login-link <email>                              prints a one-time sign-in URL for the
 *                                                        web app, valid 15 minutes
 *   library add-starter <email> [--library ID]           adds the starter assemblies the user's
 *                                                        default library (or that one) lacks;
 *                                                        prints what it added, or "nothing to add"
 *   key create <email> [--name NAME] [--scopes s1,s2]    prints the plaintext key, only that
 *   key list <email>                                     name, prefix, created, last used
 *   key revoke <prefix>
 *   workpiece tessellate <workpiece_id> [--linear-deflection MM] [--angular-deflection DEG]
 *                                                        queues a re-mesh, prints the task id
 *   catalogue import <file> --manufacturer NAME          a Fusion 360 tool library into the
 *                                                        external catalogue, upserted by article
 *                                                        number in one transaction; prints the
 *                                                        count, each skipped tool on stderr
 *   features FILE... [--json]                            part understanding (no database): one
 *                                                        JSON line per file (scripts/cli/features.ts)
 *   setup-sheet <project_id> [--pdf] [--paper a4|letter] [--out FILE]
 *                                                        the project's setup sheet, HTML on stdout;
 *                                                        a PDF needs --out or stdout not a terminal
 *
 * Exit status: 0 done, 1 failed (the reason on stderr), 2 usage.
 */
import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import pg from "pg";
import { z } from "zod";
import { generateApiKey, KEY_PREFIX_PATTERN } from "../auth/api-key.ts";
import { isKeyScope, OPERATOR_SCOPES, SCOPES } from "../auth/scopes.ts";
import { readEnv } from "../config/env.ts";
import { openDatabase, type Database } from "../db/open-database.ts";
import { insertApiKey, listApiKeys, revokeApiKey } from "../db/queries/api-keys.ts";
import { manufacturerSpellings } from "../db/queries/catalogue/entries.ts";
import { createTask } from "../db/queries/tasks.ts";
import { addStarterAssemblies, createUser, findUserByEmail, findUserLibrary } from "../db/queries/users.ts";
import { workpieceOwner } from "../db/queries/workpieces.ts";
import { withTransaction, withUserTransaction } from "../db/request-transaction.ts";
import { projectOwner } from "../db/queries/projects.ts";
import { upsertCatalogueEntries } from "../db/seed/catalogue.ts";
import { STANDARD_MANUFACTURER } from "../kernel/tools/catalogue/entry.ts";
import { FusionLibraryError, parseFusionLibrary } from "../kernel/tools/catalogue/fusion-library.ts";
import { isUuid } from "../kernel/tools/uuid.ts";
import { TESSELLATE_TASK_NAME, TESSELLATE_WORKER_TASK, TessellatePayload } from "../contracts/tasks.ts";
import { runFeaturesCommand } from "./cli/features.ts";
import { writeSetupSheet } from "./cli/setup-sheet.ts";
import { createLoginLink, passwordProblem, readFirstLine, readHiddenLine, setPassword } from "./cli/sign-in.ts";

class UsageError extends Error {}
class CommandError extends Error {}

const USAGE = `usage:
  cli user create <email> [--empty-library]
  cli user set-password <email>      (the password on standard input)
  cli user login-link <email>
  cli library add-starter <email> [--library ID]
  cli key create <email> [--name NAME] [--scopes s1,s2]
  cli key list <email>
  cli key revoke <prefix>
  cli workpiece tessellate <workpiece_id> [--linear-deflection MM] [--angular-deflection DEG]
  cli catalogue import <file> --manufacturer NAME
  cli features FILE... [--json]
  cli setup-sheet <project_id> [--pdf] [--paper a4|letter] [--out FILE]`;

interface Options {
  "empty-library"?: boolean;
  library?: string;
  name?: string;
  scopes?: string;
  "linear-deflection"?: string;
  "angular-deflection"?: string;
  manufacturer?: string;
  pdf?: boolean;
  paper?: string;
  out?: string;
}

/** resolves to what to print, or null when the command wrote its output itself */
type Command = (db: pg.Client, args: string[], options: Options) => Promise<string | null>;

const commands: Record<string, Command> = {
  async "user create"(db, [email], options) {
    if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new UsageError("user create needs an email address");
    if (await findUserByEmail(db, email)) throw new CommandError(`a user with the email ${email} exists already`);
    return (await createUser(db, email, { starterLibrary: !options["empty-library"] })).id;
  },

  async "user set-password"(db, [email]) {
    const user = await requireUser(db, email);
    const password = process.stdin.isTTY
      ? await readHiddenLine(process.stdin, process.stderr, `password for ${user.email}: `)
      : await readFirstLine(process.stdin);
    const problem = passwordProblem(password);
    if (problem) throw new CommandError(problem);
    const ended = await setPassword(db, user.id, password);
    return `password set for ${user.email}${ended > 0 ? `; ${ended} session${ended === 1 ? "" : "s"} ended` : ""}`;
  },

  async "user login-link"(db, [email]) {
    const user = await requireUser(db, email);
    return createLoginLink(db, user.id, readEnv());
  },

  async "library add-starter"(db, [email], options) {
    const libraryId = options.library;
    if (libraryId !== undefined && !isUuid(libraryId))
      throw new UsageError(`library add-starter: --library must be a library id (a UUID), not "${libraryId}"`);
    const user = await requireUser(db, email);
    const library = await findUserLibrary(db, user.id, libraryId?.toLowerCase());
    if (!library) {
      throw new CommandError(
        libraryId === undefined
          ? `${email} has no default library: name one with --library ID`
          : `${email} has no library ${libraryId}`,
      );
    }
    const added = await addStarterAssemblies(db, library.id);
    if (added.length === 0) return `nothing to add: ${library.name} (${library.id}) holds every starter assembly`;
    return [
      `added ${added.length} starter ${added.length === 1 ? "assembly" : "assemblies"} to ${library.name} (${library.id}):`,
      ...added.map((a) => `  ${a.id}  ${a.name}`),
    ].join("\n");
  },

  async "key create"(db, [email], options) {
    const user = await requireUser(db, email);
    const scopes =
      options.scopes === undefined
        ? [...SCOPES]
        : options.scopes
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean);
    const unknown = scopes.filter((scope) => !isKeyScope(scope));
    if (unknown.length > 0 || scopes.length === 0) {
      throw new UsageError(
        `unknown scope ${unknown.join(", ") || "(none given)"}; scopes: ${[...SCOPES, ...OPERATOR_SCOPES].join(", ")}`,
      );
    }
    const key = generateApiKey();
    await insertApiKey(db, {
      userId: user.id,
      name: options.name ?? "CLI key",
      prefix: key.prefix,
      hash: key.hash,
      scopes,
    });
    return key.plaintext;
  },

  async "key list"(db, [email]) {
    const user = await requireUser(db, email);
    const keys = await listApiKeys(db, user.id);
    const rows = keys.map((k) => [
      k.name,
      k.key_prefix,
      k.created_at.toISOString(),
      k.last_used_at?.toISOString() ?? "never",
      k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : "active",
    ]);
    return formatTable(["NAME", "PREFIX", "CREATED", "LAST USED", "STATE"], rows);
  },

  async "key revoke"(db, [prefix]) {
    if (!prefix || !KEY_PREFIX_PATTERN.test(prefix))
      throw new UsageError("key revoke needs a key prefix (the part before _live_)");
    if (!(await revokeApiKey(db, prefix))) throw new CommandError(`no active key has the prefix ${prefix}`);
    return `revoked ${prefix}`;
  },

  async "workpiece tessellate"(db, [workpieceId], options) {
    const payload = TessellatePayload.safeParse({
      workpiece_id: workpieceId,
      ...(options["linear-deflection"] !== undefined
        ? { linear_deflection_mm: Number(options["linear-deflection"]) }
        : {}),
      ...(options["angular-deflection"] !== undefined
        ? { angular_deflection_deg: Number(options["angular-deflection"]) }
        : {}),
    });
    if (!payload.success) throw new UsageError(`workpiece tessellate: ${z.prettifyError(payload.error)}`);
    const owner = await workpieceOwner(db, payload.data.workpiece_id);
    if (!owner) throw new CommandError(`no live project has the workpiece ${payload.data.workpiece_id}`);
    // the task belongs to the workpiece's owner, who sees it in GET /tasks/by-project
    const task = await withUserTransaction(db, owner.userId, () =>
      createTask(db, {
        projectId: owner.projectId,
        taskName: TESSELLATE_TASK_NAME,
        workerTask: TESSELLATE_WORKER_TASK,
        payload: payload.data,
      }),
    );
    return task.id;
  },

  async "catalogue import"(db, [file], options) {
    if (!file)
      throw new UsageError("catalogue import needs the file: a Fusion 360 tool library (.json or .tools content)");
    const given = options.manufacturer?.trim();
    if (!given)
      throw new UsageError("catalogue import needs --manufacturer NAME: the maker the library's tools are filed under");
    if (given.length > 100) throw new UsageError("catalogue import: --manufacturer is at most 100 characters");
    if (given.toLowerCase() === STANDARD_MANUFACTURER.toLowerCase()) {
      throw new UsageError(
        `catalogue import: "${STANDARD_MANUFACTURER}" is the seeded standard range; name the library's own maker`,
      );
    }
    let text: string;
    try {
      text = await fs.readFile(file, "utf8");
    } catch (error) {
      throw new CommandError(`cannot read ${file}: ${(error as Error).message}`);
    }
    // a maker the catalogue has already keeps the spelling it has: the API matches makers in
    // any letter case, so a second spelling would make one maker's articles appear twice
    const stored = await manufacturerSpellings(db, given);
    const manufacturer = stored.includes(given) ? given : (stored[0] ?? given);
    if (manufacturer !== given) process.stderr.write(`filing under the stored spelling "${manufacturer}"\n`);
    let library;
    try {
      library = parseFusionLibrary(text, { manufacturer });
    } catch (error) {
      if (error instanceof FusionLibraryError) throw new CommandError(`${file}: ${error.message}`);
      throw error;
    }
    for (const { index, reason } of library.skipped) process.stderr.write(`skipped tool ${index}: ${reason}\n`);
    const entries = library.entries;
    await withTransaction(db, () => upsertCatalogueEntries(db, entries, "import"));
    return `imported ${entries.length} entries for ${manufacturer}`;
  },
};

/** commands of one word, their arguments after it */
const singleCommands: Record<string, Command> = {
  async "setup-sheet"(db, [projectId, ...extra], options) {
    if (!projectId || !isUuid(projectId) || extra.length > 0)
      throw new UsageError("setup-sheet needs one project id (a UUID)");
    const paper = options.paper ?? "a4";
    if (paper !== "a4" && paper !== "letter")
      throw new UsageError(`setup-sheet: --paper is a4 or letter, not "${paper}"`);
    if (options.pdf && options.out === undefined && process.stdout.isTTY)
      throw new UsageError("setup-sheet --pdf writes a binary file: give --out FILE, or redirect stdout");
    const owner = await projectOwner(db, projectId.toLowerCase());
    if (!owner) throw new CommandError(`no live project has the id ${projectId}`);
    // the project's current job without a plan, and the like, fail with the API's message
    return writeSetupSheet(db, {
      projectId: projectId.toLowerCase(),
      userId: owner.userId,
      format: options.pdf ? "pdf" : "html",
      paper,
      out: options.out ?? null,
    });
  },
};

async function requireUser(db: pg.Client, email: string | undefined) {
  if (!email) throw new UsageError("an email address is needed");
  const user = await findUserByEmail(db, email);
  if (!user) throw new CommandError(`no user has the email ${email}`);
  return user;
}

function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

async function main(argv: string[]): Promise<number> {
  // geometry only: no database, OCCT loaded once for all the files
  if (argv[0] === "features") return runFeaturesCommand(argv.slice(1), process.stdout, process.stderr);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "empty-library": { type: "boolean" },
        library: { type: "string" },
        name: { type: "string" },
        scopes: { type: "string" },
        "linear-deflection": { type: "string" },
        "angular-deflection": { type: "string" },
        manufacturer: { type: "string" },
        pdf: { type: "boolean" },
        paper: { type: "string" },
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [group, verb, ...rest] = parsed.positionals;
  const single = group === undefined ? undefined : singleCommands[group];
  const command = commands[`${group} ${verb}`] ?? single;
  const args = command === single ? parsed.positionals.slice(1) : rest;
  if (parsed.values.help || !command) {
    process.stderr.write(`${USAGE}\n`);
    return parsed.values.help ? 0 : 2;
  }
  let database: Database | undefined;
  let db: pg.Client | undefined;
  try {
    database = await openDatabase(readEnv());
    db = new pg.Client({ connectionString: database.ownerUrl });
    await db.connect();
    const output = await command(db, args, parsed.values);
    if (output !== null) process.stdout.write(`${output}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    // a message, never a stack: startup failures (database unreachable) included
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await db?.end().catch(() => {});
    await database?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
