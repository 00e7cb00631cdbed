/**
 * A fixture part planned with the starter library, every axis-aligned setup's program judged by
 * simcheck (simcheck.ts), and the material it finds left set beside our own verification's
 * (our-fields.ts). One part per test file: it is planned once, in before().
 *
 * What must agree: simcheck finds no gouge and no rapid through material. The stock each leaves
 * after a setup, compared cell by cell (our-fields.ts: materialBeyond, within a cell sideways and
 * 0.05 mm up): on the first setup both start from the same stock box, so neither may have more
 * than MATERIAL_AGREEMENT_MM3 the other has not; on a later setup each starts from its own
 * reading of what the setups before left (ours a little more, by design:
 * simulation/carried-stock.ts), so ours may have more, but simcheck no more than
 * MATERIAL_AGREEMENT_MM3 ours has not: a verification that sees less left than there is hides
 * something. simcheck cannot run a tilted setup: what the tilted setups before one removed (the
 * plan's own measure) it still sees, and may have that much more. Both measures of material
 * left, as simcheck reports them, are logged.
 */
import assert from "node:assert/strict";
import type { OpenCascadeInstance } from "opencascade.js/dist/node.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, describe, it } from "node:test";
import { planCam } from "../../kernel/cam/plan.ts";
import type { PlanResult } from "../../kernel/cam/plan-types.ts";
import type { Box3 } from "../../kernel/cam/types.ts";
import { writeBrep } from "../../kernel/geometry/brep.ts";
import { withOcctScope } from "../../kernel/geometry/occt-scope.ts";
import { loadOpenCascade } from "../../kernel/geometry/opencascade.ts";
import { readStep } from "../../kernel/geometry/step.ts";
import { fixture } from "../../kernel/geometry/test-support.ts";
import { camPlanOf, type CamPlan } from "../../kernel/job/plan.ts";
import { findMachineArchetype, type MachineArchetype } from "../../kernel/machines/archetypes.ts";
import { starterLibrary } from "../../kernel/tools/catalogue/starter-library.ts";
import { workOffsetFacts } from "../../kernel/job/setup-facts.ts";
import { holdsSetup, postSetup } from "../../kernel/post/index.ts";
import { setupSheet } from "../../kernel/setup-sheet/document.ts";
import { setupSheetHtml } from "../../kernel/setup-sheet/html.ts";
import { setupSheetPdf } from "../../kernel/setup-sheet/pdf.ts";
import { writeFineStl } from "./fine-stl.ts";
import { htmlText, readPdf, setupSheetFacts, setupSheetToolWords } from "./setup-sheet-text.ts";
import { headerProblems, toolChangeProblems, toolNumberProblems } from "./setter-checks.ts";
import { planCloseRapids, programMoves, RAPID_CLEARANCE_MM, replaySetup, setupCutters } from "./rapid-clearance.ts";
import { keepingVerification, leftAsSimcheck, materialBeyond, ourStock, simcheckStock } from "./our-fields.ts";
import { axisAligned, simcheckMissing, simcheckSetups, type SimcheckReport } from "./simcheck.ts";

/** material one stock may have that the other has not (materialBeyond), mm³ */
export const MATERIAL_AGREEMENT_MM3 = 20;
/** material one stock has above the other's by less than this is no disagreement (simcheck's rapid tolerance) */
const FIELD_DEPTH_MM = 0.05;

const OPTIONS = { include_face_milling: true, sort_by_height: false };

/**
 * The stock the planning tests give a part (test/support/planning.ts): 2 mm round it, 5 mm on
 * top and 8 mm below, where the vise grips the blank clear of the part.
 */
export function stockAround(part: Box3): Box3 {
  return {
    min: [part.min[0] - 2, part.min[1] - 2, part.min[2] - 8],
    max: [part.max[0] + 2, part.max[1] + 2, part.max[2] + 5],
  };
}

interface SetupFinding {
  name: string;
  simcheck: SimcheckReport;
  ours: { over_part_mm3: number; outside_mm3: number };
  /** material simcheck finds left that ours has not, and the other way round (materialBeyond) */
  only: { simcheck_mm3: number; ours_mm3: number };
  /** whether the setup is the plan's first: both simulations start from the stock box */
  first: boolean;
  /** what tilted setups before this one removed (the plan's own measure): simcheck cannot run them, so it still sees it */
  unseen_mm3: number;
}

export interface Checked {
  plan: CamPlan;
  /** the part's bounding box, workpiece coordinates */
  part: Box3;
  result: PlanResult;
  setups: SetupFinding[];
  seconds: { plan: number; simcheck: number };
}

/** The material the tilted setups before setup `index` removed, by the plan's own measure of what is left after each setup. */
function removedByTilted(plan: CamPlan, result: PlanResult, index: number): number {
  let removed = 0;
  for (let t = 1; t < index; t += 1) {
    if (axisAligned(plan, t)) continue;
    removed += Math.max(
      0,
      result.setups[t - 1]!.verification.material_left_mm3 - result.setups[t]!.verification.material_left_mm3,
    );
  }
  return removed;
}

/** A part's B-rep, read or built with OCCT. */
export type PartSource = (oc: OpenCascadeInstance) => Uint8Array;

/** A fixture part of ../shared/fixtures/parts, read from its STEP file. */
export const fixtureStep =
  (name: string): PartSource =>
  (oc) =>
    withOcctScope((scope) => writeBrep(oc, readStep(oc, fixture(name), scope).solid));

function check(oc: OpenCascadeInstance, source: PartSource, stockOf: (part: Box3) => Box3): Checked {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swarf-simchecked-"));
  try {
    const brep = source(oc);
    const stl = path.join(dir, "part.stl");
    const { box } = writeFineStl(oc, brep, stl);
    const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
    const { hooks, setups } = keepingVerification();
    const planning = performance.now();
    const input = {
      workpiece: { format: "step" as const, bytes: brep, bytes_format: "brep" as const },
      stock: stockOf(box),
      machine,
      material_id: "aluminium-6061",
      library: starterLibrary(),
      options: OPTIONS,
    };
    const result = planCam(oc, input, hooks);
    const plan = camPlanOf(result, OPTIONS, machine);
    const checking = performance.now();
    const reports = simcheckSetups(plan, stl);
    const findings = [...reports].map(([index, simchecked]) => {
      const setup = plan.setups[index]!;
      const kept = setups.get(setup.name);
      if (kept === undefined) throw new Error(`${setup.name}: no verification was kept`);
      const ours = kept();
      const theirs = simcheckStock(simchecked.field);
      const mine = ourStock(ours);
      const compared = { bottom: setup.stock.min[2], slack: Math.max(theirs.cell, mine.cell), depth: FIELD_DEPTH_MM };
      const only = {
        simcheck_mm3: materialBeyond(theirs, mine, compared),
        ours_mm3: materialBeyond(mine, theirs, compared),
      };
      return {
        name: setup.name,
        simcheck: simchecked.report,
        ours: leftAsSimcheck(ours),
        only,
        first: index === 0,
        unseen_mm3: removedByTilted(plan, result, index),
      };
    });
    return {
      plan,
      part: box,
      result,
      setups: findings,
      seconds: { plan: (checking - planning) / 1000, simcheck: (performance.now() - checking) / 1000 },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The tests of one part: a fixture part's file name (its STEP read), or a name and its source;
 * `more` adds the part's own tests of the same plan (`checked()` once the plan is made).
 */
export function describeSimcheckedPart(
  name: string,
  source: PartSource = fixtureStep(name),
  stockOf: (part: Box3) => Box3 = stockAround,
  more?: (checked: () => Checked) => void,
): void {
  const missing = simcheckMissing();
  describe(`${name} planned with the starter library, its programs judged by simcheck`, { skip: missing }, () => {
    let checked: Checked;
    before(async () => {
      checked = check(await loadOpenCascade(), source, stockOf);
      console.log(
        `${name}: planned in ${checked.seconds.plan.toFixed(1)} s, simcheck ${checked.seconds.simcheck.toFixed(1)} s`,
      );
      for (const s of checked.setups) {
        const r = s.simcheck;
        console.log(
          `  ${s.name}: gouges ${r.gouging_moves} moves (${r.gouge_cells} cells, deepest ${r.max_gouge_mm} mm), rapids through material ${r.rapids_through_material}; ` +
            `left over the part ${r.left_volume_mm3} mm³ (ours ${s.ours.over_part_mm3.toFixed(1)}), beside it ${r.left_outside_volume_mm3} mm³ (ours ${s.ours.outside_mm3.toFixed(1)}); ` +
            `only simcheck's ${s.only.simcheck_mm3.toFixed(1)} mm³, only ours ${s.only.ours_mm3.toFixed(1)} mm³` +
            (s.unseen_mm3 > 0 ? `, ${s.unseen_mm3.toFixed(1)} mm³ removed by tilted setups before it` : ""),
        );
      }
    });
    more?.(() => checked);
    it("judges every axis-aligned setup, each read to its end by rs274", () => {
      const aligned = checked.plan.setups.filter((setup) => axisAligned(checked.plan, setup.index));
      assert.ok(aligned.length > 0);
      assert.deepEqual(
        checked.setups.map((s) => s.name),
        aligned.map((s) => s.name),
      );
      for (const s of checked.setups)
        assert.ok(
          s.simcheck.moves > 0 && s.simcheck.warnings.length === 0,
          `${s.name}: ${s.simcheck.moves} moves, ${s.simcheck.warnings.join("; ")}`,
        );
    });

    it("has simcheck find no gouge and no rapid through material in any of them, as our verification says", () => {
      for (const s of checked.setups) {
        const r = s.simcheck;
        assert.deepEqual(
          [r.gouging_moves, r.gouge_cells],
          [0, 0],
          `${s.name}: gouges ${JSON.stringify(r.gouge_events)}`,
        );
        assert.equal(
          r.rapids_through_material,
          0,
          `${s.name}: rapids through material ${JSON.stringify(r.rapid_events)}`,
        );
        const verification = checked.result.setups.find((setup) => setup.name === s.name)?.verification;
        assert.deepEqual([verification?.gouges, verification?.rapids_through_material], [0, 0], s.name);
      }
    });

    it(`keeps every rapid ${RAPID_CLEARANCE_MM} mm from the stock box and the stock left, read from the Fanuc programs (and the first setup's Heidenhain one)`, () => {
      const { plan } = checked;
      const found = [...planCloseRapids(plan, (i) => programMoves(plan, i, "fanuc"))].map(
        ([setup, replayed]) => [`fanuc ${setup}`, replayed] as const,
      );
      const first = plan.setups[0]!;
      const heidenhain = replaySetup({
        stock: first.stock,
        tools: setupCutters(plan, 0),
        moves: programMoves(plan, 0, "heidenhain"),
      });
      for (const [program, replayed] of [...found, [`heidenhain ${first.name}`, heidenhain] as const]) {
        console.log(`  ${program}: ${replayed.judged} rapids judged, ${replayed.close.length} too close`);
        assert.ok(replayed.judged > 0, program);
        assert.deepEqual(replayed.close.slice(0, 5), [], `${program}: ${replayed.close.length} rapids too close`);
      }
    });

    it("leaves the material simcheck finds left: the same after the first setup, never less after the others", () => {
      for (const s of checked.setups) {
        const what = `${s.name}: ${s.only.simcheck_mm3.toFixed(1)} mm³ left by simcheck's simulation and not by ours, ${s.only.ours_mm3.toFixed(1)} mm³ the other way; tilted setups before it removed ${s.unseen_mm3.toFixed(1)} mm³`;
        assert.ok(s.only.simcheck_mm3 <= MATERIAL_AGREEMENT_MM3 + s.unseen_mm3, what);
        if (s.first) assert.ok(s.only.ours_mm3 <= MATERIAL_AGREEMENT_MM3, what);
      }
    });

    it("writes programs a setter can trust: one T number a tool, the origin and stock named, spindle and coolant on first", () => {
      for (const control of ["fanuc", "heidenhain", "sinumerik"]) {
        const programs = checked.plan.setups
          .filter((setup) => holdsSetup(control, setup.index))
          .map((setup) => {
            const text = [
              ...postSetup(checked.plan, setup.index, control, { project: name, partBox: checked.part }).lines,
            ].join("\n");
            const problems = [
              ...headerProblems(text, workOffsetFacts(setup, control).code),
              ...toolChangeProblems(
                text,
                setup.operations.every((operation) => operation.parameters.coolant !== "off"),
              ),
            ];
            assert.deepEqual(problems, [], `${control}, ${setup.name}`);
            return text;
          });
        assert.ok(programs.length > 1, `${control}: more than one setup's program`);
        assert.deepEqual(toolNumberProblems(programs), [], control);
      }
    });

    it("gives a setup sheet whose HTML and PDF name every T number, each setup's origin, stock size and cycle time", async () => {
      const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
      const sheet = setupSheet({
        plan: checked.plan,
        project: name,
        part: name,
        material: "aluminium-6061",
        partBox: checked.part,
        machine,
        postprocessor: machine.postprocessor,
        mesh: null,
        jobId: null,
      });
      const html = htmlText(setupSheetHtml(sheet));
      const pdf = readPdf(await setupSheetPdf(sheet));
      assert.match(pdf.info, /Pages:\s+\d+/);
      const facts = [
        ...setupSheetToolWords(checked.plan),
        ...checked.plan.setups.flatMap((setup) =>
          setupSheetFacts(checked.plan, setup.index, machine.postprocessor, checked.part),
        ),
      ];
      for (const fact of facts) {
        assert.ok(html.includes(fact), `the HTML names ${fact}`);
        assert.ok(pdf.text.includes(fact), `the PDF names ${fact}`);
      }
    });
  });
}
