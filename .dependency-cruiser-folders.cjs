/**
 * The folders' structure (`npm run check:structure` runs it after .dependency-cruiser.cjs): no
 * two folders import each other, directly or through others. Tests are left out, since a test
 * drives its module from above (a task's test starts a worker runner). The kernel's own
 * subfolders are held to the same rule.
 */
const base = require("./.dependency-cruiser.cjs");

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-folder-cycles",
      comment: "a folder that imports a folder importing it has no place in the layers: move what both need below both",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    ...base.options,
    // our folders only: node's `http` module is not the http/ folder
    includeOnly:
      "^(api|auth|config|contracts|db|geometry-pool|http|kernel|metrics|scripts|storage|tasks|webhooks|workers)/",
    exclude: { path: ["^dist/", "\\.test\\.ts$", "(^|/)test-support\\.ts$"] },
  },
};
