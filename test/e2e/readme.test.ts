/**
 * The README's walk-through, run as written against a fresh `npm start` (its own embedded
 * PostgreSQL, a new data directory), one step after another in one bash, so the README cannot
 * drift from what Swarf does. The only change made to the text: `localhost:8080` becomes the
 * port this server got (the suites run in parallel).
 *
 * Each step must exit 0, and what it prints must carry every field the README shows it
 * answering (and the status, where the command prints one). Every setup's program is downloaded
 * with --fail-with-body, so a setup without one fails its step; at the end, the plan's
 * completeness must be the one the README shows.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { repoRoot } from "../../config/env.ts";
import { findFreePort } from "../support/ports.ts";
import { startServer, stopServer, type StartedServer } from "../support/server-process.ts";
import {
  emptyListsShown,
  fieldsShown,
  statusShown,
  walkthroughSteps,
  type WalkthroughStep,
} from "../support/readme-walkthrough.ts";
import { ShellSession } from "../support/shell-session.ts";

const README = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");

describe("running a walk-through", () => {
  it("cuts the README's blocks into steps at the answers they show", () => {
    const steps = walkthroughSteps(
      [
        "intro",
        "<!-- walk-through -->",
        "```sh",
        "A=1",
        "echo '{\"a\": 1}'",
        '# -> 201 {"a": …,',
        '#     "b": 2}',
        '#    or 409 {"c": 3}',
        "echo done",
        "```",
        "<!-- end of walk-through -->",
      ].join("\n"),
    );
    assert.deepEqual(
      steps.map((s) => ({ script: s.script, shows: s.shows })),
      [
        { script: "A=1\necho '{\"a\": 1}'", shows: '201 {"a": …, "b": 2}' },
        { script: "echo done", shows: null },
      ],
    );
    assert.deepEqual(fieldsShown(steps[0]!.shows!), ["a", "b"]);
    assert.deepEqual(emptyListsShown('{"warnings": [], "items": [1], "reasons":[]}'), ["warnings", "reasons"]);
    assert.equal(statusShown(steps[0]!.shows!), 201);
  });

  it("keeps variables from step to step and fails a step on any failing command, not only its last", async () => {
    const shell = new ShellSession({ cwd: repoRoot, env: { PATH: process.env.PATH ?? "" } });
    try {
      assert.deepEqual(await shell.run("X=42"), { status: 0, stdout: "", stderr: "" });
      assert.equal((await shell.run('echo "$X"')).stdout, "42\n");
      const failed = await shell.run("false\necho after");
      assert.equal(failed.status, 1);
      assert.equal(failed.stdout, "");
    } finally {
      shell.close();
    }
  });
});

describe("the README's walk-through", () => {
  let server: StartedServer;
  let dataDir: string;
  let shell: ShellSession;
  let env: Record<string, string>;
  const leftBefore = new Set(fs.readdirSync(repoRoot));

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-readme-"));
    fs.chmodSync(dataDir, 0o755);
    env = { SWARF_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await findFreePort()), LOG_LEVEL: "warn" };
    server = await startServer({ ...env, GEOMETRY_WORKERS: "1" });
    const { DATABASE_URL: _own, ...base } = process.env;
    shell = new ShellSession({ cwd: repoRoot, env: { ...base, ...env } as Record<string, string> });
  });

  after(async () => {
    shell?.close();
    if (server) assert.equal(await stopServer(server), 0, server.stderr().slice(-3000));
    fs.rmSync(dataDir, { recursive: true, force: true });
    // what the walk-through saved in the working directory (G-code, the job file, exports)
    for (const name of fs.readdirSync(repoRoot))
      if (!leftBefore.has(name)) fs.rmSync(path.join(repoRoot, name), { recursive: true, force: true });
  });

  it("runs every step as written, and each answers what the README shows", async () => {
    const steps = walkthroughSteps(README);
    assert.ok(steps.length >= 20, `only ${steps.length} steps found`);
    const timings: string[] = [];
    for (const step of steps) {
      const script = step.script.replaceAll("localhost:8080", `localhost:${server.port}`);
      const started = performance.now();
      const ran = await shell.run(script);
      timings.push(
        `${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  README line ${step.line}: ${step.script.split("\n")[0]!.slice(0, 90)}`,
      );
      const where = `README line ${step.line}:\n${step.script}\n--- stdout\n${ran.stdout.slice(0, 4000)}\n--- stderr\n${ran.stderr.slice(-4000)}`;
      assert.equal(
        ran.status,
        0,
        `the step failed (exit ${ran.status}) at ${where}\n--- the server's log\n${server.stderr().slice(-4000)}`,
      );
      if (step.shows !== null) checkShown(step, ran.stdout, where);
    }
    console.log(`the walk-through's steps:\n${timings.join("\n")}`);

    // the plan's completeness is what the README says it is (its reasons are in the task's result)
    const vars = await shell.run('printf "%s\\n%s\\n%s\\n" "$KEY" "$API" "$TASK"');
    const [key, api, task] = vars.stdout.trim().split("\n") as [string, string, string];
    const taskRecord = (await (await fetch(`${api}/tasks/${task}`, { headers: { "X-API-Key": key } })).json()) as {
      status: string;
      result: { completeness: { status: string; reasons: unknown[] }; setups: unknown[] };
    };
    assert.equal(taskRecord.status, "success");
    const shown = steps
      .map((step) => /"completeness": "(\w+)"/.exec(step.shows ?? "")?.[1])
      .find((value) => value !== undefined);
    assert.equal(taskRecord.result.completeness.status, shown, JSON.stringify(taskRecord.result.completeness.reasons));
  });
});

/** Every field the README shows is in the answer, and the status where the command printed one. */
function checkShown(step: WalkthroughStep, stdout: string, where: string): void {
  const shows = step.shows as string;
  const status = statusShown(shows);
  const statusLine = /^HTTP\/[\d.]+ (\d{3})/m.exec(stdout);
  if (status !== null && statusLine) assert.equal(Number(statusLine[1]), status, `status at ${where}`);
  const answer = stdout.replace(/\s+/g, "");
  for (const field of fieldsShown(shows)) {
    assert.ok(answer.includes(`"${field}":`), `the README shows "${field}" but the answer has none, at ${where}`);
  }
  // an empty list shown (no warnings, no reasons) is a claim about the answer, not only its shape
  for (const field of emptyListsShown(shows)) {
    assert.ok(
      answer.includes(`"${field}":[]`),
      `the README shows "${field}": [] but the answer's is not empty, at ${where}`,
    );
  }
  if (status === null || status < 400)
    assert.ok(!answer.includes('"detail":{"code"'), `an error where the README shows success, at ${where}`);
}
