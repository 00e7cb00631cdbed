// piscina starts its threads from a JavaScript file; tsx loads the TypeScript thread module
// named in workerData from here (a worker thread cannot use the tsx loader of its parent).
import { workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

const threadModule = await tsImport(workerData.threadModule, import.meta.url);
export default threadModule.default;
