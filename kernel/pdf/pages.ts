/**
 * What the kernel's pdfkit documents (the setup sheet, the customer's quote) share: the bytes
 * once the document ends, Latin-1 text for the standard fonts, a footer on every page and a
 * cursor that starts a new page when the next block does not fit.
 */
import PDFDocument from "pdfkit";

/** pdfkit's standard fonts write WinAnsi: the rest would come out as other characters */
export function latin1(text: string): string {
  return text.replace(/[^\u0020-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u2026\u20ac\n]/g, "?");
}

/** A document with every page buffered (so footers can be written last) and its bytes once it ends. */
export function bufferedPdf(options: PDFKit.PDFDocumentOptions): { doc: PDFKit.PDFDocument; bytes: Promise<Buffer> } {
  const doc = new PDFDocument({ ...options, bufferPages: true });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  return { doc, bytes };
}

export interface Footer {
  /** the footer's words on page `page` (from 1) of `count`, not yet Latin-1 */
  text: (page: number, count: number) => string;
  margin: number;
  fontSize: number;
  colour: string;
}

/** Writes a footer, right-aligned in the bottom margin, on every buffered page. */
export function footPages(doc: PDFKit.PDFDocument, footer: Footer): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    // in the bottom margin: with the margin at 0 pdfkit does not start a new page for it
    doc.page.margins.bottom = 0;
    doc
      .font("Helvetica")
      .fontSize(footer.fontSize)
      .fillColor(footer.colour)
      .text(
        latin1(footer.text(i + 1 - range.start, range.count)),
        footer.margin,
        doc.page.height - footer.margin - footer.fontSize - 1,
        { width: doc.page.width - 2 * footer.margin, align: "right", lineBreak: false },
      );
    doc.page.margins.bottom = bottom;
  }
}

/** Writes down the page from a cursor (`doc.y`) between equal side margins. */
export class PageCursor {
  constructor(
    protected readonly doc: PDFKit.PDFDocument,
    protected readonly margin: number,
  ) {}

  protected get width(): number {
    return this.doc.page.width - 2 * this.margin;
  }

  protected get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** a new page unless `height` fits below the cursor */
  protected room(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }
}
