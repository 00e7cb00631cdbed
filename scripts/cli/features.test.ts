/**
 * `cli features`: one process, many files, one JSON line each; the exit status says whether any
 * failed. Called directly (streams collected), and once as a child process as the lead wires it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { writeBrep } from "../../kernel/geometry/brep.ts";
import { withOcctScope } from "../../kernel/geometry/occt-scope.ts";
import { loadOpenCascade } from "../../kernel/geometry/opencascade.ts";
import { readStep } from "../../kernel/geometry/step.ts";
import { FIXTURE_PARTS } from "../../kernel/geometry/test-support.ts";
import { MFCAD, mfcadLabels } from "../../kernel/features/test-support.ts";
import { mfcadClassOf } from "../../kernel/features/recognition/scoring.ts";
import { runFeaturesCommand } from "./features.ts";

class Collect extends Writable {
  text = "";
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString("utf8");
    done();
  }
}

async function run(
  argv: string[],
): Promise<{ status: number; lines: Record<string, unknown>[]; out: string; err: string }> {
  const out = new Collect();
  const err = new Collect();
  const status = await runFeaturesCommand(argv, out, err);
  const lines = argv.includes("--json")
    ? out.text
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    : [];
  return { status, lines, out: out.text, err: err.text };
}

interface FaceLine {
  step_entity: number | null;
  surface: string;
  centroid: [number, number, number];
  area: number;
  class: string | null;
}

const partC = path.join(FIXTURE_PARTS, "partC.step");
const partCStl = path.join(FIXTURE_PARTS, "partC.stl");
const model = "0-0-0-8-12-23";
const mfcadFile = path.join(MFCAD, "step", `${model}.step`);

describe("cli features", () => {
  it("prints one JSON line per file, in order: faces with their STEP entity, surface, centroid, area and class; features; setups", async () => {
    const { status, lines } = await run([mfcadFile, partC, partCStl, "--json"]);
    assert.equal(status, 0);
    assert.deepEqual(
      lines.map((line) => line.file),
      [mfcadFile, partC, partCStl],
    );
    const [mfcad, step, stl] = lines as {
      faces: FaceLine[];
      features: { class: string; reasons: string[] }[];
      setups: { name: string }[];
      unreachable_faces: unknown[];
      warnings: unknown[];
    }[];
    const labelled = new Set(mfcadLabels(model).faces.map((face) => face.step_entity));
    assert.equal(mfcad?.faces.length, labelled.size);
    assert.ok(mfcad?.faces.every((face) => face.step_entity !== null && labelled.has(face.step_entity)));
    // each face's class is its label's (read in MFCAD's class order, kernel/features/recognition/scoring.ts)
    const classes = JSON.parse(fs.readFileSync(path.join(MFCAD, "manifest.json"), "utf8")) as { classes: string[] };
    const truth = new Map(
      mfcadLabels(model).faces.map((face) => [face.step_entity, mfcadClassOf(face.class, classes.classes)]),
    );
    assert.deepEqual(
      mfcad?.faces.map((face) => face.class),
      mfcad?.faces.map((face) => truth.get(face.step_entity as number)),
    );
    assert.equal(step?.faces.length, 94);
    assert.equal(new Set(step?.faces.map((face) => face.step_entity)).size, 94);
    assert.ok(
      step?.faces.every(
        (face) =>
          face.area > 0 && face.centroid.length === 3 && (face.surface === "plane" || face.surface === "cylinder"),
      ),
    );
    assert.equal(stl?.faces.length, 94);
    assert.ok(stl?.faces.every((face) => face.step_entity === null));
    for (const line of [mfcad, step, stl]) {
      assert.ok(
        line !== undefined && line.features.length > 0 && line.features.every((feature) => feature.reasons.length > 0),
      );
      assert.ok(line.setups.length > 0);
      assert.deepEqual(line.unreachable_faces, []);
      assert.deepEqual(line.warnings, []);
    }
  });

  it("answers a file it cannot read with an error line and exit status 1, and goes on with the next file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-features-"));
    try {
      const garbage = path.join(dir, "garbage.step");
      fs.writeFileSync(garbage, "ISO-10303-21;\nHEADER;\nthis is no STEP file\nEND-ISO-10303-21;\n");
      const missing = path.join(dir, "missing.step");
      const { status, lines } = await run(["--json", garbage, missing, partCStl]);
      assert.equal(status, 1);
      assert.deepEqual(
        lines.map((line) => line.file),
        [garbage, missing, partCStl],
      );
      assert.equal((lines[0]?.error as { code: string } | undefined)?.code, "corrupt_file");
      assert.equal((lines[1]?.error as { code: string } | undefined)?.code, "file_not_found");
      assert.equal((lines[2]?.faces as unknown[] | undefined)?.length, 94);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads an OCCT BREP file too, whose faces have no STEP entity", async () => {
    const oc = await loadOpenCascade();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-features-"));
    try {
      const brep = path.join(dir, "partC.brep");
      fs.writeFileSync(
        brep,
        withOcctScope((scope) => writeBrep(oc, readStep(oc, new Uint8Array(fs.readFileSync(partC)), scope).solid)),
      );
      const { status, lines } = await run([brep, "--json"]);
      assert.equal(status, 0);
      const faces = lines[0]?.faces as FaceLine[];
      assert.equal(faces.length, 94);
      assert.ok(faces.every((face) => face.step_entity === null));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives each file a time budget, and says so when a file exceeds it", async () => {
    const { status, lines } = await run(["--json", "--budget-ms", "1", partC]);
    assert.equal(status, 1);
    assert.equal((lines[0]?.error as { code: string } | undefined)?.code, "analysis_timeout");
  });

  it("answers a call without files or with an unknown option with the usage and exit status 2", async () => {
    for (const argv of [["--json"], [partC, "--frobnicate"], [partC, "--budget-ms", "soon"]]) {
      const { status, err, out } = await run(argv);
      assert.equal(status, 2, argv.join(" "));
      assert.match(err, /usage: cli features FILE\.\.\./);
      assert.equal(out, "");
    }
  });

  it("prints a readable line per file without --json", async () => {
    const { status, out } = await run([partCStl]);
    assert.equal(status, 0);
    assert.match(
      out,
      new RegExp(
        `^${partCStl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: 94 faces \\(92 plane, 2 cylinder\\); \\d+ features \\(.*\\); setups .+\\n$`,
      ),
    );
  });

  it("runs as its own process and loads OCCT once for several files", () => {
    const script = `
      import { runFeaturesCommand } from ${JSON.stringify(path.resolve(import.meta.dirname, "features.ts"))};
      process.exitCode = await runFeaturesCommand(process.argv.slice(1), process.stdout, process.stderr);
    `;
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script, "--", mfcadFile, partC, "--json"],
      {
        cwd: path.resolve(import.meta.dirname, "..", ".."),
        encoding: "utf8",
      },
    );
    assert.equal(child.status, 0, child.stderr);
    const lines = child.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { file: string; faces: unknown[] });
    assert.deepEqual(
      lines.map((line) => [line.file, line.faces.length]),
      [
        [mfcadFile, 15],
        [partC, 94],
      ],
    );
  });
});
