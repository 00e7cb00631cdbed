/**
 * A breakdown as a file: CSV or an Excel workbook (exceljs), in English or German. German:
 * German labels, decimal comma, ";" between CSV fields (what a German spreadsheet expects),
 * euro amounts formatted "1.234,56 €". Excel cells hold numbers with number formats, so any
 * reader shows the same totals as the JSON breakdown. A quote of an incomplete plan says so
 * in its first line, before anything else, so nobody sends it without seeing that.
 *
 * Text cells carry names the user typed (project, customer, setup costs, additional costs), and
 * a spreadsheet takes a cell that begins with "=", "+", "-", "@", a tab or a carriage return as
 * a formula: such a cell gets a leading single quote (and, in CSV, double quotes round it), so
 * it shows as the text it is (OWASP, "CSV Injection"). Amounts are numbers and stay numbers.
 */
import ExcelJS from "exceljs";
import type { Completeness } from "../cam/plan-types.ts";
import type { BreakdownJson } from "./breakdown.ts";
import { incompletePlanBanner } from "./completeness-text.ts";
import { WEAR_FAMILY_NAMES, type WearFamily } from "./cost-model.ts";

export type ExportLanguage = "en" | "de";
export type ExportFormat = "csv" | "excel";

const LABELS = {
  en: {
    title: "Quote",
    project: "Project",
    customer: "Customer",
    date: "Date",
    quantity: "Quantity",
    mhr: "Machine hour rate (EUR/h)",
    section: "Item",
    amount: "Amount (EUR)",
    machining: "Machining",
    setup_cost: "Setup cost",
    loading: "Loading and unloading",
    operator_attendance: "Operator attendance",
    programming: "Programming and review",
    tool_wear: "Tool wear",
    deburring: "Deburring",
    inspection: "Inspection",
    material: "Material",
    additional_cost: "Additional cost",
    setups: "Setups",
    setup: "Setup",
    time: "Machining time per part (min)",
    machining_cost: "Machining cost (EUR)",
    setup_cost_name: "Setup cost",
    setup_cost_amount: "Setup cost (EUR)",
    direct_cost: "Direct cost",
    overhead: "Overhead",
    manufacturing_cost: "Manufacturing cost",
    profit: "Profit",
    price_before_discount: "Price before discount",
    discount: "Discount",
    net_price: "Net price",
    tax: "Tax",
    total_price: "Total price",
    unit_price: "Unit price (net)",
    totals: "Totals",
    warnings: "Warnings",
  },
  de: {
    title: "Angebot",
    project: "Projekt",
    customer: "Kunde",
    date: "Datum",
    quantity: "Stückzahl",
    mhr: "Maschinenstundensatz (EUR/h)",
    section: "Position",
    amount: "Betrag (EUR)",
    machining: "Bearbeitung",
    setup_cost: "Rüstkosten",
    loading: "Be- und Entladen",
    operator_attendance: "Maschinenbedienung",
    programming: "Programmierung und Kontrolle",
    tool_wear: "Werkzeugverschleiß",
    deburring: "Entgraten",
    inspection: "Qualitätsprüfung",
    material: "Material",
    additional_cost: "Zusatzkosten",
    setups: "Aufspannungen",
    setup: "Aufspannung",
    time: "Bearbeitungszeit je Teil (min)",
    machining_cost: "Bearbeitungskosten (EUR)",
    setup_cost_name: "Rüstkosten",
    setup_cost_amount: "Rüstkosten (EUR)",
    direct_cost: "Einzelkosten",
    overhead: "Gemeinkosten",
    manufacturing_cost: "Herstellkosten",
    profit: "Gewinn",
    price_before_discount: "Preis vor Rabatt",
    discount: "Rabatt",
    net_price: "Nettopreis",
    tax: "Umsatzsteuer",
    total_price: "Gesamtpreis",
    unit_price: "Stückpreis (netto)",
    totals: "Summen",
    warnings: "Hinweise",
  },
} as const;

export type LabelKey = keyof (typeof LABELS)["en"];
export function label(language: ExportLanguage, key: LabelKey): string {
  return LABELS[language][key];
}

export interface QuoteHeader {
  project_name: string;
  customer: string;
  project_id: string;
  /** YYYY-MM-DD */
  date: string;
  /** the plan's completeness: an incomplete plan puts a line at the top; null without figures */
  completeness: Completeness | null;
}

/** a row of the export: a label and an amount, or a heading */
type Row = { label: string; amount: number | null; percent?: number };

/** a cost line's name in `language`: what the exports print and the breakdown's `title` says */
export function lineLabel(
  language: ExportLanguage,
  line: Pick<BreakdownJson["lines"][number], "kind" | "label" | "ref">,
): string {
  const kind = label(language, line.kind);
  // lines of one kind per order carry their figures in the label (English): the kind alone reads in either language
  const alone = line.kind !== "machining" && line.kind !== "setup_cost" && line.kind !== "additional_cost";
  if (line.kind === "tool_wear") return `${kind}: ${WEAR_FAMILY_NAMES[language][line.ref as WearFamily] ?? line.ref}`;
  return alone ? kind : `${kind}: ${line.label}`;
}

/** the breakdown as label/amount rows, lines first, then the totals */
export function exportRows(b: BreakdownJson, language: ExportLanguage): { lines: Row[]; totals: Row[] } {
  const l = (key: LabelKey) => label(language, key);
  return {
    lines: b.lines.map((line) => ({ label: lineLabel(language, line), amount: line.amount })),
    totals: [
      { label: l("direct_cost"), amount: b.direct_cost },
      { label: l("overhead"), amount: b.overhead, percent: b.overhead_percentage },
      { label: l("manufacturing_cost"), amount: b.manufacturing_cost },
      { label: l("profit"), amount: b.profit, percent: b.profit_percentage },
      { label: l("price_before_discount"), amount: b.price_before_discount },
      { label: l("discount"), amount: -b.discount, percent: b.discount_percentage },
      { label: l("net_price"), amount: b.net_price },
      { label: l("tax"), amount: b.tax, percent: b.tax_percentage },
      { label: l("total_price"), amount: b.total_price },
      { label: l("unit_price"), amount: b.unit_price },
    ],
  };
}

/** 1234.5 -> "1234.50" (en) or "1234,50" (de); no thousands separators, so the cell stays a number */
export function formatAmount(value: number, language: ExportLanguage, places = 2): string {
  const text = value.toFixed(places);
  return language === "de" ? text.replace(".", ",") : text;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** text as a spreadsheet must show it: one that would start a formula gets a leading quote */
export function inertText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** a CSV cell: text, or a number already written in the export's notation */
type CsvCell = string | { number: string };

function csvField(cell: CsvCell, separator: string): string {
  if (typeof cell !== "string") return cell.number;
  const text = inertText(cell);
  const quoted = text !== cell || /["\r\n]/.test(text) || text.includes(separator);
  return quoted ? `"${text.replaceAll('"', '""')}"` : text;
}

export function quoteCsv(b: BreakdownJson, header: QuoteHeader, language: ExportLanguage): Buffer {
  const sep = language === "de" ? ";" : ",";
  const l = (key: LabelKey) => label(language, key);
  const money = (v: number) => ({ number: formatAmount(v, language) });
  const banner = incompletePlanBanner(header.completeness, language);
  const rows: CsvCell[][] = [
    ...(banner ? [[banner], []] : []),
    [l("title"), header.project_name],
    [l("customer"), header.customer],
    [l("project"), header.project_id],
    [l("date"), header.date],
    [l("quantity"), { number: formatAmount(b.quantity, language, Number.isInteger(b.quantity) ? 0 : 2) }],
    [l("mhr"), money(b.mhr)],
    [],
    [l("section"), l("amount")],
  ];
  const { lines, totals } = exportRows(b, language);
  for (const row of lines) rows.push([row.label, money(row.amount!)]);
  rows.push([]);
  for (const row of totals)
    rows.push([
      row.percent === undefined ? row.label : `${row.label} (${formatAmount(row.percent, language, 2)} %)`,
      money(row.amount!),
    ]);
  rows.push([]);
  rows.push([l("setup"), l("time"), l("machining_cost"), l("setup_cost_name"), l("setup_cost_amount")]);
  for (const s of b.setups) {
    rows.push([
      s.name,
      { number: formatAmount(s.machining_time_s / 60, language, 2) },
      money(s.machining_cost),
      s.setup_cost.name,
      money(s.setup_cost.amount),
    ]);
  }
  if (b.warnings.length > 0) {
    rows.push([]);
    rows.push([l("warnings")]);
    for (const w of b.warnings) rows.push([w.code, w.message]);
  }
  const text = `${rows.map((r) => r.map((v) => csvField(v, sep)).join(sep)).join("\r\n")}\r\n`;
  // a byte order mark: spreadsheet programs then read the file as UTF-8 (umlauts)
  return Buffer.from(`\uFEFF${text}`, "utf8");
}

/** Excel number formats: the file stores them in one notation; a German Excel shows "1.234,56 €" */
const EURO_FORMAT = '#,##0.00 "€";-#,##0.00 "€"';
const PERCENT_FORMAT = '0.00" %"';
const MINUTES_FORMAT = "0.00";

export async function quoteWorkbook(b: BreakdownJson, header: QuoteHeader, language: ExportLanguage): Promise<Buffer> {
  const l = (key: LabelKey) => label(language, key);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Swarf";
  workbook.created = new Date(`${header.date}T00:00:00Z`);
  const sheet = workbook.addWorksheet(l("title"), { views: [{ showGridLines: false }] });
  sheet.columns = [{ width: 44 }, { width: 18 }, { width: 18 }, { width: 26 }, { width: 18 }];

  const banner = incompletePlanBanner(header.completeness, language);
  if (banner) {
    const row = sheet.addRow([banner]);
    row.font = { bold: true, color: { argb: "FFC00000" } };
    row.getCell(1).alignment = { wrapText: true, vertical: "top" };
    row.height = 48;
    sheet.mergeCells(row.number, 1, row.number, 5);
    sheet.addRow([]);
  }
  const title = sheet.addRow([`${l("title")}: ${header.project_name}`]);
  title.font = { bold: true, size: 14 };
  sheet.addRow([l("customer"), header.customer]);
  sheet.addRow([l("project"), header.project_id]);
  sheet.addRow([l("date"), header.date]);
  sheet.addRow([l("quantity"), b.quantity]).getCell(2).numFmt = Number.isInteger(b.quantity) ? "0" : "0.00";
  sheet.addRow([l("mhr"), b.mhr]).getCell(2).numFmt = EURO_FORMAT;
  sheet.addRow([]);

  const heading = sheet.addRow([l("section"), l("amount")]);
  heading.font = { bold: true };
  heading.eachCell((cell) => (cell.border = { bottom: { style: "thin" } }));
  const { lines, totals } = exportRows(b, language);
  for (const row of lines) sheet.addRow([row.label, row.amount]).getCell(2).numFmt = EURO_FORMAT;
  sheet.addRow([]);
  const totalsHeading = sheet.addRow([l("totals"), l("amount"), "%"]);
  totalsHeading.font = { bold: true };
  totalsHeading.eachCell((cell) => (cell.border = { bottom: { style: "thin" } }));
  for (const row of totals) {
    const added = sheet.addRow(
      row.percent === undefined ? [row.label, row.amount] : [row.label, row.amount, row.percent],
    );
    added.getCell(2).numFmt = EURO_FORMAT;
    if (row.percent !== undefined) added.getCell(3).numFmt = PERCENT_FORMAT;
    if (row.label === l("total_price") || row.label === l("manufacturing_cost")) added.font = { bold: true };
  }
  sheet.addRow([]);

  const setupHeading = sheet.addRow([
    l("setup"),
    l("time"),
    l("machining_cost"),
    l("setup_cost_name"),
    l("setup_cost_amount"),
  ]);
  setupHeading.font = { bold: true };
  setupHeading.eachCell((cell) => (cell.border = { bottom: { style: "thin" } }));
  for (const s of b.setups) {
    const row = sheet.addRow([
      s.name,
      Number((s.machining_time_s / 60).toFixed(2)),
      s.machining_cost,
      s.setup_cost.name,
      s.setup_cost.amount,
    ]);
    row.getCell(2).numFmt = MINUTES_FORMAT;
    row.getCell(3).numFmt = EURO_FORMAT;
    row.getCell(5).numFmt = EURO_FORMAT;
  }
  if (b.warnings.length > 0) {
    sheet.addRow([]);
    sheet.addRow([l("warnings")]).font = { bold: true };
    for (const w of b.warnings) sheet.addRow([w.code, w.message]);
  }
  // every text cell, whichever row put it there; the other cells of a merge are of type Merge
  sheet.eachRow((row) =>
    row.eachCell((cell) => {
      if (cell.type === ExcelJS.ValueType.String) cell.value = inertText(cell.value as string);
    }),
  );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  excel: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** quote_<project id>_<language>.csv|xlsx */
export function exportFilename(projectId: string, format: ExportFormat, language: ExportLanguage): string {
  return `quote_${projectId}_${language}.${format === "csv" ? "csv" : "xlsx"}`;
}
