/** The viewer's data routes (docs/web-app.md, The viewer's data): the simulated stock and the recognised features. */
import { APP_API } from "./base.ts";
import { request, refusal } from "./client.ts";
import { decodeStockField, type StockField } from "./viewer-stock.ts";

export interface ViewerFeature {
  id: number;
  class: string;
  /** the part glb's _FACE_IDs */
  faces: number[];
  access_direction: [number, number, number] | null;
  depth_mm: number | null;
  width_mm: number | null;
  corner_radius_mm: number | null;
  hole: {
    diameter_mm: number;
    depth_mm: number;
    through: boolean;
    counterbore_diameter_mm: number | null;
    countersink_diameter_mm: number | null;
  } | null;
  /** indexes of the setups whose operations machine it */
  setups: number[];
}

export const readFeatures = (projectId: string) =>
  request<{ job_id: string; features: ViewerFeature[] }>(
    "GET",
    `${APP_API}/projects/${encodeURIComponent(projectId)}/features`,
  );

/** The setup's stock after operation `after` (-1: before its first; undefined: after its last). */
export async function readStock(projectId: string, setup: number, after?: number): Promise<StockField> {
  const query = after === undefined ? "" : `?after=${after}`;
  const url = `${APP_API}/projects/${encodeURIComponent(projectId)}/setups/${setup}/stock${query}`;
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw refusal(url, response.status, await response.text());
  return decodeStockField(await response.arrayBuffer());
}
