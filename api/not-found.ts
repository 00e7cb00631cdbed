/**
 * The last handler: a path no route has is 404 route_not_found; a path that exists under
 * other methods is 405 method_not_allowed with an Allow header.
 */
import type { RequestHandler } from "express";
import { match } from "path-to-regexp";
import { HttpError } from "../http/errors/index.ts";
import { API_BASE_PATH } from "../http/base-path.ts";
import { expressPath, type RouteSpec } from "./route.ts";

export function notFoundHandler(routes: readonly RouteSpec[]): RequestHandler {
  const matchers = routes.map((route) => ({
    method: route.method.toUpperCase(),
    matches: match(`${API_BASE_PATH}${expressPath(route.path)}`, { decode: false }),
  }));
  return (req, _res, next) => {
    const allowed = [...new Set(matchers.filter((m) => m.matches(req.path) !== false).map((m) => m.method))];
    if (allowed.length > 0) {
      next(
        new HttpError(
          405,
          "method_not_allowed",
          `${req.method} is not allowed here; use ${allowed.join(", ")}`,
          { allowed },
          {
            Allow: allowed.join(", "),
          },
        ),
      );
      return;
    }
    next(
      new HttpError(404, "route_not_found", `no route ${req.method} ${req.path}`, {
        method: req.method,
        path: req.path,
      }),
    );
  };
}
