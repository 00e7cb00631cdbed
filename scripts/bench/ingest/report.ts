/** Per-part figures, the aims, the printed tables. */
import { median, round } from "../stats.ts";
import { table } from "../report.ts";
import type { NativeResult } from "./native.ts";
import type { UploadSample, UploadedWorkpiece } from "./upload.ts";

export const INGEST_AIMS = {
  /** service read+mesh / native read+mesh (STEP) */
  maxRatio: 2,
  /** ms of upload-to-response time outside the geometry kernel */
  maxOverheadMs: 100,
} as const;

/** the Server-Timing steps, in the order the thread runs them */
export const THREAD_STEPS = ["detect", "read", "measure", "mesh", "export", "glb", "thumbnail"] as const;

export interface ServiceFigures {
  /** medians over the timed uploads */
  totalMs: number;
  headersMs: number;
  steps: Record<string, number>;
  /** every step the thread reported */
  threadMs: number;
  readMeshMs: number;
  readMeasureMeshMs: number;
  /** total - every thread step: HTTP, multipart, auth, the database, copies to and from the thread */
  overheadMs: number;
  /** total - (read + mesh): everything but the kernel's read and mesh */
  beyondReadMeshMs: number;
  warmup: UploadSample;
  samples: UploadSample[];
}

export interface NativeFigures {
  /** medians over the timed runs */
  readMs: number;
  meshMs: number | null;
  readMeshMs: number;
  raw: NativeResult;
}

export interface PartResult {
  file: string;
  bytes: number;
  workpiece: Omit<UploadedWorkpiece, "warnings"> & { warnings: string[] };
  /** mm, of the bbox the upload answered */
  bboxDiagonalMm: number;
  /**
   * mm: the service's rule (defaultLinearDeflection) on the solid's rough box, measured by
   * occt-draw as the thread measures it: the deflection the service meshed at, given to native.
   * Without occt-draw: the rule on the bbox the upload answered. null for STL.
   */
  linearDeflectionMm: number | null;
  /** the rule on the (tighter) bbox the upload answered, for comparison */
  linearDeflectionFromResponseMm: number | null;
  deflectionFrom: "solid rough box (occt-draw)" | "response bbox" | null;
  angularDeflectionRad: number | null;
  service: ServiceFigures;
  native: NativeFigures | null;
  /** why there is no native figure, or a caveat about it */
  nativeNote: string | null;
  /** resident size of the API process after this part's warm-up upload (Linux) */
  serverRssAfterWarmupBytes: number | null;
  /** service / native: read+mesh (STEP) or read (STL) */
  ratio: number | null;
  readRatio: number | null;
  meshRatio: number | null;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const step = (sample: UploadSample, name: string) => sample.steps[name] ?? 0;

export function serviceFigures(warmup: UploadSample, samples: readonly UploadSample[]): ServiceFigures {
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.steps)))];
  const thread = (s: UploadSample) => sum(Object.values(s.steps));
  return {
    totalMs: median(samples.map((s) => s.totalMs)),
    headersMs: median(samples.map((s) => s.headersMs)),
    steps: Object.fromEntries(names.map((name) => [name, median(samples.map((s) => step(s, name)))])),
    threadMs: median(samples.map(thread)),
    readMeshMs: median(samples.map((s) => step(s, "read") + step(s, "mesh"))),
    readMeasureMeshMs: median(samples.map((s) => step(s, "read") + step(s, "measure") + step(s, "mesh"))),
    overheadMs: median(samples.map((s) => s.totalMs - thread(s))),
    beyondReadMeshMs: median(samples.map((s) => s.totalMs - step(s, "read") - step(s, "mesh"))),
    warmup,
    samples: [...samples],
  };
}

export function nativeFigures(raw: NativeResult): NativeFigures {
  const meshes = raw.runs.map((r) => r.meshMs);
  const hasMesh = meshes.every((m): m is number => m !== null);
  return {
    readMs: median(raw.runs.map((r) => r.readMs)),
    meshMs: hasMesh ? median(meshes) : null,
    readMeshMs: median(raw.runs.map((r) => r.readMs + (r.meshMs ?? 0))),
    raw,
  };
}

export interface AimCheck {
  aim: string;
  part: string;
  value: number;
  met: boolean;
}

export function checkIngestAims(parts: readonly PartResult[]): AimCheck[] {
  const checks: AimCheck[] = [];
  for (const p of parts) {
    if (p.ratio !== null && p.workpiece.format === "step") {
      checks.push({
        aim: `read+mesh at most ${INGEST_AIMS.maxRatio}x native`,
        part: p.file,
        value: round(p.ratio, 2),
        met: p.ratio <= INGEST_AIMS.maxRatio,
      });
    }
  }
  for (const p of parts) {
    checks.push({
      aim: `overhead (total - all geometry-thread steps) at most ${INGEST_AIMS.maxOverheadMs} ms`,
      part: p.file,
      value: round(p.service.overheadMs, 1),
      met: p.service.overheadMs <= INGEST_AIMS.maxOverheadMs,
    });
  }
  for (const p of parts) {
    checks.push({
      aim: `total - kernel read+mesh at most ${INGEST_AIMS.maxOverheadMs} ms (strict reading)`,
      part: p.file,
      value: round(p.service.beyondReadMeshMs, 1),
      met: p.service.beyondReadMeshMs <= INGEST_AIMS.maxOverheadMs,
    });
  }
  return checks;
}

const f0 = (value: number | null | undefined) =>
  value === null || value === undefined || !Number.isFinite(value) ? "-" : value.toFixed(0);
const f1 = (value: number | null | undefined) =>
  value === null || value === undefined || !Number.isFinite(value) ? "-" : value.toFixed(1);
const ratio = (value: number | null) => (value === null ? "-" : `${value.toFixed(1)}x`);
const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
const mib = (bytes: number | null) => (bytes === null ? "-" : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

export function formatParts(parts: readonly PartResult[], runs: number): string {
  return [
    `Upload to response (POST /projects/{id}/workpiece), median of ${runs} after a warm-up pass; native: occt-draw on the same file,`,
    `median of ${runs} in-process runs after a warm-up. ms. overhead = total - every geometry-thread step;`,
    "ratio = service (read + mesh) / native (read + mesh); STL: read / readstl, nothing to mesh",
    "",
    table([
      [
        "part",
        "size",
        "faces",
        "triangles",
        "total",
        "read",
        "measure",
        "mesh",
        "overhead",
        "total-r-m",
        "native read",
        "native mesh",
        "ratio",
      ],
      ...parts.map((p) => [
        p.file,
        size(p.bytes),
        p.workpiece.format === "step" ? p.workpiece.face_count : "-",
        p.native?.raw.triangles !== null &&
        p.native?.raw.triangles !== undefined &&
        p.native.raw.triangles !== p.workpiece.triangle_count
          ? `${p.workpiece.triangle_count} (native ${p.native.raw.triangles})`
          : p.workpiece.triangle_count,
        f0(p.service.totalMs),
        f1(p.service.steps.read),
        f1(p.service.steps.measure),
        f1(p.service.steps.mesh),
        f1(p.service.overheadMs),
        f0(p.service.beyondReadMeshMs),
        f1(p.native?.readMs),
        f1(p.native?.meshMs),
        ratio(p.ratio),
      ]),
    ]),
  ].join("\n");
}

export function formatSteps(parts: readonly PartResult[]): string {
  return [
    "Where the time goes (medians, ms): the geometry thread's steps, then what the rest of the service adds",
    "",
    table([
      ["part", ...THREAD_STEPS, "thread", "overhead", "total", "read x", "mesh x", "deflection"],
      ...parts.map((p) => [
        p.file,
        ...THREAD_STEPS.map((name) => f1(p.service.steps[name])),
        f0(p.service.threadMs),
        f1(p.service.overheadMs),
        f0(p.service.totalMs),
        ratio(p.readRatio),
        ratio(p.meshRatio),
        p.linearDeflectionMm === null ? "-" : `${round(p.linearDeflectionMm, 4)} mm`,
      ]),
    ]),
  ].join("\n");
}

export interface MemoryFigures {
  workers: number;
  beforePoolRssBytes: number | null;
  poolReadyRssBytes: number | null;
  perWorkerBytes: number | null;
  afterRunRssBytes: number | null;
  /** peak resident size of the server process over its life (VmHWM) */
  afterRunHwmBytes: number | null;
}

export function formatMemory(m: MemoryFigures, parts: readonly PartResult[]): string {
  return [
    `Memory of the API process with GEOMETRY_WORKERS=${m.workers}: RSS before the pool ${mib(m.beforePoolRssBytes)}, ` +
      `pool ready ${mib(m.poolReadyRssBytes)}, after the run ${mib(m.afterRunRssBytes)}, peak (VmHWM) ${mib(m.afterRunHwmBytes)}`,
    `  per geometry worker (pool ready - before): ${mib(m.perWorkerBytes)}`,
    `  RSS after each part's first upload: ${parts.map((p) => `${p.file} ${mib(p.serverRssAfterWarmupBytes)}`).join(", ")}`,
  ].join("\n");
}

export function formatIngestAims(checks: readonly AimCheck[]): string {
  return ["Aims:", ...checks.map((c) => `  ${c.met ? "met    " : "NOT MET"}  ${c.aim}: ${c.part} ${c.value}`)].join(
    "\n",
  );
}
