/**
 * The answer of GET /healthz, the API's and a worker's alike: 200 `{"status": "ok", checks}`
 * when every check is ok, else 503 `{"status": "unavailable", checks}` naming the ones that are not.
 */
import type { Response } from "express";

export type CheckState = "ok" | "starting" | "failing";

export function sendHealth(res: Response, checks: Record<string, CheckState>): void {
  const ready = Object.values(checks).every((state) => state === "ok");
  res.status(ready ? 200 : 503).json({ status: ready ? "ok" : "unavailable", checks });
}
