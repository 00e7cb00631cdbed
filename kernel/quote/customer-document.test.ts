/**
 * The customer's quote document without a server: its words and figures in English and German,
 * the sections left out when empty, the design notes' hook, the file name, and the PDF and
 * workbook written from one model saying the same (PDF read back with poppler's pdftotext).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import ExcelJS from "exceljs";
import { readPdf } from "../../test/support/setup-sheet-text.ts";
import { customerDocumentFilename, customerQuoteDocument, type CustomerQuoteInput } from "./customer-document.ts";
import { customerQuoteWorkbook } from "./customer-excel.ts";
import { customerQuotePdf } from "./customer-pdf.ts";

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
});
