/** `--tasks a,b` from a command line: the task names a fleet process runs (undefined: all). */
export function parseTaskNames(argv: readonly string[]): string[] | undefined {
  const index = argv.findIndex((arg) => arg === "--tasks" || arg.startsWith("--tasks="));
  if (index === -1) return undefined;
  const arg = argv[index]!;
  const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[index + 1];
  const names = (value ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new Error("--tasks needs a comma-separated list of task names");
  return names;
}
