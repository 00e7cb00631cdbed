/**
 * The setup sheet of a real plan: partC planned with the starter library on vmc-850-fanuc in its
 * default vise, as HTML and as PDF (read back with poppler's pdftotext and pdfinfo). Whatever a
 * program header and the quote also show must read here as kernel/job/setup-facts.ts gives it.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { htmlText, readPdf, setupSheetFacts, setupSheetToolWords } from "../../test/support/setup-sheet-text.ts";
import { stockAround } from "../../test/support/simchecked-part.ts";
import { planHeld } from "../cam/test-support.ts";
import { ingestWorkpiece } from "../geometry/ingest.ts";
import { loadOpenCascade } from "../geometry/opencascade.ts";
import { fixture } from "../geometry/test-support.ts";
import { operationFacts, setupTotals } from "../job/operation-facts.ts";
import { camPlanOf, type CamPlan } from "../job/plan.ts";
import { formatDuration, jobTools, setupTools } from "../job/setup-facts.ts";
import { findMachineArchetype, type MachineArchetype } from "../machines/archetypes.ts";
import type { Box3 } from "../math/box3.ts";
import { meshToGlb } from "../mesh/glb.ts";
import { readGlbTriangles } from "../mesh/glb-read.ts";
import { setupSheet } from "./document.ts";
import { mm } from "./format.ts";
import { setupSheetHtml } from "./html.ts";
import { setupSheetPdf } from "./pdf.ts";
import type { SetupSheet } from "./sheet-types.ts";

const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;
const OPTIONS = { include_face_milling: true, sort_by_height: false };

let plan: CamPlan;
let partBox: Box3;
let sheet: SetupSheet;
let html: string;
/** the PDF's text as pdftotext reads it, runs of white space made one space */
let pdfText: string;
let pdfInfo: string;

before(async () => {
  const oc = await loadOpenCascade();
  const ingested = ingestWorkpiece(oc, fixture("partC.step"), { filename: "partC.step" });
  partBox = ingested.bbox;
  plan = camPlanOf(planHeld(oc, ingested.brep!, stockAround(partBox), machine, undefined), OPTIONS, machine);
  sheet = setupSheet({
    plan,
    project: "Bracket <rev B>",
    part: "partC.step",
    material: "Aluminium 6061-T6",
    partBox,
    machine,
    postprocessor: "fanuc",
    mesh: readGlbTriangles(meshToGlb(ingested.mesh)),
    jobId: null,
  });
  html = setupSheetHtml(sheet);
  ({ info: pdfInfo, text: pdfText } = readPdf(await setupSheetPdf(sheet)));
});

const setupFacts = (index: number): string[] => setupSheetFacts(plan, index, "fanuc", partBox);

describe("the setup sheet of partC", () => {
  it("has a page for every setup of the plan, numbered n of N", () => {
    assert.ok(plan.setups.length >= 4, `${plan.setups.length} setups`);
    assert.deepEqual(
      sheet.setups.map((page) => page.heading),
      plan.setups.map((setup, i) => `Setup ${i + 1} of ${plan.setups.length}: ${setup.name}`),
    );
  });

  it("lists every tool of the job by its T number and each setup's tools, with the deepest Z the facts give", () => {
    const tools = jobTools(plan);
    assert.deepEqual(
      sheet.tools.rows.map((row) => row[0]),
      tools.map((tool) => String(tool.number)),
    );
    for (const [i, page] of sheet.setups.entries()) {
      const own = setupTools(plan, i);
      assert.deepEqual(
        page.tools.rows.map((row) => [row[0], row.at(-1)]),
        own.map((tool) => [String(tool.number), mm(tool.deepest_z)]),
      );
      const numbers = new Set(own.map((tool) => String(tool.number)));
      for (const row of page.operations.rows) assert.ok(numbers.has(row[2]!), `T${row[2]} is a tool of the setup`);
    }
  });

  it("gives each setup's work offset, its origin in words, the stock size and the cycle time", () => {
    for (const [i, page] of sheet.setups.entries()) {
      const values = page.facts.map((row) => row.value).join(" | ");
      for (const fact of setupFacts(i)) assert.ok(values.includes(fact), `${page.heading}: ${fact} in ${values}`);
    }
  });

  it("adds each setup's cutting, rapids and tool changes up to its cycle time, the time the quote reads", () => {
    // the planner keeps a setup's time to 0.1 s (displaySeconds), its operations' unrounded
    const rounding = 0.05 + 1e-9;
    for (const [i, setup] of plan.setups.entries()) {
      const totals = setupTotals(setup, machine);
      assert.equal(totals.cycle_s, setup.machining_time_s);
      assert.ok(Math.abs(totals.cutting_s + totals.rapid_s + totals.tool_change_s - totals.cycle_s) <= rounding);
      const operations = operationFacts(plan, i, machine);
      const sum = operations.reduce((total, o) => total + o.time_s, 0);
      assert.ok(Math.abs(sum + totals.tool_change_s - totals.cycle_s) <= rounding);
      assert.equal(sheet.setups[i]!.totals.at(-1)!.value, formatDuration(setup.machining_time_s));
      for (const o of operations) {
        assert.ok(o.z_min <= o.z_max && o.z_min >= setup.stock.min[2] - 1, `${o.id}: Z ${o.z_min}..${o.z_max}`);
        assert.ok(o.cutting_length_mm > 0 && o.cutting_s > 0, o.id);
        assert.ok(Math.abs(o.cutting_s + o.rapid_s - o.time_s) < 1e-6, o.id);
      }
    }
  });

  it("as HTML names every T number, each setup's work offset and origin, stock size and cycle time, with nothing outside it", () => {
    const text = htmlText(html);
    for (const tool of jobTools(plan))
      assert.ok(text.includes(` ${tool.number} ${tool.type_words} `), `T${tool.number}`);
    for (const [i] of plan.setups.entries()) for (const fact of setupFacts(i)) assert.ok(text.includes(fact), fact);
    assert.ok(text.includes("Setup sheet: Bracket <rev B>"), "the project's name, escaped");
    assert.equal(html.match(/<section class="setup" id="setup-\d+">/g)?.length, plan.setups.length);
    assert.equal(html.match(/<svg /g)?.length, plan.setups.length, "a picture per setup");
    assert.match(html, /@page/);
    assert.match(html, /\.setup \{ break-before: page;/);
    assert.doesNotMatch(html, /<script|<link|<img|\ssrc=|url\(/, "no external asset");
    assert.doesNotMatch(html.replace(/xmlns="http:\/\/www\.w3\.org\/2000\/svg"/g, ""), /https?:/);
  });

  it("as a PDF a reader opens names the same: every T number, the origin, the stock size, the cycle times", () => {
    assert.match(pdfInfo, /Page size:\s+595\.\d+ x 841\.\d+ pts \(A4\)/);
    const pages = Number(/Pages:\s+(\d+)/.exec(pdfInfo)?.[1]);
    assert.ok(pages >= 1 + plan.setups.length, `${pages} pages`);
    for (const words of setupSheetToolWords(plan)) assert.ok(pdfText.includes(words), words);
    for (const [i] of plan.setups.entries()) for (const fact of setupFacts(i)) assert.ok(pdfText.includes(fact), fact);
    assert.ok(pdfText.includes(`page ${pages} of ${pages}`));
  });

  it("prints the PDF on Letter when asked", async () => {
    const { info } = readPdf(await setupSheetPdf(sheet, "letter"));
    assert.match(info, /Page size:\s+612 x 792 pts \(letter\)/);
  });
});
