/**
 * Benchmark child: the baseline. Express 5 with the same app settings as ours (no ETag, no
 * X-Powered-By) and one GET route on the same path that sends the same JSON body, with no
 * middleware and no database.
 */
import express from "express";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { failStartup, onShutdown, serveForParent } from "./child-runtime.ts";
import { CHILD_ENV, requiredEnv } from "./protocol.ts";

try {
  const body: unknown = JSON.parse(requiredEnv(CHILD_ENV.bareBody));
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.get(`${API_BASE_PATH}/projects/:project_id`, (_req, res) => {
    res.json(body);
  });
  onShutdown(await serveForParent(app));
} catch (error) {
  failStartup(error);
}
