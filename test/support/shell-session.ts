/**
 * One bash for a sequence of scripts, so variables set by one (`KEY=$(…)`) are there for the
 * next, as in a terminal. Each script is sourced from a file of its own with its output sent to
 * files; a marker line on bash's own stdout (kept as fd 3) says it ended, with its status. The
 * shell runs with errexit and pipefail: a command that fails anywhere in a script ends the
 * session there, and its status is the script's (a failure before the last line would
 * otherwise pass unseen).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface ShellRun {
  status: number;
  stdout: string;
  stderr: string;
}

export class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-shell-"));
  private pending = "";
  private waiting: { resolve(status: number): void; reject(error: Error): void } | null = null;
  private count = 0;

  constructor(options: { cwd: string; env: Record<string, string> }) {
    this.bash = spawn("bash", ["--norc", "--noprofile"], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.bash.stdout.setEncoding("utf8");
    this.bash.stdout.on("data", (chunk: string) => {
      this.pending += chunk;
      const match = /__swarf_step_done (\d+)\n/.exec(this.pending);
      if (match && this.waiting) {
        this.pending = this.pending.slice((match.index ?? 0) + match[0].length);
        const { resolve } = this.waiting;
        this.waiting = null;
        resolve(Number(match[1]));
      }
    });
    this.bash.on("close", (code) => this.waiting?.reject(new Error(`bash exited (${code}) in the middle of a step`)));
    this.bash.stdin.write(`exec 3>&1\nset -o pipefail -o errexit\ntrap 'echo "__swarf_step_done $?" >&3' EXIT\n`);
  }

  /** Runs the script in this shell; resolves when it ended. */
  async run(script: string): Promise<ShellRun> {
    this.count += 1;
    const n = this.count;
    const file = path.join(this.dir, `step-${n}.sh`);
    const out = path.join(this.dir, `step-${n}.out`);
    const err = path.join(this.dir, `step-${n}.err`);
    fs.writeFileSync(file, `${script}\n`);
    const ended = new Promise<number>((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
    this.bash.stdin.write(
      `source ${JSON.stringify(file)} > ${JSON.stringify(out)} 2> ${JSON.stringify(err)} < /dev/null; echo "__swarf_step_done $?" >&3\n`,
    );
    const status = await ended;
    return { status, stdout: fs.readFileSync(out, "utf8"), stderr: fs.readFileSync(err, "utf8") };
  }

  close(): void {
    this.bash.stdin.end();
    this.bash.kill();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
