/**
 * The customer's quote document without a server: its words and figures in English and German,
 * the sections left out when empty, the design notes' hook (a sentence once, with its places),
 * the file name, and the PDF and workbook written from one model saying the same (PDF read back
 * with poppler's pdftotext), laid out as a customer reads them: the part's picture in both, the
 * PDF's facts in one column, no sentence of the workbook cut off at its last column.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import ExcelJS from "exceljs";
import { readPdf } from "../../test/support/setup-sheet-text.ts";
import { ingestWorkpiece } from "../geometry/ingest.ts";
import { fixture } from "../geometry/test-support.ts";
import { readGlbTriangles } from "../mesh/glb-read.ts";
import { meshToGlb } from "../mesh/glb.ts";
import {
  customerDocumentFilename,
  customerQuoteDocument,
  type CustomerQuoteInput,
  partNameFromFile,
} from "./customer-document.ts";
import { customerQuoteWorkbook } from "./customer-excel.ts";
import { customerQuotePdf } from "./customer-pdf.ts";
import { partPicture } from "./part-picture.ts";

const input = (over: Partial<CustomerQuoteInput> = {}): CustomerQuoteInput => ({
  language: "en",
  shop: { name: "Nord CNC", address: "Hafenweg 2\n\n20457 Hamburg\n", terms: "" },
  quote_number: "Q-2026-0042",
  date: "2026-11-29",
  valid_until: "2026-12-29",
  customer: { name: "ACME", address: "" },
  part: { name: "bracket.step", material: null, size_mm: [120, 80.55, 25], picture: null },
  breaks: [
    { quantity: 1, unit_price: 1234.5, total_price: 1234.5 },
    { quantity: 1000, unit_price: 9.99, total_price: 9990 },
  ],
  tax_percentage: 19,
  delivery_days: 1,
  design_feedback: [],
  ...over,
});

describe("customerQuoteDocument", () => {
  it("writes figures as each language does and leaves out what is not given", () => {
    const en = customerQuoteDocument(input());
    assert.deepEqual(en.prices.cells, [
      ["1", "€1,234.50", "€1,234.50"],
      ["1,000", "€9.99", "€9,990.00"],
    ]);
    assert.deepEqual(
      en.facts.map((f) => f.value),
      ["Q-2026-0042", "29 November 2026", "29 December 2026"],
    );
    assert.deepEqual(
      en.part.map((f) => f.value),
      ["bracket.step", "not given", "120 × 80.6 × 25 mm"],
    );
    assert.deepEqual(en.shop.address_lines, ["Hafenweg 2", "", "20457 Hamburg"]);
    assert.equal(en.delivery.value, "1 working day after order");
    assert.equal(en.terms, null);
    assert.equal(en.design_feedback, null);
    const de = customerQuoteDocument(input({ language: "de", tax_percentage: 7.5, delivery_days: 10 }));
    assert.deepEqual(
      de.prices.cells[1]!.map((c) => c.replace(/\s/g, " ")),
      ["1.000", "9,99 €", "9.990,00 €"],
    );
    assert.equal(de.facts[1]!.value, "29.11.2026");
    assert.equal(de.prices.note, "Preise in EUR, zuzüglich Umsatzsteuer (7,5 %).");
    assert.equal(de.delivery.value, "10 Arbeitstage nach Auftragseingang");
  });

  it("names the file by quote number and part, in characters every file system takes", () => {
    assert.equal(
      customerDocumentFilename("Q-2026-0042", "Halter Ø12 (rev B).STEP", "de", "pdf"),
      "Q-2026-0042_Halter_12_rev_B_de.pdf",
    );
    assert.equal(customerDocumentFilename("Q-2026-0042", "../../..", "en", "xlsx"), "Q-2026-0042_part_en.xlsx");
  });

  it("names a part after its file without the CAD extension, and keeps other dots", () => {
    assert.equal(partNameFromFile("nist_ftc_10_asme1_rb.stp"), "nist_ftc_10_asme1_rb");
    assert.equal(partNameFromFile("Halter v1.2.STEP"), "Halter v1.2");
    assert.equal(partNameFromFile("Halter v1.2"), "Halter v1.2");
    assert.equal(partNameFromFile(".step"), ".step");
  });

  it("writes the same words into the PDF and the workbook, design notes and terms included", async () => {
    const document = customerQuoteDocument(
      input({
        language: "de",
        shop: { name: "Nord CNC", address: "Hafenweg 2", terms: "Zahlbar in 14 Tagen.\n=SUM(A1)" },
        design_feedback: ["Die Wand ist 0,8 mm dünn, weniger als die 1 mm, die Aluminium braucht."],
      }),
    );
    const { text } = readPdf(await customerQuotePdf(document));
    for (const words of [
      "Angebot",
      "Q-2026-0042",
      "Hinweise zur Konstruktion",
      "0,8 mm dünn",
      "Zahlbar in 14 Tagen.",
      "9.990,00 €",
    ])
      assert.ok(text.includes(words), `${words}: ${text}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await customerQuoteWorkbook(document, "2026-11-29")) as unknown as ArrayBuffer);
    const cells: unknown[] = [];
    workbook.worksheets[0]!.eachRow((row) => cells.push(...(row.values as unknown[]).slice(1)));
    assert.ok(cells.includes("Q-2026-0042"));
    assert.ok(cells.includes(9990), "a total stays a number");
    assert.ok(cells.includes("• Die Wand ist 0,8 mm dünn, weniger als die 1 mm, die Aluminium braucht."));
    assert.ok(cells.includes("'=SUM(A1)"), "typed text never runs as a formula");
  });

  it("says a sentence that applies in several places once, with the number of places", () => {
    const corner = "An internal corner has a radius of 1 mm, which needs an end mill under 3 mm (radius 1.5 mm).";
    const hole = "A hole of 7 mm diameter is 75 mm deep, more than ten diameters (70 mm).";
    const en = customerQuoteDocument(
      input({ design_feedback: [corner, hole, corner, hole, corner, "A wall is thin."] }),
    );
    assert.deepEqual(en.design_feedback?.items, [
      "In 3 places: an internal corner has a radius of 1 mm, which needs an end mill under 3 mm (radius 1.5 mm).",
      "In 2 places: a hole of 7 mm diameter is 75 mm deep, more than ten diameters (70 mm).",
      "A wall is thin.",
    ]);
    const de = customerQuoteDocument(
      input({ language: "de", design_feedback: ["Eine Wand ist 0,5 mm dick.", "Eine Wand ist 0,5 mm dick."] }),
    );
    assert.deepEqual(de.design_feedback?.items, ["An 2 Stellen: eine Wand ist 0,5 mm dick."]);
  });

  it("shows the part's picture in both files, the PDF's facts in one column, no workbook sentence cut off", async () => {
    const stl = ingestWorkpiece(undefined, fixture("partC.stl"), { filename: "partC.stl" });
    const box = stl.bbox;
    const picture = partPicture(readGlbTriangles(meshToGlb(stl.mesh)), { min: box.min, max: box.max });
    const long =
      "A hole of 7 mm diameter is 75 mm deep, more than ten diameters (70 mm): it needs a long drill and pecking. Make it shallower or larger if you can.";
    const document = customerQuoteDocument(
      input({
        part: { name: "partC.stl", material: "EN AW-6061 T6", size_mm: [85.5, 44.6, 27.5], picture },
        design_feedback: [long],
        shop: { name: "Nord CNC", address: "Hafenweg 2", terms: `${long}\nShort line.` },
      }),
    );
    const pdf = await customerQuotePdf(document);
    const words = pdfWords(pdf);
    const left = (word: string) => words.find((w) => w.text === word)?.x;
    assert.ok(left("Quote") !== undefined && left("Part") !== undefined, JSON.stringify(words.slice(0, 20)));
    assert.ok(Math.abs(left("Quote")! - left("Part")!) < 0.5, "the part's facts under the quote's");

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await customerQuoteWorkbook(document, "2026-11-29")) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const images = sheet.getImages();
    assert.equal(images.length, 1, "the part's picture");
    const png = workbook.getImage(Number(images[0]!.imageId)).buffer as unknown as Buffer;
    assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
    const widths = sheet.columns.map((c) => c.width ?? 9);
    const merged = Object.keys((sheet as unknown as { _merges: Record<string, { model: { right: number } }> })._merges);
    sheet.eachRow((row) => {
      row.eachCell((cell, column) => {
        if (typeof cell.value !== "string" || cell.isMerged) return;
        // a lone cell's text runs over its empty neighbours up to the last column, and no further
        const room = widths.slice(column - 1).reduce((a, b) => a + b, 0);
        assert.ok(cell.value.length <= room, `row ${row.number}: "${cell.value}" runs past the sheet`);
      });
    });
    for (const text of [`• ${long}`, long]) {
      let found = false;
      sheet.eachRow((row) => {
        const cell = row.getCell(1);
        if (cell.value !== text) return;
        found = true;
        assert.ok(merged.includes(cell.address), `${cell.address} spans the columns`);
        assert.equal(cell.alignment?.wrapText, true);
        assert.ok((row.height ?? 0) >= 30, `row ${row.number} as high as its two lines: ${row.height}`);
      });
      assert.ok(found, text);
    }
  });

  it("starts a short last section on a new page only when it does not fit the page before", async () => {
    // notes that differ (a note per sentence), each two lines, until the terms go over
    const note = (i: number) =>
      `Note ${i}: a wall is 0.5 mm thick, thinner than the 0.8 mm recommended for aluminium: it may vibrate or bend while it is machined.`;
    for (let count = 12; count < 60; count++) {
      const document = customerQuoteDocument(
        input({
          design_feedback: Array.from({ length: count }, (_, i) => note(i)),
          shop: { name: "Nord CNC", address: "Hafenweg 2", terms: "Payment within 30 days net." },
        }),
      );
      const pages = pdfPages(await customerQuotePdf(document));
      if (pages.length === 1) continue;
      const termsPage = pages.findIndex((words) => words.some((w) => w.text === "Terms"));
      assert.equal(termsPage, 1, "the terms went over, not a note");
      const lastOnFirst = Math.max(...pages[0]!.map((w) => w.y));
      // the heading (18 pt) and its line (about 10 pt) did not fit below the last note (and its 11 pt of space)
      assert.ok(lastOnFirst > 842 - 42 - 18 - 45, `page 1 ends at ${lastOnFirst} pt`);
      return;
    }
    assert.fail("the terms never went over to a second page");
  });
});

/** each word of each page with its bottom edge (pdftotext -bbox), points from the top */
function pdfPages(pdf: Uint8Array): { text: string; y: number }[][] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "customer-pdf-"));
  try {
    fs.writeFileSync(path.join(dir, "quote.pdf"), pdf);
    const html = execFileSync("pdftotext", ["-bbox", path.join(dir, "quote.pdf"), "-"], { encoding: "utf8" });
    return html
      .split("<page ")
      .slice(1)
      .map((page) =>
        [...page.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)]
          // the footer, in the bottom margin, is not the page's content
          .filter((m) => Number(m[1]) < 842 - 42 - 18)
          .map((m) => ({ text: m[3]!, y: Number(m[2]) })),
      );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** each word of the first page with its left edge (pdftotext -bbox) */
function pdfWords(pdf: Uint8Array): { text: string; x: number }[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "customer-pdf-"));
  try {
    fs.writeFileSync(path.join(dir, "quote.pdf"), pdf);
    const html = execFileSync("pdftotext", ["-bbox", "-f", "1", "-l", "1", path.join(dir, "quote.pdf"), "-"], {
      encoding: "utf8",
    });
    return [...html.matchAll(/<word xMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)].map((m) => ({
      text: m[2]!,
      x: Number(m[1]),
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
