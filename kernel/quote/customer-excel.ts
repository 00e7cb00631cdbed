/**
 * The customer's quote document as an Excel workbook (exceljs): one sheet with the shop's
 * header, the quote's number and dates, the customer, the part with its picture, the prices per
 * quantity break (numbers in a euro format, so a spreadsheet can work with them), delivery,
 * design notes and terms. Text a person typed that a spreadsheet would take for a formula is
 * made inert as in the costing export (export.ts).
 *
 * Sentences and long values span the sheet's four columns, wrapped, each row as high as its
 * lines: a cell's text that runs past the last column is cut off when printed, and spreadsheets
 * do not size the rows of merged cells themselves.
 */
import ExcelJS from "exceljs";
import sharp from "sharp";
import { pictureSvg } from "../setup-sheet/picture-svg.ts";
import type { Picture } from "../setup-sheet/picture-shapes.ts";
import type { CustomerQuoteDocument, DocumentFact } from "./customer-document.ts";
import { inertText } from "./export.ts";

const EURO_FORMAT = '#,##0.00 "€";-#,##0.00 "€"';
/** character widths of the columns: label, then three that values and sentences span */
const COLUMN_WIDTHS = [24, 22, 22, 30];
const COLUMNS = COLUMN_WIDTHS.length;
/** points per line of 11 pt text */
const LINE_HEIGHT = 15;
/** a column width counts digits; prose of proportional letters fits about this many more characters */
const CHARACTERS_PER_WIDTH = 1.1;
/** the picture's width on the sheet, pixels (the first three columns) */
const PICTURE_WIDTH_PX = 440;
/** pixels per default row (15 pt) */
const ROW_PX = 20;

export async function customerQuoteWorkbook(document: CustomerQuoteDocument, date: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = document.shop.name || "Swarf";
  workbook.created = new Date(`${date}T00:00:00Z`);
  const sheet = workbook.addWorksheet(document.title, {
    views: [{ showGridLines: false }],
    pageSetup: { paperSize: 9, orientation: "portrait", fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  sheet.columns = COLUMN_WIDTHS.map((width) => ({ width }));
  const blank = () => sheet.addRow([]);
  const facts = (rows: readonly DocumentFact[]) => {
    for (const fact of rows) {
      const row = sheet.addRow([fact.label, fact.value]);
      row.getCell(1).font = { bold: true };
      row.getCell(1).alignment = { vertical: "top" };
      span(sheet, row, 2, fact.value);
    }
  };
  const sentence = (text: string, font?: Partial<ExcelJS.Font>) => {
    const row = sheet.addRow([text]);
    if (font) row.font = font;
    span(sheet, row, 1, text);
  };

  sheet.addRow([document.shop.name]).font = { bold: true, size: 14 };
  for (const line of document.shop.address_lines) sentence(line);
  blank();
  sheet.addRow([document.title]).font = { bold: true, size: 16 };
  facts(document.facts);
  blank();
  sheet.addRow([document.customer.label]).font = { bold: true };
  for (const line of document.customer.lines) sentence(line);
  blank();
  facts(document.part);
  if (document.picture) {
    await addPicture(workbook, sheet, document.picture, document.picture_caption);
    sentence(document.picture_caption, { italic: true, size: 9 });
  }
  blank();
  sheet.addRow([document.prices.heading]).font = { bold: true, size: 12 };
  const heading = sheet.addRow([...document.prices.columns]);
  heading.font = { bold: true };
  heading.eachCell((cell, column) => {
    cell.border = { bottom: { style: "thin" } };
    // over the figures, which a spreadsheet puts to the right
    if (column > 1) cell.alignment = { horizontal: "right" };
  });
  for (const price of document.prices.rows) {
    const row = sheet.addRow([price.quantity, price.unit_price, price.total_price]);
    row.getCell(1).numFmt = "#,##0";
    row.getCell(1).alignment = { horizontal: "left" };
    row.getCell(2).numFmt = EURO_FORMAT;
    row.getCell(3).numFmt = EURO_FORMAT;
  }
  sentence(document.prices.note, { italic: true });
  blank();
  facts([document.delivery]);
  if (document.design_feedback) {
    blank();
    sheet.addRow([document.design_feedback.heading]).font = { bold: true };
    for (const item of document.design_feedback.items) sentence(`• ${item}`);
  }
  if (document.terms) {
    blank();
    sheet.addRow([document.terms.heading]).font = { bold: true };
    for (const line of document.terms.lines) sentence(line);
  }
  sheet.eachRow((row) =>
    row.eachCell((cell) => {
      if (cell.type === ExcelJS.ValueType.String) cell.value = inertText(cell.value as string);
    }),
  );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The row's text from column `from` to the last, wrapped, the row as high as its lines. */
function span(sheet: ExcelJS.Worksheet, row: ExcelJS.Row, from: number, text: string): void {
  sheet.mergeCells(row.number, from, row.number, COLUMNS);
  row.getCell(from).alignment = { vertical: "top", wrapText: true };
  const width = COLUMN_WIDTHS.slice(from - 1).reduce((a, b) => a + b, 0) * CHARACTERS_PER_WIDTH;
  const lines = text.split("\n").reduce((n, line) => n + Math.max(1, Math.ceil(line.length / width)), 0);
  if (lines > 1) row.height = lines * LINE_HEIGHT;
}

/** The part's drawing as a PNG below the part's facts, over empty rows kept for it. */
async function addPicture(
  workbook: ExcelJS.Workbook,
  sheet: ExcelJS.Worksheet,
  picture: Picture,
  title: string,
): Promise<void> {
  const png = await sharp(Buffer.from(pictureSvg(picture, title, "p")), { density: 144 })
    .flatten({ background: "#ffffff" })
    .png()
    .toBuffer();
  const height = Math.round((PICTURE_WIDTH_PX * picture.height) / picture.width);
  // exceljs types its Buffer as an ArrayBuffer; it reads a Node Buffer
  const image = workbook.addImage({ buffer: png as unknown as ArrayBuffer, extension: "png" });
  const top = sheet.rowCount + 1;
  sheet.addImage(image, { tl: { col: 0, row: top }, ext: { width: PICTURE_WIDTH_PX, height } });
  for (let i = 0; i <= Math.ceil(height / ROW_PX); i++) sheet.addRow([]);
}
