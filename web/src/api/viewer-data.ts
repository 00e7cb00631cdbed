/** The viewer's data routes (docs/web-app.md, The viewer's data): the simulated stock and the recognised features. */
import type { ViewerFeatures } from "../../../contracts/viewer.ts";
import { APP_API } from "./base.ts";
import { request, refusal } from "./client.ts";
import { decodeStockField, type StockField } from "./viewer-stock.ts";

export const readFeatures = (projectId: string) =>
  request<ViewerFeatures>("GET", `${APP_API}/projects/${encodeURIComponent(projectId)}/features`);

/** The setup's stock after operation `after` (-1: before its first; undefined: after its last). */
export async function readStock(projectId: string, setup: number, after?: number): Promise<StockField> {
  const query = after === undefined ? "" : `?after=${after}`;
  const url = `${APP_API}/projects/${encodeURIComponent(projectId)}/setups/${setup}/stock${query}`;
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw refusal(url, response.status, await response.text());
  return decodeStockField(await response.arrayBuffer());
}
