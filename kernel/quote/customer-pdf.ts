/**
 * The customer's quote document as an A4 PDF (pdfkit, the setup sheet's standard Helvetica
 * fonts and picture drawing): the shop's header, the quote's number and dates, the customer,
 * the part with its picture, the prices per quantity break, delivery, design notes and terms,
 * each page footed with the shop, the quote number and the page.
 */
import { bufferedPdf, footPages, latin1, PageCursor } from "../pdf/pages.ts";
import { drawPicture } from "../setup-sheet/picture-pdf.ts";
import type { CustomerQuoteDocument, DocumentFact } from "./customer-document.ts";

/** 15 mm */
const MARGIN = 42;
const FOOTER_SPACE = 18;
const BODY = 9.5;
const INK = "#111111";
/** where the right-hand facts (the quote's, the part's) start: a share of the width */
const FACTS_AT = 0.55;
/** a section heading's height with the space below it */
const HEADING_HEIGHT = 18;
const MUTED = "#555555";

export function customerQuotePdf(document: CustomerQuoteDocument): Promise<Buffer> {
  const quoteNumber = document.facts[0]?.value ?? "";
  const { doc, bytes } = bufferedPdf({
    size: "A4",
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_SPACE, left: MARGIN, right: MARGIN },
    info: { Title: latin1(`${document.title} ${quoteNumber}`), Author: latin1(document.shop.name), Creator: "Swarf" },
  });
  const writer = new Writer(doc, MARGIN);
  writer.header(document);
  writer.customerAndFacts(document);
  writer.part(document);
  writer.prices(document);
  writer.delivery(document.delivery);
  if (document.design_feedback) writer.bullets(document.design_feedback.heading, document.design_feedback.items);
  if (document.terms) writer.paragraph(document.terms.heading, document.terms.lines);
  footPages(doc, {
    text: (page, count) => `${document.shop.name}  ·  ${document.title} ${quoteNumber}  ·  ${page} / ${count}`,
    margin: MARGIN,
    fontSize: 7.5,
    colour: MUTED,
  });
  doc.end();
  return bytes;
}

/** Writes down the page from a cursor, starting a new page when the next block does not fit. */
class Writer extends PageCursor {
  header(document: CustomerQuoteDocument): void {
    const doc = this.doc;
    const top = doc.y;
    doc.font("Helvetica-Bold").fontSize(15).fillColor(INK);
    doc.text(latin1(document.shop.name), MARGIN, top, { width: this.width * 0.6 });
    doc.font("Helvetica").fontSize(BODY).fillColor(MUTED);
    for (const line of document.shop.address_lines) doc.text(latin1(line), MARGIN, doc.y, { width: this.width * 0.6 });
    const below = doc.y;
    doc.font("Helvetica-Bold").fontSize(22).fillColor(INK);
    doc.text(latin1(document.title), MARGIN, top, { width: this.width, align: "right" });
    doc.y = Math.max(below, doc.y) + 8;
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + this.width, doc.y)
      .lineWidth(1)
      .stroke(INK);
    doc.y += 12;
  }

  customerAndFacts(document: CustomerQuoteDocument): void {
    const doc = this.doc;
    const top = doc.y;
    doc.font("Helvetica-Bold").fontSize(BODY).fillColor(MUTED).text(latin1(document.customer.label), MARGIN, top);
    doc
      .font("Helvetica")
      .fontSize(BODY + 0.5)
      .fillColor(INK);
    for (const line of document.customer.lines) doc.text(latin1(line), MARGIN, doc.y, { width: this.width * 0.5 });
    const below = doc.y;
    doc.y = top;
    this.facts(document.facts, { x: MARGIN + this.width * FACTS_AT, width: this.width * (1 - FACTS_AT) });
    doc.y = Math.max(below, doc.y) + 14;
  }

  part(document: CustomerQuoteDocument): void {
    const doc = this.doc;
    const pictureWidth = document.picture ? this.width * 0.5 : 0;
    const pictureHeight = document.picture ? (document.picture.height * pictureWidth) / document.picture.width : 0;
    this.room(Math.max(pictureHeight + 20, 60));
    const top = doc.y;
    if (document.picture) {
      drawPicture(doc, document.picture, { x: MARGIN, y: top, width: pictureWidth });
      doc.rect(MARGIN, top, pictureWidth, pictureHeight).lineWidth(0.5).stroke("#cccccc");
      doc.font("Helvetica").fontSize(7).fillColor(MUTED);
      doc.text(latin1(document.picture_caption), MARGIN, top + pictureHeight + 2, { width: pictureWidth });
    }
    const below = doc.y;
    doc.y = top;
    // in the column of the quote's facts above, so the labels line up
    const x = MARGIN + (pictureWidth > 0 ? this.width * FACTS_AT : 0);
    this.facts(document.part, { x, width: MARGIN + this.width - x });
    doc.y = Math.max(below, doc.y) + 14;
  }

  prices(document: CustomerQuoteDocument): void {
    const doc = this.doc;
    const { prices } = document;
    // with the column heads and the first two breaks
    this.heading(prices.heading, 3 * 16);
    const widths = [0.3, 0.35, 0.35].map((share) => share * this.width);
    const row = (cells: readonly string[], bold: boolean, shade: boolean): void => {
      doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(BODY);
      const height = 16;
      this.room(height);
      const y = doc.y;
      if (shade) doc.rect(MARGIN, y, this.width, height).fill(bold ? "#e8ebef" : "#f6f7f9");
      let x = MARGIN;
      cells.forEach((text, i) => {
        doc.fillColor(INK).text(latin1(text), x + 4, y + 4, {
          width: widths[i]! - 8,
          align: i === 0 ? "left" : "right",
          lineBreak: false,
        });
        x += widths[i]!;
      });
      doc.y = y + height;
    };
    row(prices.columns, true, true);
    for (const [i, cells] of prices.cells.entries()) row(cells, false, i % 2 === 1);
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + this.width, doc.y)
      .lineWidth(0.6)
      .stroke("#888888");
    doc.y += 4;
    doc.font("Helvetica").fontSize(8).fillColor(MUTED).text(latin1(prices.note), MARGIN, doc.y, { width: this.width });
    doc.y += 10;
  }

  delivery(fact: DocumentFact): void {
    this.facts([fact]);
    this.doc.y += 10;
  }

  /** keeps the heading on the page of the first `following` points of its section */
  heading(text: string, following: number): void {
    this.room(HEADING_HEIGHT + following);
    this.doc.font("Helvetica-Bold").fontSize(11.5).fillColor(INK).text(latin1(text), MARGIN, this.doc.y);
    this.doc.y += 4;
  }

  facts(rows: readonly DocumentFact[], place?: { x: number; width: number }): void {
    const doc = this.doc;
    const x = place?.x ?? MARGIN;
    const width = place?.width ?? this.width * 0.6;
    const labelWidth = width * 0.38;
    for (const row of rows) {
      doc.font("Helvetica").fontSize(BODY);
      const height = doc.heightOfString(latin1(row.value), { width: width - labelWidth - 4 });
      this.room(height + 4);
      const y = doc.y;
      doc.font("Helvetica-Bold").fillColor(MUTED).text(latin1(row.label), x, y, { width: labelWidth });
      doc
        .font("Helvetica")
        .fillColor(INK)
        .text(latin1(row.value), x + labelWidth + 4, y, { width: width - labelWidth - 4 });
      doc.y = y + height + 4;
    }
    doc.x = MARGIN;
  }

  bullets(heading: string, items: readonly string[]): void {
    const doc = this.doc;
    doc.font("Helvetica").fontSize(BODY);
    this.heading(heading, doc.heightOfString(latin1(items[0] ?? ""), { width: this.width - 14 }) + 3);
    for (const item of items) {
      doc.font("Helvetica").fontSize(BODY);
      const height = doc.heightOfString(latin1(item), { width: this.width - 14 });
      this.room(height + 3);
      const y = doc.y;
      doc.fillColor(INK).text("•", MARGIN + 2, y);
      doc.text(latin1(item), MARGIN + 14, y, { width: this.width - 14 });
      doc.y += 3;
    }
    doc.y += 8;
  }

  paragraph(heading: string, lines: readonly string[]): void {
    const doc = this.doc;
    doc.font("Helvetica").fontSize(8.5);
    this.heading(heading, doc.heightOfString(latin1(lines.slice(0, 3).join("\n")), { width: this.width }));
    doc.font("Helvetica").fontSize(8.5).fillColor(INK);
    for (const line of lines) doc.text(latin1(line), MARGIN, doc.y, { width: this.width });
    doc.y += 8;
  }
}
