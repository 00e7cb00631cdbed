/**
 * The setup sheet as a PDF, made with pdfkit (no browser): the same sections, tables and pictures
 * as the HTML (html.ts), laid out on A4 or Letter. Each setup starts on a new page; a table that
 * runs over a page repeats its header there and never splits a row; every page is footed with the
 * sheet's title and its number. The standard Helvetica fonts are not embedded, so a reader shows
 * the sheet with its own; they hold Latin-1 (Ø, ×, °), and other characters print as "?".
 */
import { bufferedPdf, footPages, latin1, PageCursor } from "../pdf/pages.ts";
import { drawPicture } from "./picture-pdf.ts";
import type { FactRow, SetupPage, SetupSheet, Table } from "./sheet-types.ts";

export type Paper = "a4" | "letter";

const PAPER_SIZE: Record<Paper, string> = { a4: "A4", letter: "LETTER" };
/** 12 mm */
const MARGIN = 34;
const FOOTER_SPACE = 16;
const GRID = 7;
const FACTS = 8;

export function setupSheetPdf(sheet: SetupSheet, paper: Paper = "a4"): Promise<Buffer> {
  const { doc, bytes } = bufferedPdf({
    size: PAPER_SIZE[paper],
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_SPACE, left: MARGIN, right: MARGIN },
    info: { Title: latin1(sheet.title), Creator: "Swarf" },
  });
  const page = new PageWriter(doc, MARGIN);
  page.heading(sheet.title, 16);
  page.facts(sheet.job, 0.7);
  page.heading("Tools", 12);
  page.table(sheet.tools);
  for (const setup of sheet.setups) {
    doc.addPage();
    page.setup(setup);
  }
  footPages(doc, {
    text: (i, count) => `${sheet.title}  ·  page ${i} of ${count}`,
    margin: MARGIN,
    fontSize: 7,
    colour: "#666666",
  });
  doc.end();
  return bytes;
}

/** Writes down the page from a cursor, starting a new page when what comes next does not fit. */
class PageWriter extends PageCursor {
  heading(text: string, size: number): void {
    // with room for a few lines after it: a heading is not left alone at the foot of a page
    this.room(size * 3 + 40);
    const doc = this.doc;
    doc.y += size * 0.5;
    doc
      .font("Helvetica-Bold")
      .fontSize(size)
      .fillColor("#111111")
      .text(latin1(text), MARGIN, doc.y, { width: this.width });
    if (size >= 12) {
      doc
        .moveTo(MARGIN, doc.y + 1)
        .lineTo(MARGIN + this.width, doc.y + 1)
        .lineWidth(1.2)
        .stroke("#111111");
    }
    doc.y += size * 0.4;
  }

  setup(setup: SetupPage): void {
    const doc = this.doc;
    this.heading(setup.heading, 13);
    const top = doc.y;
    const pictureWidth = this.width * 0.58;
    const pictureHeight = drawPicture(doc, setup.picture, { x: MARGIN, y: top, width: pictureWidth });
    doc.rect(MARGIN, top, pictureWidth, pictureHeight).lineWidth(0.5).stroke("#cccccc");
    doc.font("Helvetica").fontSize(6.5).fillColor("#555555");
    doc.text(latin1(setup.caption), MARGIN, top + pictureHeight + 2, { width: pictureWidth });
    const below = doc.y;
    doc.y = top;
    this.facts(setup.facts, 1, { x: MARGIN + pictureWidth + 10, width: this.width - pictureWidth - 10 });
    doc.y = Math.max(doc.y, below) + 4;
    if (setup.workholding !== null) {
      this.heading("Workholding", 10);
      this.facts(setup.workholding, 1);
    }
    this.heading("Tools", 10);
    this.table(setup.tools);
    this.heading("Operations", 10);
    this.table(setup.operations);
    this.heading("Totals", 10);
    this.facts(setup.totals, 0.6);
  }

  /** label and value rows; `share` of the width, or a place of their own beside a picture */
  facts(rows: readonly FactRow[], share: number, place?: { x: number; width: number }): void {
    const doc = this.doc;
    const x = place?.x ?? MARGIN;
    const width = place?.width ?? this.width * share;
    const labelWidth = width * 0.32;
    const valueWidth = width - labelWidth - 4;
    rows.forEach((row, i) => {
      doc.font("Helvetica").fontSize(FACTS);
      const height = Math.max(
        doc.font("Helvetica-Bold").heightOfString(latin1(row.label), { width: labelWidth }),
        doc.font("Helvetica").heightOfString(latin1(row.value), { width: valueWidth }),
      );
      this.room(height + 3);
      const y = doc.y;
      if (i > 0)
        doc
          .moveTo(x, y)
          .lineTo(x + width, y)
          .lineWidth(0.4)
          .stroke("#dddddd");
      doc
        .font("Helvetica-Bold")
        .fillColor("#333333")
        .text(latin1(row.label), x, y + 1.5, { width: labelWidth });
      doc
        .font("Helvetica")
        .fillColor("#111111")
        .text(latin1(row.value), x + labelWidth + 4, y + 1.5, { width: valueWidth });
      doc.y = y + height + 3;
    });
    doc.x = MARGIN;
  }

  table(table: Table): void {
    const doc = this.doc;
    const total = table.columns.reduce((sum, c) => sum + c.weight, 0);
    const widths = table.columns.map((c) => (this.width * c.weight) / total);
    const header = table.columns.map((c) => c.title);
    const drawRow = (cells: readonly string[], style: "head" | "body" | "foot", shade: boolean): void => {
      const font = style === "body" ? "Helvetica" : "Helvetica-Bold";
      doc.font(font).fontSize(GRID);
      const height =
        Math.max(...cells.map((text, i) => doc.heightOfString(latin1(text), { width: widths[i]! - 4 }))) + 4;
      if (doc.y + height > this.bottom) {
        doc.addPage();
        if (style !== "head") drawRow(header, "head", false);
        doc.font(font).fontSize(GRID);
      }
      const y = doc.y;
      if (style === "head" || shade)
        doc.rect(MARGIN, y, this.width, height).fill(style === "head" ? "#e8ebef" : "#f6f7f9");
      if (style !== "body")
        doc
          .moveTo(MARGIN, style === "head" ? y + height : y)
          .lineTo(MARGIN + this.width, style === "head" ? y + height : y)
          .lineWidth(0.8)
          .stroke("#888888");
      let x = MARGIN;
      cells.forEach((text, i) => {
        doc
          .fillColor("#111111")
          .text(latin1(text), x + 2, y + 2, { width: widths[i]! - 4, align: table.columns[i]!.align });
        x += widths[i]!;
      });
      doc.y = y + height;
    };
    drawRow(header, "head", false);
    for (const [i, row] of table.rows.entries()) drawRow(row, "body", i % 2 === 1);
    if (table.footer !== null) drawRow(table.footer, "foot", false);
    doc.x = MARGIN;
    doc.y += 2;
  }
}
