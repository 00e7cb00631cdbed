/**
 * `npm run bench:ingest`: see docs/benchmarks.md. For every part in the fixtures directory,
 * the upload-to-response time of POST /projects/{id}/workpiece against the real API with one
 * warm geometry thread, next to native OCCT (occt-draw) reading and meshing the same file at the
 * same deflection in the same run. Progress goes to stderr, the tables to stdout, the figures to
 * bench-ingest-results.json. Exit 0 when every upload and native run completed (aims met or
 * not), 1 when something broke, 130 on Ctrl-C.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readEnv, repoRoot } from "../../../config/env.ts";
import { boxDiagonal } from "../../../kernel/geometry/mesh-metrics.ts";
import { DEFAULT_ANGULAR_DEFLECTION_RAD, defaultLinearDeflection } from "../../../kernel/geometry/tessellate.ts";
import { childOrigin, startChild } from "../children.ts";
import { runBenchSession } from "../session.ts";
import { CORES, CPU_MODEL, describeMachine } from "../cpu.ts";
import { createBenchUser, createProjectViaApi } from "../fixtures.ts";
import { CHILD_ENV, type ChildMessage } from "../protocol.ts";
import { writeJson } from "../report.ts";
import { prepareOcctDraw, type OcctDraw } from "./native.ts";
import {
  checkIngestAims,
  formatIngestAims,
  INGEST_AIMS,
  formatMemory,
  formatParts,
  formatSteps,
  nativeFigures,
  serviceFigures,
  type MemoryFigures,
  type NativeFigures,
  type PartResult,
} from "./report.ts";
import { readIngestSettings } from "./settings.ts";
import { prepareUpload, uploadOnce, type UploadSample, type UploadedWorkpiece } from "./upload.ts";

const API_APPLICATION_NAME = "swarf-bench-ingest-api";
const GEOMETRY_WORKERS = 1;
export const INGEST_RESULTS_FILE = path.join(repoRoot, "bench-ingest-results.json");

function say(line: string): void {
  process.stderr.write(`[bench:ingest] ${line}\n`);
}

/** VmRSS and VmHWM of a process, in bytes (Linux; nulls elsewhere). */
function processMemory(pid: number): { rss: number | null; hwm: number | null } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
      return match?.[1] ? Number(match[1]) * 1024 : null;
    };
    return { rss: field("VmRSS"), hwm: field("VmHWM") };
  } catch {
    return { rss: null, hwm: null };
  }
}

function listParts(dir: string): string[] {
  const files = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() || (entry.isSymbolicLink() && fs.statSync(path.join(dir, entry.name)).isFile()))
    .map((entry) => entry.name)
    .sort();
  if (files.length === 0) throw new Error(`no parts in ${dir}`);
  return files;
}

export async function main(): Promise<number> {
  const settings = readIngestSettings();
  const env = readEnv();
  const started = new Date();
  const problems: string[] = [];
  let draw: OcctDraw | undefined;

  return runBenchSession(say, async (session) => {
    const { signal } = session;
    const files = listParts(settings.partsDir);
    say(`${files.length} parts in ${settings.partsDir}, ${settings.runs} timed uploads each after a warm-up`);

    const native = await prepareOcctDraw(settings.occtDraw, signal);
    let nativeMissing: string | null = null;
    if (native.available) {
      draw = native.draw;
      session.defer(() => draw?.close());
      say(
        `native: ${draw.binary} (${draw.version})${draw.libraryShim ? `, libTK*.so symlinks in ${draw.libraryShim}` : ""}`,
      );
    } else {
      nativeMissing = native.reason;
      say(`native: ${native.reason}`);
    }

    const { database, owner } = await session.openDatabase(env, 2);
    const user = await createBenchUser(owner);

    const rss: Partial<Record<"before-pool" | "pool-ready", number>> = {};
    const onMessage = (message: ChildMessage) => {
      if (message.type === "memory") rss[message.phase] = message.rssBytes;
    };
    say(`starting the API with GEOMETRY_WORKERS=${GEOMETRY_WORKERS} (OCCT loads in a few seconds)`);
    const server = await startChild(
      "api server with geometry pool",
      path.join("ingest", "server.ts"),
      {
        LOG_LEVEL: env.LOG_LEVEL,
        [CHILD_ENV.appUrl]: database.appUrl,
        [CHILD_ENV.applicationName]: API_APPLICATION_NAME,
        GEOMETRY_WORKERS: String(GEOMETRY_WORKERS),
        // one key uploads every part: never refused by the limiter
        RATE_LIMIT_PER_MINUTE: "100000000",
      },
      { signal, readyTimeoutMs: 180_000, onMessage },
    );
    session.adopt(server);
    const origin = childOrigin(server);
    const project = await createProjectViaApi(origin, user.apiKey);
    say(`server pid ${server.pid} at ${origin}; project ${project.id}`);

    // The warm-up upload of every part comes first, all of them before any timed one: a fresh
    // thread's first uploads are slow (the first took 3.5-4 times the steady time here, the
    // next few still more; OCCT's first-use costs, heap growth, WASM tier-up), which would
    // otherwise land on the timed uploads of whichever part comes first.
    const prepared = files.map((file) => {
      const data = fs.readFileSync(path.join(settings.partsDir, file));
      return { file, data, upload: prepareUpload(data, file) };
    });
    const warmups = new Map<string, Awaited<ReturnType<typeof uploadOnce>>>();
    // the WASM heap grows to fit the largest part and never shrinks: the resident size after each
    const rssAfterWarmup = new Map<string, number | null>();
    for (const { file, upload } of prepared) {
      say(`${file}: warm-up upload`);
      warmups.set(file, await uploadOnce(origin, project.id, user.apiKey, upload, signal));
      rssAfterWarmup.set(file, processMemory(server.pid).rss);
    }

    const parts: PartResult[] = [];
    for (const { file, data, upload } of prepared) {
      say(`${file} (${data.length} bytes): ${settings.runs} uploads`);
      const warm = warmups.get(file);
      if (!warm) throw new Error(`no warm-up of ${file}`);
      const samples: UploadSample[] = [];
      let workpiece: UploadedWorkpiece = warm.workpiece;
      for (let i = 0; i < settings.runs; i++) {
        const timed = await uploadOnce(origin, project.id, user.apiKey, upload, signal);
        if (timed.workpiece.triangle_count !== warm.workpiece.triangle_count) {
          problems.push(
            `${file}: the uploads disagree on the triangle count (${warm.workpiece.triangle_count}, ${timed.workpiece.triangle_count})`,
          );
        }
        samples.push(timed.sample);
        workpiece = timed.workpiece;
      }
      const service = serviceFigures(warm.sample, samples);

      const diagonal = boxDiagonal(workpiece.bbox);
      const meshed = workpiece.format === "step" || workpiece.format === "brep";
      const fromResponse = meshed ? defaultLinearDeflection(diagonal) : null;
      const angular = meshed ? DEFAULT_ANGULAR_DEFLECTION_RAD : null;
      let linear = fromResponse;
      let deflectionFrom: PartResult["deflectionFrom"] = meshed ? "response bbox" : null;

      let nativeResult: NativeFigures | null = null;
      let nativeNote: string | null = null;
      const kind = workpiece.format === "step" ? "step" : workpiece.format === "stl" ? "stl" : null;
      if (draw && kind === null) nativeNote = `no native figure for ${workpiece.format.toUpperCase()}`;
      if (draw && kind !== null) {
        try {
          if (kind === "step") {
            // the thread takes its deflection from the solid's rough box (BRepBndLib), which is
            // looser than the bbox it answers (the mesh nodes): the same rule on the same box
            linear = defaultLinearDeflection(
              boxDiagonal(await draw.solidBox(path.join(settings.partsDir, file), signal)),
            );
            deflectionFrom = "solid rough box (occt-draw)";
          }
          say(
            `${file}: occt-draw, warm-up and ${settings.runs} runs${linear === null ? " (readstl)" : ` at ${linear.toPrecision(4)} mm`}`,
          );
          const raw = await draw.measure(
            {
              file: path.join(settings.partsDir, file),
              kind,
              linearDeflectionMm: linear ?? 0,
              angularDeflectionRad: angular ?? 0,
              runs: settings.runs,
            },
            signal,
          );
          nativeResult = nativeFigures(raw);
          const notes: string[] = [];
          if (kind === "stl")
            notes.push("STL: readstl only (the service reads, welds and measures; nothing is meshed)");
          if (raw.triangles !== null && raw.triangles !== workpiece.triangle_count) {
            notes.push(
              `native made ${raw.triangles} triangles, the service ${workpiece.triangle_count}: not the same mesh`,
            );
          }
          if (kind === "step" && raw.faces !== null && raw.faces !== workpiece.face_count) {
            notes.push(`native meshed ${raw.faces} faces, the service ${workpiece.face_count}`);
          }
          nativeNote = notes.length > 0 ? notes.join("; ") : null;
        } catch (error) {
          if (signal.aborted) throw error;
          problems.push(`${file}: native run failed: ${(error as Error).message}`);
          nativeNote = `native run failed: ${(error as Error).message}`;
        }
      }

      const serviceRead = service.steps.read ?? 0;
      const serviceMesh = service.steps.mesh ?? 0;
      parts.push({
        file,
        bytes: data.length,
        workpiece: { ...workpiece, warnings: workpiece.warnings.map((w) => w.code) },
        bboxDiagonalMm: diagonal,
        linearDeflectionMm: linear,
        linearDeflectionFromResponseMm: fromResponse,
        deflectionFrom,
        angularDeflectionRad: angular,
        service,
        native: nativeResult,
        nativeNote,
        serverRssAfterWarmupBytes: rssAfterWarmup.get(file) ?? null,
        ratio: nativeResult ? service.readMeshMs / nativeResult.readMeshMs : null,
        readRatio: nativeResult ? serviceRead / nativeResult.readMs : null,
        meshRatio: nativeResult?.meshMs ? serviceMesh / nativeResult.meshMs : null,
      });
    }

    const after = processMemory(server.pid);
    const memory: MemoryFigures = {
      workers: GEOMETRY_WORKERS,
      beforePoolRssBytes: rss["before-pool"] ?? null,
      poolReadyRssBytes: rss["pool-ready"] ?? null,
      perWorkerBytes:
        rss["before-pool"] !== undefined && rss["pool-ready"] !== undefined
          ? (rss["pool-ready"] - rss["before-pool"]) / GEOMETRY_WORKERS
          : null,
      afterRunRssBytes: after.rss,
      afterRunHwmBytes: after.hwm,
    };
    await server.stop();

    const first = parts[0];
    const firstUpload = first
      ? {
          file: first.file,
          totalMs: first.service.warmup.totalMs,
          steps: first.service.warmup.steps,
          warmMedianMs: first.service.totalMs,
        }
      : null;
    const aims = checkIngestAims(parts);
    const notes = parts.filter((p) => p.nativeNote !== null).map((p) => `  ${p.file}: ${p.nativeNote}`);
    process.stdout.write(
      [
        "",
        `Swarf ingest benchmark, ${started.toISOString()}, ${CORES} cores (${CPU_MODEL ?? "unknown CPU"}), Node ${process.version}, ` +
          `PostgreSQL ${database.serverVersion}, native: ${draw ? draw.version : "none"}`,
        "",
        formatParts(parts, settings.runs),
        "",
        formatSteps(parts),
        ...(nativeMissing ? ["", `No native figures: ${nativeMissing}`] : []),
        ...(notes.length > 0 ? ["", "Notes:", ...notes] : []),
        "",
        ...(firstUpload
          ? [
              `First upload after the pool was ready (a fresh thread): ${firstUpload.file} ${firstUpload.totalMs.toFixed(0)} ms ` +
                `(read ${(firstUpload.steps.read ?? 0).toFixed(0)} ms), against a median of ${firstUpload.warmMedianMs.toFixed(0)} ms once warm`,
              "",
            ]
          : []),
        formatMemory(memory, parts),
        "",
        formatIngestAims(aims),
        ...(nativeMissing ? [`  not checked  read+mesh at most ${INGEST_AIMS.maxRatio}x native: no occt-draw`] : []),
        ...(problems.length > 0 ? ["", "PROBLEMS:", ...problems.map((p) => `  ${p}`)] : []),
        "",
        `figures written to ${path.relative(process.cwd(), INGEST_RESULTS_FILE) || INGEST_RESULTS_FILE}`,
        "",
      ].join("\n"),
    );
    writeJson(INGEST_RESULTS_FILE, {
      date: started.toISOString(),
      durationSeconds: (Date.now() - started.getTime()) / 1000,
      machine: { ...describeMachine(), loadAverage: os.loadavg() },
      database: { description: database.description, serverVersion: database.serverVersion },
      native: draw
        ? { binary: draw.binary, version: draw.version, libraryShim: draw.libraryShim !== null }
        : { missing: nativeMissing },
      settings: { ...settings, geometryWorkers: GEOMETRY_WORKERS },
      memory,
      firstUpload,
      parts,
      aims,
      problems,
    });
    return problems.length > 0 ? 1 : 0;
  });
}
