/**
 * The customer's quote document as an Excel workbook (exceljs): one sheet with the shop's
 * header, the quote's number and dates, the customer, the part, the prices per quantity break
 * (numbers in a euro format, so a spreadsheet can work with them), delivery, design notes and
 * terms. Text a person typed that a spreadsheet would take for a formula is made inert as in
 * the costing export (export.ts).
 */
import ExcelJS from "exceljs";
import type { CustomerQuoteDocument, DocumentFact } from "./customer-document.ts";
import { inertText } from "./export.ts";

const EURO_FORMAT = '#,##0.00 "€";-#,##0.00 "€"';

export async function customerQuoteWorkbook(document: CustomerQuoteDocument, date: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = document.shop.name || "Swarf";
  workbook.created = new Date(`${date}T00:00:00Z`);
  const sheet = workbook.addWorksheet(document.title, {
    views: [{ showGridLines: false }],
    pageSetup: { paperSize: 9, orientation: "portrait", fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  sheet.columns = [{ width: 24 }, { width: 22 }, { width: 22 }, { width: 30 }];
  const blank = () => sheet.addRow([]);
  const facts = (rows: readonly DocumentFact[]) => {
    for (const row of rows) sheet.addRow([row.label, row.value]).getCell(1).font = { bold: true };
  };

  sheet.addRow([document.shop.name]).font = { bold: true, size: 14 };
  for (const line of document.shop.address_lines) sheet.addRow([line]);
  blank();
  sheet.addRow([document.title]).font = { bold: true, size: 16 };
  facts(document.facts);
  blank();
  sheet.addRow([document.customer.label]).font = { bold: true };
  for (const line of document.customer.lines) sheet.addRow([line]);
  blank();
  facts(document.part);
  blank();
  sheet.addRow([document.prices.heading]).font = { bold: true, size: 12 };
  const heading = sheet.addRow([...document.prices.columns]);
  heading.font = { bold: true };
  heading.eachCell((cell) => (cell.border = { bottom: { style: "thin" } }));
  for (const price of document.prices.rows) {
    const row = sheet.addRow([price.quantity, price.unit_price, price.total_price]);
    row.getCell(1).numFmt = "#,##0";
    row.getCell(1).alignment = { horizontal: "left" };
    row.getCell(2).numFmt = EURO_FORMAT;
    row.getCell(3).numFmt = EURO_FORMAT;
  }
  sheet.addRow([document.prices.note]).font = { italic: true };
  blank();
  facts([document.delivery]);
  if (document.design_feedback) {
    blank();
    sheet.addRow([document.design_feedback.heading]).font = { bold: true };
    for (const item of document.design_feedback.items) sheet.addRow([`• ${item}`]);
  }
  if (document.terms) {
    blank();
    sheet.addRow([document.terms.heading]).font = { bold: true };
    for (const line of document.terms.lines) sheet.addRow([line]);
  }
  sheet.eachRow((row) =>
    row.eachCell((cell) => {
      if (cell.type === ExcelJS.ValueType.String) cell.value = inertText(cell.value as string);
    }),
  );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
