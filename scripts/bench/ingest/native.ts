/**
 * The native baseline: Debian's `occt-draw` (OCCT 7.6, the same release opencascade.js is built
 * from) reading the same file and meshing it with BRepMesh at the same deflections, timed inside
 * the DRAW process with Tcl's `clock microseconds` (process start and `pload` are not counted).
 *
 * One occt-draw process per part: a warm-up read and mesh, then `runs` timed ones, each on a
 * freshly read shape (so no run finds the previous one's triangulation). Like the service, it
 * meshes the file's one solid, not supplemental faces travelling with it (picking the solid is
 * not timed). STL: `readstl` only, since there is nothing to mesh.
 *
 * `pload MODELING DATAEXCHANGE` dlopens unversioned libTK*.so names, which only Debian's -dev
 * packages ship: where they are missing, a temp directory of symlinks to the versioned files
 * goes first on the child's LD_LIBRARY_PATH.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { trackProcess } from "../children.ts";

const run = promisify(execFile);
/** one part's runs; generous, the largest fixture takes about 5 s natively */
const PART_TIMEOUT_MS = 600_000;

export type NativeKind = "step" | "stl";

export interface NativeRequest {
  file: string;
  kind: NativeKind;
  /** mm; ignored for STL */
  linearDeflectionMm: number;
  /** radians; ignored for STL */
  angularDeflectionRad: number;
  runs: number;
}

export interface NativeRun {
  readMs: number;
  /** null for STL */
  meshMs: number | null;
}

export interface NativeResult {
  /** the warm-up, the process's first read and mesh */
  cold: NativeRun;
  runs: NativeRun[];
  /** of the last run's shape */
  triangles: number | null;
  faces: number | null;
}

export interface Box {
  min: [number, number, number];
  max: [number, number, number];
}

export interface OcctDraw {
  binary: string;
  /** "Open CASCADE Technology 7.6.3" */
  version: string;
  /** directory of libTK*.so symlinks put on LD_LIBRARY_PATH, or null when none was needed */
  libraryShim: string | null;
  /**
   * The box BRepBndLib gives the file's solid as read, before meshing (untimed): the box the
   * service's thread takes its deflection from (kernel/geometry/measure.ts roughBoundingBox).
   */
  solidBox(file: string, signal: AbortSignal): Promise<Box>;
  measure(request: NativeRequest, signal: AbortSignal): Promise<NativeResult>;
  /** removes the temp directory */
  close(): void;
}

export type OcctDrawAvailability = { available: true; draw: OcctDraw } | { available: false; reason: string };

const SCRIPT = String.raw`
pload MODELING DATAEXCHANGE
set part $env(SWARF_PART)
set kind $env(SWARF_KIND)
set mode $env(SWARF_MODE)
set runs $env(SWARF_RUNS)
if {[catch {
  for {set i 0} {$i <= $runs} {incr i} {
    foreach name [directory s_*] { unset $name }
    if {$kind eq "stl"} {
      set t0 [clock microseconds]
      readstl s_stl $part
      set t1 [clock microseconds]
      set shape s_stl
      puts "SWARF_RUN $i [expr {$t1 - $t0}] -"
      continue
    }
    set t0 [clock microseconds]
    stepread $part s *
    set t1 [clock microseconds]
    # untimed: the one solid, as the service takes it (supplemental faces and PMI left out)
    set names [directory s_*]
    if {[llength $names] == 0} { error "stepread gave no shape" }
    if {[llength $names] == 1} { set shape [lindex $names 0] } else { compound {*}$names s_all; set shape s_all }
    explode $shape So
    set solids [directory "[set shape]_*"]
    if {[llength $solids] == 1} { set shape [lindex $solids 0] }
    if {$mode eq "box"} {
      puts "SWARF_BBOX [bounding $shape]"
      break
    }
    set t2 [clock microseconds]
    incmesh $shape $env(SWARF_DEFLECTION) -a $env(SWARF_ANGLE_DEG)
    set t3 [clock microseconds]
    puts "SWARF_RUN $i [expr {$t1 - $t0}] [expr {$t3 - $t2}]"
  }
  if {$mode ne "box"} {
    if {[regexp {(\d+) triangles} [trinfo $shape] -> triangles]} { puts "SWARF_TRIANGLES $triangles" }
    if {[regexp {FACE\s*:\s*(\d+)} [nbshapes $shape] -> faces]} { puts "SWARF_FACES $faces" }
  }
} message]} {
  puts "SWARF_ERROR [string map {"\n" " "} $message]"
}
exit
`;

const PROBE = String.raw`
pload MODELING DATAEXCHANGE
puts "SWARF_VERSION [lindex [split [dversion] "\n"] 0]"
exit
`;

function findOnPath(binary: string): string | null {
  const executable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (binary.includes("/")) return executable(binary) ? path.resolve(binary) : null;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && executable(path.join(dir, binary))) return path.join(dir, binary);
  }
  return null;
}

/**
 * Symlinks libTKX.so -> libTKX.so.N for every OCCT library next to the ones the binary links,
 * where the unversioned name is missing. Returns how many it made.
 */
async function linkUnversionedLibraries(binary: string, shim: string): Promise<number> {
  let linked: string;
  try {
    linked = (await run("ldd", [binary])).stdout;
  } catch {
    return 0; // no ldd: let the probe tell whether pload works as it is
  }
  const dirs = new Set<string>();
  for (const match of linked.matchAll(/\blibTK\w+\.so\.\d+ => (\S+)/g)) if (match[1]) dirs.add(path.dirname(match[1]));
  let made = 0;
  for (const dir of dirs) {
    for (const name of fs.readdirSync(dir)) {
      const versioned = /^(libTK\w+\.so)\.\d+$/.exec(name);
      if (
        !versioned?.[1] ||
        fs.existsSync(path.join(dir, versioned[1])) ||
        fs.existsSync(path.join(shim, versioned[1]))
      )
        continue;
      fs.symlinkSync(path.join(dir, name), path.join(shim, versioned[1]));
      made++;
    }
  }
  return made;
}

interface DrawOutput {
  lines: string[];
  stderr: string;
}

function runDraw(
  binary: string,
  script: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<DrawOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["-b", "-f", script], { env, stdio: ["ignore", "pipe", "pipe"] });
    trackProcess(child);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const kill = () => child.kill("SIGKILL");
    const timer = setTimeout(kill, timeoutMs);
    signal.addEventListener("abort", kill, { once: true });
    child.once("error", (error) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", kill);
      reject(error);
    });
    child.once("close", (code, killedBy) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", kill);
      if (signal.aborted) return reject(new Error("aborted"));
      if (killedBy) return reject(new Error(`occt-draw was killed (${killedBy}) after ${timeoutMs} ms or by a signal`));
      if (code !== 0) return reject(new Error(`occt-draw exited with code ${code}: ${tail(stdout + stderr)}`));
      resolve({ lines: stdout.split("\n").map((line) => line.trim()), stderr });
    });
  });
}

function tail(text: string, lines = 8): string {
  return text.trim().split("\n").slice(-lines).join(" | ");
}

const micros = (text: string | undefined) => Number(text) / 1000;

function parseResult(output: DrawOutput, runs: number): NativeResult {
  const failure = output.lines.find((line) => line.startsWith("SWARF_ERROR"));
  if (failure) throw new Error(`occt-draw: ${failure.slice("SWARF_ERROR".length).trim()}`);
  const timed: NativeRun[] = [];
  let triangles: number | null = null;
  let faces: number | null = null;
  for (const line of output.lines) {
    const fields = line.split(/\s+/);
    if (fields[0] === "SWARF_RUN")
      timed.push({ readMs: micros(fields[2]), meshMs: fields[3] === "-" ? null : micros(fields[3]) });
    else if (fields[0] === "SWARF_TRIANGLES") triangles = Number(fields[1]);
    else if (fields[0] === "SWARF_FACES") faces = Number(fields[1]);
  }
  const [cold, ...rest] = timed;
  if (!cold || rest.length !== runs || timed.some((r) => !Number.isFinite(r.readMs))) {
    throw new Error(
      `occt-draw printed ${timed.length} of ${runs + 1} runs: ${tail(output.lines.join("\n") + output.stderr)}`,
    );
  }
  return { cold, runs: rest, triangles, faces };
}

function parseBox(output: DrawOutput): Box {
  const failure = output.lines.find((line) => line.startsWith("SWARF_ERROR"));
  if (failure) throw new Error(`occt-draw: ${failure.slice("SWARF_ERROR".length).trim()}`);
  const fields =
    output.lines
      .find((line) => line.startsWith("SWARF_BBOX "))
      ?.split(/\s+/)
      .slice(1)
      .map(Number) ?? [];
  if (fields.length !== 6 || fields.some((v) => !Number.isFinite(v))) {
    throw new Error(`occt-draw printed no box: ${tail(output.lines.join("\n") + output.stderr)}`);
  }
  const [x0, y0, z0, x1, y1, z1] = fields as [number, number, number, number, number, number];
  return { min: [x0, y0, z0], max: [x1, y1, z1] };
}

/** Finds occt-draw and checks that it loads the modules; says why not when it is missing. */
export async function prepareOcctDraw(binaryName: string, signal: AbortSignal): Promise<OcctDrawAvailability> {
  const binary = findOnPath(binaryName);
  if (!binary) {
    return {
      available: false,
      reason: `${binaryName} is not installed (Debian: apt-get install -y occt-draw); no native column`,
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-bench-occt-"));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  process.on("exit", removeDir);
  const close = () => {
    removeDir();
    process.off("exit", removeDir);
  };
  try {
    const shim = path.join(dir, "lib");
    fs.mkdirSync(shim);
    const linked = await linkUnversionedLibraries(binary, shim);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...(linked > 0
        ? { LD_LIBRARY_PATH: [shim, process.env.LD_LIBRARY_PATH].filter(Boolean).join(path.delimiter) }
        : {}),
    };
    const scriptFile = path.join(dir, "ingest.tcl");
    const probeFile = path.join(dir, "probe.tcl");
    fs.writeFileSync(scriptFile, SCRIPT);
    fs.writeFileSync(probeFile, PROBE);
    const probe = await runDraw(binary, probeFile, env, signal, 60_000);
    const version = probe.lines
      .find((line) => line.startsWith("SWARF_VERSION "))
      ?.slice("SWARF_VERSION ".length)
      .trim();
    if (!version)
      throw new Error(
        `occt-draw could not load MODELING and DATAEXCHANGE: ${tail(probe.lines.join("\n") + probe.stderr)}`,
      );
    return {
      available: true,
      draw: {
        binary,
        version,
        libraryShim: linked > 0 ? shim : null,
        async solidBox(file, runSignal) {
          const output = await runDraw(
            binary,
            scriptFile,
            { ...env, SWARF_PART: path.resolve(file), SWARF_KIND: "step", SWARF_MODE: "box", SWARF_RUNS: "0" },
            runSignal,
            PART_TIMEOUT_MS,
          );
          return parseBox(output);
        },
        async measure(request, runSignal) {
          const output = await runDraw(
            binary,
            scriptFile,
            {
              ...env,
              SWARF_PART: path.resolve(request.file),
              SWARF_KIND: request.kind,
              SWARF_MODE: "time",
              SWARF_RUNS: String(request.runs),
              SWARF_DEFLECTION: String(request.linearDeflectionMm),
              SWARF_ANGLE_DEG: String((request.angularDeflectionRad * 180) / Math.PI),
            },
            runSignal,
            PART_TIMEOUT_MS,
          );
          return parseResult(output, request.runs);
        },
        close,
      },
    };
  } catch (error) {
    close();
    throw error;
  }
}
