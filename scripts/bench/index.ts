/**
 * `npm run bench` entrypoint. The service logs at info by default, which would bury the
 * tables under migration and worker lines: the benchmark (and its children, which inherit
 * the environment) log at warn unless LOG_LEVEL says otherwise.
 */
import { runBenchmark } from "./entrypoint.ts";

process.env.LOG_LEVEL ??= "warn";
await runBenchmark(async () => (await import("./main.ts")).main);
