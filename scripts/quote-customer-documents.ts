/**
 * The customer's quote document of every fixture part (issue 40's "done when"), outside the test
 * suite because it plans each part for real (minutes on a shared machine): each part planned as
 * the benchmarks plan it (scripts/bench/fixture-plan.ts: starter library, aluminium, 2 mm stock),
 * priced by the breakdown for the quantities 1, 10 and 50 from that one plan (MHR 75 EUR/h,
 * COST_MODEL's rates, aluminium at 5.80 EUR/kg, 15 % overhead, 10 % profit, 19 % VAT), its design
 * feedback in words, checked that the lines add up
 * to the direct cost to the cent, and written as PDF and Excel in English and German; each file is
 * read back (pdftotext, exceljs) for the quote number and every break's prices and against the
 * words and ids a customer must not see. `node --import tsx scripts/quote-customer-documents.ts
 * [part ...] [--out dir]`; parts default to every file of ../shared/fixtures/parts.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import ExcelJS from "exceljs";
import { repoRoot } from "../config/env.ts";
import { ingestWorkpiece } from "../kernel/geometry/ingest.ts";
import { findMachineArchetype, type MachineArchetype } from "../kernel/machines/archetypes.ts";
import { meshToGlb } from "../kernel/mesh/glb.ts";
import { readGlbTriangles } from "../kernel/mesh/glb-read.ts";
import { computeBreakdown, breakdownJson } from "../kernel/quote/breakdown.ts";
import { resolveCostModel } from "../kernel/quote/cost-model.ts";
import {
  customerDocumentFilename,
  customerQuoteDocument,
  partNameFromFile,
} from "../kernel/quote/customer-document.ts";
import { customerQuoteWorkbook } from "../kernel/quote/customer-excel.ts";
import { formatEuro } from "../kernel/quote/customer-labels.ts";
import { customerQuotePdf } from "../kernel/quote/customer-pdf.ts";
import { designFeedbackText } from "../kernel/quote/design-feedback-text.ts";
import { sum, dec } from "../kernel/quote/money.ts";
import { partPicture } from "../kernel/quote/part-picture.ts";
import { readPdf } from "../test/support/setup-sheet-text.ts";
import { INTERNAL_WORDS } from "../test/support/internal-words.ts";
import { planFixture } from "./bench/fixture-plan.ts";
import { summarisePlan } from "../kernel/job/plan.ts";

const PARTS_DIR = path.resolve(repoRoot, "..", "shared", "fixtures", "parts");
const BREAKS = [1, 10, 50];
/** a shop's rates (EUR/h, EUR per cutting minute), the times left at their defaults */
const COST_MODEL = resolveCostModel({
  settings: {
    setup_rate: 65,
    operator_rate: 42,
    programming_rate: 75,
    tool_wear: { end_mill: 0.12, ball_end_mill: 0.2, face_mill: 0.08, drill: 0.05, reamer: 0.1, tap: 0.3 },
  },
  machine: {},
  quoteJob: {},
});

const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const out = outAt >= 0 ? args[outAt + 1]! : path.join(repoRoot, ".data", "quote-documents");
const parts = args.filter((_, i) => outAt < 0 || (i !== outAt && i !== outAt + 1));
const fixtures = fs
  .readdirSync(PARTS_DIR)
  .filter((f) => /\.(step|stp|stl)$/i.test(f))
  .sort();
const names = parts.length > 0 ? parts : fixtures;
fs.mkdirSync(out, { recursive: true });
const machine = findMachineArchetype("vmc-850-fanuc") as MachineArchetype;

for (const name of names) {
  const fixture = await planFixture({ partsDir: PARTS_DIR, part: name, machine, say: (line) => console.log(line) });
  const ingested = ingestWorkpiece(fixture.oc, fixture.original, { filename: fixture.name });
  const mesh = readGlbTriangles(meshToGlb(ingested.mesh));
  const box = fixture.box;
  const size = [0, 1, 2].map((i) => box.max[i]! - box.min[i]!);
  // as the quote route reads a stored plan: its summary (kernel/job/plan.ts)
  const setups = summarisePlan(fixture.plan).setups.map((s, index) => {
    const types = new Map(s.tools.map((t) => [t.number, t.tool_type]));
    return {
      id: `s${index}`,
      name: s.name,
      index,
      machining_time_s: s.machining_time_s,
      operations: s.operations.map((o) => ({
        tool_type: types.get(o.tool_number) ?? "",
        machining_time_s: o.machining_time_s,
      })),
    };
  });
  const priced = BREAKS.map((quantity) => {
    const b = computeBreakdown({
      quantity,
      mhr: { value: 75, source: "settings" },
      setups,
      completeness: fixture.plan.completeness,
      plan_warnings: [],
      setup_costs_dropped: [],
      setup_costs: setups.map((s) => ({
        setup_id: s.id,
        entry: { name: "Vice setup", is_fixed_price: "true", fix_price: "45", value: "0", unit: "EUR" },
        source: "machine" as const,
      })),
      material: {
        kind: "stock",
        stock_size_mm: size.map((v) => v + 4) as [number, number, number],
        material: { id: "aluminium-6061", density_kg_m3: 2700, price_per_kg: 5.8 },
        surcharge_percentage: 10,
      },
      additional_costs: {},
      overhead_percentage: 15,
      profit: 10,
      discount: 0,
      tax: 19,
      cost_model: COST_MODEL,
    });
    assert.ok(
      sum(b.lines.map((l) => l.amount)).equals(b.direct_cost),
      `${name} x${quantity}: the lines add up to the direct cost`,
    );
    return breakdownJson(b);
  });
  const feedback = fixture.plan.design_feedback ?? [];
  console.log(
    `${fixture.name}: ${priced[0]!.lines.length} cost lines; design feedback ${feedback.length} items` +
      feedback
        .map(
          (i) =>
            `\n  ${i.kind} feature ${i.feature ?? "-"} faces ${i.faces.join(",")}: ${i.measured?.value ?? "-"} ${i.measured?.unit ?? ""} (limit ${i.limit?.value ?? "-"})`,
        )
        .join(""),
  );
  const picture = partPicture(mesh, box);
  // numbered by the part's place among the fixtures, so a part keeps its number when run alone
  const number = `Q-2026-${String(fixtures.indexOf(fixture.name) + 1).padStart(4, "0")}`;
  for (const language of ["en", "de"] as const) {
    const document = customerQuoteDocument({
      language,
      shop: { name: "Nord CNC GmbH", address: "Hafenweg 2\n20457 Hamburg", terms: "Payment within 30 days net." },
      quote_number: number,
      date: "2026-11-29",
      valid_until: "2026-12-29",
      customer: { name: "ACME Robotics", address: "1 Main St\nSpringfield" },
      part: { name: partNameFromFile(fixture.name), material: "EN AW-6061 T6", size_mm: size, picture },
      breaks: priced.map((b) => ({ quantity: b.quantity, unit_price: b.unit_price, total_price: b.net_price })),
      tax_percentage: 19,
      delivery_days: 10,
      design_feedback: (fixture.plan.design_feedback ?? []).map((item) => designFeedbackText(item, language)),
    });
    const pdf = await customerQuotePdf(document);
    const xlsx = await customerQuoteWorkbook(document, "2026-11-29");
    fs.writeFileSync(path.join(out, customerDocumentFilename(number, fixture.name, language, "pdf")), pdf);
    fs.writeFileSync(path.join(out, customerDocumentFilename(number, fixture.name, language, "xlsx")), xlsx);
    const { text } = readPdf(pdf);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx as unknown as ArrayBuffer);
    const cells: unknown[] = [];
    workbook.worksheets[0]!.eachRow((row) => cells.push(...(row.values as unknown[]).slice(1)));
    const cellText = cells.map(String).join(" ");
    assert.ok(text.includes(number) && cells.includes(number), `${name} ${language}: the quote number`);
    for (const b of priced) {
      assert.ok(
        text.includes(formatEuro(b.net_price, language).replace(/\s/g, " ")),
        `${name} ${language}: total of ${b.quantity}`,
      );
      assert.ok(
        cells.includes(b.net_price) && cells.includes(b.unit_price),
        `${name} ${language}: workbook prices of ${b.quantity}`,
      );
    }
    for (const word of INTERNAL_WORDS) {
      assert.doesNotMatch(text, word, `${name} ${language} PDF`);
      assert.doesNotMatch(cellText, word, `${name} ${language} workbook`);
    }
    console.log(
      `${fixture.name} ${language}: ${fixture.plan.setups.length} setups, ${dec(fixture.plan.setups.reduce((t, s) => t + s.machining_time_s, 0) / 60).toFixed(1)} min, ` +
        `net ${priced.map((b) => `${b.quantity}: ${b.unit_price}/${b.net_price}`).join(", ")} EUR, PDF ${pdf.length} B, xlsx ${xlsx.length} B: checked`,
    );
  }
}
console.log(`files in ${out}`);
process.exit(0);
