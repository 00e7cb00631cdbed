/**
 * An independent verifier of a setup's program: ../shared/tools/simcheck.py (Python 3 with
 * numpy; its README says what it judges). The setup is postprocessed for LinuxCNC (kernel/post),
 * simcheck runs it through rs274 itself, sweeps the tools' shapes through a height field of the
 * stock seen from the setup's spindle, and reports gouges into the part, rapids through the
 * material left and the material left over the part.
 *
 * Hole-making tools are given so that what they make by design is no gouge: a drill or reamer
 * as a drill of its point angle DRILL_OVERSIZE_MM (its tolerance class over the model's hole,
 * tooling/select-holes.ts) and the fine mesh's chords smaller than it is, the smallest hole it
 * is ever matched to; a spot or centre drill, which breaks the hole's edge beyond the model
 * (holes/depths.ts), and a tap, which cuts the thread beyond it, as 0.5 mm drills, as the
 * verifier's README advises: their tip is judged. So the drills take the holes' material, as
 * they do in our simulation, and the material left of both is comparable.
 *
 * Missing python3, numpy or rs274: the tests skip, unless SWARF_REQUIRE_RS274=1 (CI sets it),
 * when they fail. SIMCHECK_PYTHON names the interpreter (default python3): Debian's python3-numpy
 * is /usr/bin/python3's, which another python3 first on the PATH does not see.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fromFrame } from "../../kernel/cam/frames.ts";
import type { Box3, Cutter, Vec3 } from "../../kernel/cam/types.ts";
import type { CamPlan } from "../../kernel/job/plan.ts";
import { DRILL_OVERSIZE_MM } from "../../kernel/cam/tooling/select-holes.ts";
import { FINE_STL_DEFLECTION_MM } from "./fine-stl.ts";
import { readNpy2d } from "./npy.ts";
import { programText } from "./program-checks.ts";
import { RS274 } from "./rs274.ts";

export const SIMCHECK = path.resolve(import.meta.dirname, "..", "..", "..", "shared", "tools", "simcheck.py");
const CARRIED = path.join(import.meta.dirname, "simcheck_carried.py");
const PYTHON = process.env.SIMCHECK_PYTHON || "python3";
/** the diameter spot drills and taps are given as */
export const HOLE_TOOL_PROBE_MM = 0.5;

/** why simcheck cannot run here (the tests skip), or false when it can */
export function simcheckMissing(): string | false {
  const missing: string[] = [];
  if (!fs.existsSync(RS274)) missing.push(`${RS274} (Debian package linuxcnc-uspace)`);
  if (!fs.existsSync(SIMCHECK)) missing.push(SIMCHECK);
  const numpy = spawnSync(PYTHON, ["-c", "import numpy"], { encoding: "utf8" });
  if (numpy.status !== 0)
    missing.push(
      `${PYTHON} with numpy (Debian packages python3, python3-numpy; SIMCHECK_PYTHON names another interpreter)`,
    );
  if (missing.length === 0) return false;
  const why = `simcheck needs ${missing.join(", ")}`;
  if (process.env.SWARF_REQUIRE_RS274 === "1") throw new Error(why);
  return why;
}

/** One finding of simcheck's: how deep, where (setup frame), and the program's line. */
export interface SimcheckEvent {
  depth_mm: number;
  at: Vec3;
  tool: number;
  source_line?: number;
  source?: string;
  into_part?: boolean;
}

/** The part of simcheck's --json report the tests read. */
export interface SimcheckReport {
  moves: number;
  gouge_cells: number;
  gouging_moves: number;
  max_gouge_mm: number;
  gouge_events: SimcheckEvent[];
  rapids_through_material: number;
  rapid_events: SimcheckEvent[];
  /** left over the part's top (cells left more than the tolerance) */
  left_volume_mm3: number;
  left_max_mm: number | null;
  /** left above the stock's bottom outside the part's footprint */
  left_outside_volume_mm3: number;
  part_top_area_mm2: number;
  grid: { cell_mm: number; nx: number; ny: number; origin_xy: [number, number] };
  warnings: string[];
  seconds: { total: number };
}

export interface SimcheckRun {
  plan: CamPlan;
  setupIndex: number;
  /** the part as a fine STL in workpiece coordinates (fine-stl.ts) */
  partStl: string;
  /** default 0.2 */
  cellMm?: number;
  /** the setups before this one, as simcheck left them (simcheckSetups); none: the whole stock box */
  before?: readonly CarriedSetup[];
  /** where simcheck writes the stock it leaves (its h.npy), for the setups after this one */
  dump?: string;
}

/**
 * simcheck's cell for a stock (setup frame): 0.2 mm, its default, up to SIMCHECK_MAX_CELLS cells;
 * larger on larger stocks, as our own simulation's (planner/verify.ts), so an 800 x 450 mm
 * stock takes a minute a setup rather than ten.
 */
export function simcheckCell(stock: Box3): number {
  const area = (stock.max[0] - stock.min[0]) * (stock.max[1] - stock.min[1]);
  return Math.max(0.2, Math.ceil(Math.sqrt(area / SIMCHECK_MAX_CELLS) * 100) / 100);
}

export const SIMCHECK_MAX_CELLS = 1_000_000;

/** simcheck's stock after a setup: heights at cell centres, [i][j] at i * ny + j (numpy's order) */
export interface SimcheckField {
  x0: number;
  y0: number;
  cell: number;
  nx: number;
  ny: number;
  heights: Float64Array;
}

export interface SimcheckedSetup {
  report: SimcheckReport;
  field: SimcheckField;
}

/** A setup simcheck has run, as simcheck_carried.py reads it. */
export interface CarriedSetup {
  wcs: string;
  dump: string;
  origin_xy: [number, number];
  cell: number;
}

/** Whether simcheck can judge the setup: its axes along the workpiece's (it refuses a tilted one). */
export function axisAligned(plan: CamPlan, setupIndex: number): boolean {
  const { wcs } = plan.setups[setupIndex]!;
  return [wcs.x_axis, wcs.z_axis].every((axis) => Math.max(...axis.map(Math.abs)) > 1 - 1e-9);
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** simcheck's shape of a tool: N:kind:D[:extra] */
export function simcheckTool(number: number, cutter: Cutter): string {
  switch (cutter.kind) {
    case "flat":
      return `${number}:flat:${cutter.diameter}`;
    case "ball":
      return `${number}:ball:${cutter.diameter}`;
    case "bull":
      return `${number}:bull:${cutter.diameter}:${cutter.corner_radius}`;
    case "chamfer":
      return `${number}:chamfer:${cutter.diameter}:${2 * (cutter.chamfer_angle_deg ?? 45)}`;
    case "drill": {
      const spot = cutter.tool_type === "SpotDrill" || cutter.tool_type === "CentreDrill";
      const diameter = spot ? HOLE_TOOL_PROBE_MM : cutter.diameter - DRILL_OVERSIZE_MM - 2 * FINE_STL_DEFLECTION_MM;
      return `${number}:drill:${round(diameter)}:${cutter.tip_angle_deg ?? 118}`;
    }
    case "tap":
      return `${number}:drill:${HOLE_TOOL_PROBE_MM}:${cutter.tip_angle_deg ?? 118}`;
  }
}

/** The setup's tools as simcheck's --tools, numbered as its program numbers them. */
export function simcheckTools(plan: CamPlan, setupIndex: number): string {
  const setup = plan.setups[setupIndex];
  if (setup === undefined) throw new RangeError(`no setup ${setupIndex}`);
  return setup.tools
    .map((summary) => {
      const cutter = setup.operations.find((operation) => operation.tool.assembly_uuid === summary.assembly_uuid)?.tool;
      if (cutter === undefined) throw new Error(`${setup.name}: tool ${summary.number} is used by no operation`);
      return simcheckTool(summary.number, cutter);
    })
    .join(",");
}

/** simcheck's --wcs: the setup frame's origin and axes in workpiece coordinates. */
export function simcheckWcs(plan: CamPlan, setupIndex: number): string {
  const { wcs } = plan.setups[setupIndex]!;
  return `origin=${wcs.origin.join(",")};x=${wcs.x_axis.join(",")};z=${wcs.z_axis.join(",")}`;
}

/** simcheck's --stock: the setup's stock box back in workpiece coordinates. */
export function simcheckStock(plan: CamPlan, setupIndex: number): string {
  const { wcs, stock } = plan.setups[setupIndex]!;
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const x of [stock.min[0], stock.max[0]]) {
    for (const y of [stock.min[1], stock.max[1]]) {
      for (const z of [stock.min[2], stock.max[2]]) {
        const p = fromFrame(wcs, [x, y, z]);
        for (let i = 0; i < 3; i += 1) {
          min[i] = Math.min(min[i] as number, p[i] as number);
          max[i] = Math.max(max[i] as number, p[i] as number);
        }
      }
    }
  }
  return [...min, ...max].map(round).join(",");
}

/**
 * Postprocesses the setup for LinuxCNC and runs simcheck on the program, on the stock the setups
 * in `before` left as simcheck saw them, and none beyond the stock box (simcheck_carried.py); its report.
 */
export function runSimcheck(run: SimcheckRun): SimcheckReport {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-simcheck-"));
  try {
    const program = path.join(dir, "setup.ngc");
    fs.writeFileSync(program, programText(run.plan, run.setupIndex, "linuxcnc"));
    const before = path.join(dir, "before.json");
    fs.writeFileSync(before, JSON.stringify(run.before ?? []));
    const args = [
      CARRIED,
      SIMCHECK,
      before,
      "--ngc",
      program,
      "--rs274",
      RS274,
      `--tools=${simcheckTools(run.plan, run.setupIndex)}`,
      "--part",
      run.partStl,
      `--wcs=${simcheckWcs(run.plan, run.setupIndex)}`,
      `--stock=${simcheckStock(run.plan, run.setupIndex)}`,
      "--cell",
      String(run.cellMm ?? 0.2),
      ...(run.dump ? [`--dump=${run.dump}`] : []),
      "--json",
    ];
    const child = spawnSync(PYTHON, args, { encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, HOME: dir } });
    // 0 clean, 1 findings (the report says which), 2 the input was refused
    if (child.status !== 0 && child.status !== 1)
      throw new Error(`simcheck failed (${child.status ?? child.signal}): ${child.stderr.trim()}`);
    return JSON.parse(child.stdout) as SimcheckReport;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every axis-aligned setup of the plan judged by simcheck, in the shop's order, each on the stock
 * the axis-aligned ones before it left as simcheck simulated them: the reports by setup index.
 */
export function simcheckSetups(plan: CamPlan, partStl: string): Map<number, SimcheckedSetup> {
  const dumps = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-simcheck-dumps-"));
  try {
    const reports = new Map<number, SimcheckedSetup>();
    const before: CarriedSetup[] = [];
    for (const setup of plan.setups) {
      if (!axisAligned(plan, setup.index)) continue;
      const dump = path.join(dumps, String(setup.index));
      const report = runSimcheck({
        plan,
        setupIndex: setup.index,
        partStl,
        cellMm: simcheckCell(setup.stock),
        before,
        dump,
      });
      const h = readNpy2d(path.join(dump, "h.npy"));
      reports.set(setup.index, {
        report,
        field: {
          x0: report.grid.origin_xy[0],
          y0: report.grid.origin_xy[1],
          cell: report.grid.cell_mm,
          nx: h.shape[0],
          ny: h.shape[1],
          heights: h.data,
        },
      });
      before.push({
        wcs: simcheckWcs(plan, setup.index),
        dump,
        origin_xy: report.grid.origin_xy,
        cell: report.grid.cell_mm,
      });
    }
    return reports;
  } finally {
    fs.rmSync(dumps, { recursive: true, force: true });
  }
}
