/**
 * The structure the build enforces (`npm run typecheck` runs it after tsc):
 * - no import cycles: a module is initialised before anything that imports it;
 * - the kernel is pure: geometry and CAM without a database, HTTP, queue or the process's
 *   configuration, so every part of it runs from a fixture file with no server;
 * - the shared rooms sit below those that use them: the HTTP kit (http/) below the API, the
 *   worker process and the metrics; the task contracts (contracts/) below the API, db/ and tasks/.
 * Folder cycles are checked by .dependency-cruiser-folders.cjs.
 */
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-import-cycles",
      comment: "a cycle leaves one module half-initialised when another reads it (a TDZ ReferenceError at load)",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "kernel-is-pure",
      comment:
        "kernel/ imports only kernel/, npm libraries and node builtins: no api, db, tasks, workers, storage, webhooks, config",
      severity: "error",
      from: { path: "^kernel/", pathNot: "\\.test\\.ts$" },
      to: {
        path: "^(api|auth|config|contracts|db|geometry-pool|http|metrics|scripts|storage|tasks|test|webhooks|workers)/",
      },
    },
    {
      name: "kernel-tests-need-no-server",
      comment: "a kernel test runs from fixture files: test/support's helpers, never the api, database or queue",
      severity: "error",
      from: { path: "^kernel/.*\\.test\\.ts$" },
      to: {
        path: "^(api|auth|config|contracts|db|geometry-pool|http|metrics|scripts|storage|tasks|webhooks|workers)/",
      },
    },
    {
      name: "kernel-has-no-server-libraries",
      comment: "no database driver, HTTP framework or job queue in the kernel",
      severity: "error",
      from: { path: "^kernel/" },
      to: {
        dependencyTypes: ["npm", "npm-dev"],
        path: "node_modules/(pg|express|graphile-worker|postgraphile|multer|node-cron)/",
      },
    },
    {
      name: "http-kit-is-below-its-servers",
      comment: "http/ is what the API, a worker's port and the metrics share: it imports none of them",
      severity: "error",
      from: { path: "^http/", pathNot: "\\.test\\.ts$" },
      to: { path: "^(api|geometry-pool|metrics|storage|tasks|webhooks|workers)/" },
    },
    {
      name: "contracts-are-below-their-parties",
      comment: "a task's contract is read by the API, db/queries and the task: it imports none of them",
      severity: "error",
      from: { path: "^contracts/" },
      to: { path: "^(api|db|geometry-pool|http|metrics|storage|tasks|webhooks|workers)/" },
    },
    {
      name: "db-is-below-tasks-and-api",
      comment: "tasks/ and api/ call db/; what a query needs of a task (its name, its payload) is in contracts/",
      severity: "error",
      from: { path: "^db/", pathNot: "\\.test\\.ts$" },
      to: { path: "^(api|tasks|workers)/" },
    },
    {
      name: "routes-do-not-import-routes",
      comment: "what two route files share lives in api/schemas or api/routes/shared, not in one of them",
      severity: "error",
      from: { path: "^api/routes/[^/]+\\.ts$", pathNot: "^api/routes/index\\.ts$" },
      to: { path: "^api/routes/[^/]+\\.ts$" },
    },
    {
      name: "web-app-is-a-client",
      comment:
        "web/ is the browser's: it talks to the server over HTTP only, and shares nothing but contracts/'s types",
      severity: "error",
      from: { path: "^web/" },
      to: {
        path: "^(api|auth|config|db|geometry-pool|http|kernel|metrics|scripts|storage|tasks|test|webhooks|workers)/",
      },
    },
    {
      name: "server-does-not-import-the-web-app",
      comment: "the API serves web/dist's built files; no server module imports the browser's source",
      severity: "error",
      from: {
        path: "^(api|auth|config|contracts|db|geometry-pool|http|kernel|metrics|scripts|storage|tasks|webhooks|workers)/",
      },
      to: { path: "^web/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^dist/", "^web/dist/"] },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] },
  },
};
