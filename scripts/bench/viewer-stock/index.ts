/** `npm run bench:viewer-stock` entrypoint; logs at warn unless LOG_LEVEL says otherwise, as `npm run bench`. */
import { runBenchmark } from "../entrypoint.ts";

process.env.LOG_LEVEL ??= "warn";
await runBenchmark(async () => (await import("./main.ts")).main);
