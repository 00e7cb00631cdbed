/**
 * `cli features FILE... [--json] [--budget-ms N]`: face analysis, machining features and 3-axis
 * setups of part files, without a database. OCCT starts once (on the first STEP or BREP file; STL needs none) and serves every
 * file; each file has its own time budget, reading included (default 30 s).
 *
 * With --json, one line per file, in the order given:
 *   {"file", "faces": [{"step_entity", "surface", "centroid", "area", "class"}],
 *    "features": [{"id", "class", "faces", "access_direction", "depth_mm", "floor_faces", "wall_faces",
 *                  "min_internal_corner_radius_mm", "min_width_mm", "open_sides", "hole"?, "reasons",
 *                  "reachable_from", ...}],
 *    "setups": [{"index", "name", "direction", "faces", "features"}],
 *    "unreachable_faces": [{"face", "reason"}], "warnings": [{"code", "message"}]}
 * or, for a file that could not be analysed, {"file", "error": {"code", "message"}}. Faces and
 * features are numbered by face id (the position in `faces`); kernel/features/recognition/README.md
 * explains the classes and kernel/features/setups/ the setups. Without --json, one readable line
 * per file.
 *
 * Exit status: 0 every file analysed, 1 some file failed (its line says why), 2 usage.
 */
import fs from "node:fs/promises";
import { parseArgs } from "node:util";
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { detectFormat } from "../../kernel/geometry/detect-format.ts";
import { describeOcctException, loadOpenCascade } from "../../kernel/geometry/opencascade.ts";
import { GeometryError } from "../../kernel/geometry-error.ts";
import type { Feature } from "../../kernel/features/recognition/types.ts";
import { recogniseFile, type RecognisedFile } from "../../kernel/features/setups/recognise-file.ts";
import type { Setup, UnreachableFace } from "../../kernel/features/setups/types.ts";

export const FEATURES_USAGE = "usage: cli features FILE... [--json] [--budget-ms MS]";
const DEFAULT_BUDGET_MS = 30_000;

interface FileLine {
  file: string;
  faces: {
    step_entity: number | null;
    surface: string;
    centroid: [number, number, number];
    area: number;
    class: string | null;
  }[];
  features: (Feature & { reachable_from: string[] })[];
  setups: Setup[];
  unreachable_faces: UnreachableFace[];
  warnings: { code: string; message: string }[];
}

interface ErrorLine {
  file: string;
  error: { code: string; message: string };
}

/**
 * Runs the command on `argv` (the words after `features`), writing results to `out` and usage or
 * failures of the command itself to `err`. Resolves to the exit status.
 */
export async function runFeaturesCommand(
  argv: string[],
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: "boolean" }, "budget-ms": { type: "string" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    err.write(`${(error as Error).message}\n${FEATURES_USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) {
    out.write(`${FEATURES_USAGE}\n`);
    return 0;
  }
  const files = parsed.positionals;
  const budgetText = parsed.values["budget-ms"];
  const budgetMs = budgetText === undefined ? DEFAULT_BUDGET_MS : Number(budgetText);
  if (files.length === 0 || !(budgetMs > 0)) {
    err.write(
      `${files.length === 0 ? "features needs at least one file" : `--budget-ms must be a positive number of milliseconds, not ${budgetText}`}\n${FEATURES_USAGE}\n`,
    );
    return 2;
  }
  const json = parsed.values.json === true;

  let oc: OpenCascadeInstance | undefined;
  let failed = false;
  for (const file of files) {
    const line = await analyseOne(file, budgetMs, async () => (oc ??= await loadOpenCascade()));
    if ("error" in line) failed = true;
    await write(out, `${json ? JSON.stringify(line) : readable(line)}\n`);
  }
  return failed ? 1 : 0;
}

async function analyseOne(
  file: string,
  budgetMs: number,
  occt: () => Promise<OpenCascadeInstance>,
): Promise<FileLine | ErrorLine> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await fs.readFile(file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      file,
      error:
        code === "ENOENT"
          ? { code: "file_not_found", message: `There is no file ${file}.` }
          : { code: "unreadable_file", message: `${file} could not be read (${code ?? String(error)}).` },
    };
  }
  let oc: OpenCascadeInstance | undefined;
  try {
    const format = detectFormat(bytes);
    if (format !== "stl-binary" && format !== "stl-ascii") oc = await occt();
    // the budget starts once OCCT is up: starting it is not the file's doing
    return fileLine(file, recogniseFile(oc, bytes, { budgetMs }));
  } catch (error) {
    if (error instanceof GeometryError) return { file, error: { code: error.code, message: error.message } };
    const message =
      oc === undefined ? (error instanceof Error ? error.message : String(error)) : describeOcctException(oc, error);
    return { file, error: { code: "analysis_failed", message: `The part could not be analysed: ${message}` } };
  }
}

function fileLine(file: string, recognised: RecognisedFile): FileLine {
  const { analysis, recognition, setups } = recognised;
  const access = new Map((setups?.feature_access ?? []).map((entry) => [entry.feature, entry.directions]));
  return {
    file,
    faces: analysis.faces.map((face) => ({
      step_entity: face.stepEntity,
      surface: face.surface,
      centroid: [round(face.centroid[0]), round(face.centroid[1]), round(face.centroid[2])],
      area: round(face.area),
      class: recognition.faceClasses[face.id] ?? null,
    })),
    features: recognition.features.map((feature) => ({ ...feature, reachable_from: access.get(feature.id) ?? [] })),
    setups: setups?.setups ?? [],
    unreachable_faces: setups?.unreachable_faces ?? [],
    warnings: [...analysis.warnings, ...recognition.warnings, ...recognised.warnings, ...(setups?.warnings ?? [])].map(
      (warning) => ({ code: warning.code, message: warning.message }),
    ),
  };
}

/** six decimals: a micrometre of a millimetre, without float noise in the output */
function round(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 1e6) / 1e6 : 0;
}

function readable(line: FileLine | ErrorLine): string {
  if ("error" in line) return `${line.file}: ${line.error.code}: ${line.error.message}`;
  const kinds = new Map<string, number>();
  for (const face of line.faces) kinds.set(face.surface, (kinds.get(face.surface) ?? 0) + 1);
  const summary = [...kinds].map(([surface, count]) => `${count} ${surface}`).join(", ");
  const classes = new Map<string, number>();
  for (const feature of line.features) classes.set(feature.class, (classes.get(feature.class) ?? 0) + 1);
  const features = [...classes].map(([cls, count]) => `${count} ${cls}`).join(", ");
  const setups = line.setups.length > 0 ? `; setups ${line.setups.map((setup) => setup.name).join(" ")}` : "";
  const unreachable = line.unreachable_faces.length > 0 ? `; ${line.unreachable_faces.length} faces unreachable` : "";
  const warnings =
    line.warnings.length > 0 ? `; warnings: ${line.warnings.map((warning) => warning.code).join(", ")}` : "";
  return `${line.file}: ${line.faces.length} faces (${summary}); ${line.features.length} features${features ? ` (${features})` : ""}${setups}${unreachable}${warnings}`;
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
