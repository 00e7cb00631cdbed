/**
 * One upload of a part through POST /projects/{id}/workpiece, timed in this process from the
 * request's start to the last byte of the response, with the geometry thread's steps from the
 * Server-Timing header.
 */
import { z } from "zod";
import { API_BASE_PATH } from "../../../http/base-path.ts";
import { fileUpload } from "../../../test/support/multipart.ts";

const Vec3 = z.tuple([z.number(), z.number(), z.number()]);

/** The fields of the 201 answer the benchmark uses. */
const Uploaded = z.object({
  format: z.string(),
  units_read: z.string(),
  bbox: z.object({ min: Vec3, max: Vec3, size: Vec3 }),
  volume_mm3: z.number().nullable(),
  face_count: z.number().int(),
  triangle_count: z.number().int(),
  closed_solid: z.boolean(),
  warnings: z.array(z.object({ code: z.string() })),
});
export type UploadedWorkpiece = z.infer<typeof Uploaded>;

export interface UploadSample {
  /** request start to the response's last byte */
  totalMs: number;
  /** request start to the response headers */
  headersMs: number;
  /** the geometry thread's steps (Server-Timing) */
  steps: Record<string, number>;
  bodyBytes: number;
}

export interface PreparedUpload {
  body: Buffer;
  contentType: string;
}

export function prepareUpload(data: Buffer, filename: string): PreparedUpload {
  return fileUpload(data, filename);
}

/** `read;dur=812.4, mesh;dur=101.2` -> { read: 812.4, mesh: 101.2 } (entries without dur are left out) */
export function parseServerTiming(header: string | null): Record<string, number> {
  const steps: Record<string, number> = {};
  if (!header) return steps;
  for (const entry of header.split(",")) {
    const [name, ...params] = entry.trim().split(";");
    if (!name) continue;
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key?.trim() === "dur" && value !== undefined && Number.isFinite(Number(value)))
        steps[name.trim()] = Number(value);
    }
  }
  return steps;
}

export async function uploadOnce(
  origin: string,
  projectId: string,
  apiKey: string,
  upload: PreparedUpload,
  signal: AbortSignal,
): Promise<{ sample: UploadSample; workpiece: UploadedWorkpiece }> {
  const url = `${origin}${API_BASE_PATH}/projects/${projectId}/workpiece`;
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "X-API-Key": apiKey, "Content-Type": upload.contentType },
    body: upload.body,
    signal,
  });
  const headersAt = performance.now();
  const text = await response.text();
  const finished = performance.now();
  if (response.status !== 201) throw new Error(`POST ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  return {
    sample: {
      totalMs: finished - started,
      headersMs: headersAt - started,
      steps: parseServerTiming(response.headers.get("server-timing")),
      bodyBytes: upload.body.length,
    },
    workpiece: Uploaded.parse(JSON.parse(text)),
  };
}
