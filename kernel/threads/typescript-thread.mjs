// A worker thread running a TypeScript module: worker threads start from a JavaScript file and
// cannot use the tsx loader of their parent, so tsx loads the module named in
// workerData.threadModule from here. Its default export, if any, is this module's (piscina
// calls it for every task).
import { workerData } from "node:worker_threads";
import { tsImport } from "tsx/esm/api";

const threadModule = await tsImport(workerData.threadModule, import.meta.url);
export default threadModule.default;
