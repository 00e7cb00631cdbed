/**
 * `npm run bench` entrypoint. The service logs at info by default, which would bury the
 * tables under migration and worker lines: the benchmark (and its children, which inherit
 * the environment) log at warn unless LOG_LEVEL says otherwise. Set before anything reads it,
 * hence the dynamic import.
 */
process.env.LOG_LEVEL ??= "warn";

const { main } = await import("./main.ts");
try {
  process.exitCode = await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}
