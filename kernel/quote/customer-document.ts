/**
 * The customer's quote document (docs/quote.md, "The customer's document"): what a shop sends,
 * in words and figures ready to print. It is built from its own input, which holds nothing
 * internal: the shop's header and terms, the quote number and dates, the customer, the part, a
 * net unit and total price per quantity break and the delivery time. customer-pdf.ts and
 * customer-excel.ts write this one model, so both files say the same.
 */
import type { Picture } from "../setup-sheet/picture-shapes.ts";
import {
  documentWords,
  formatCount,
  formatDate,
  formatEuro,
  formatPercent,
  formatSize,
  type DocumentLanguage,
} from "./customer-labels.ts";

export interface QuantityBreakPrice {
  quantity: number;
  /** net, EUR, cents */
  unit_price: number;
  /** net, EUR, cents */
  total_price: number;
}

export interface CustomerQuoteInput {
  language: DocumentLanguage;
  shop: { name: string; address: string; terms: string };
  quote_number: string;
  /** YYYY-MM-DD */
  date: string;
  /** YYYY-MM-DD */
  valid_until: string;
  customer: { name: string; address: string };
  part: {
    name: string;
    material: string | null;
    /** the stock's or the part's box, mm; null when neither is known */
    size_mm: readonly number[] | null;
    /** null: no mesh to draw */
    picture: Picture | null;
  };
  /** in increasing quantity, each priced from the same plan */
  breaks: readonly QuantityBreakPrice[];
  tax_percentage: number;
  delivery_days: number;
  /** design feedback in plain words, in the document's language, one per item; empty: the section is left out */
  design_feedback: readonly string[];
}

export interface DocumentFact {
  label: string;
  value: string;
}

export interface CustomerQuoteDocument {
  language: DocumentLanguage;
  title: string;
  shop: { name: string; address_lines: string[] };
  /** quote number, date, valid until */
  facts: DocumentFact[];
  customer: { label: string; lines: string[] };
  /** part, material, size */
  part: DocumentFact[];
  picture: Picture | null;
  picture_caption: string;
  prices: {
    heading: string;
    columns: [string, string, string];
    /** the figures as numbers, for a spreadsheet */
    rows: QuantityBreakPrice[];
    /** the figures as the language writes them, for print */
    cells: [string, string, string][];
    note: string;
  };
  delivery: DocumentFact;
  terms: { heading: string; lines: string[] } | null;
  design_feedback: { heading: string; items: string[] } | null;
}

function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line, i, all) => line !== "" || (i > 0 && i < all.length - 1));
}

export function customerQuoteDocument(input: CustomerQuoteInput): CustomerQuoteDocument {
  const { language } = input;
  const w = documentWords(language);
  const customerLines = [input.customer.name, ...lines(input.customer.address)].filter((line) => line !== "");
  return {
    language,
    title: w.title,
    shop: { name: input.shop.name, address_lines: lines(input.shop.address) },
    facts: [
      { label: w.quote_number, value: input.quote_number },
      { label: w.date, value: formatDate(input.date, language) },
      { label: w.valid_until, value: formatDate(input.valid_until, language) },
    ],
    customer: { label: w.customer, lines: customerLines.length > 0 ? customerLines : [w.none] },
    part: [
      { label: w.part, value: input.part.name },
      { label: w.material, value: input.part.material ?? w.none },
      { label: w.size, value: input.part.size_mm ? formatSize(input.part.size_mm, language) : w.none },
    ],
    picture: input.part.picture,
    picture_caption: w.part_picture,
    prices: {
      heading: w.prices,
      columns: [w.quantity, w.unit_price, w.total_price],
      rows: input.breaks.map((b) => ({ ...b })),
      cells: input.breaks.map((b) => [
        formatCount(b.quantity, language),
        formatEuro(b.unit_price, language),
        formatEuro(b.total_price, language),
      ]),
      note: w.prices_note(formatPercent(input.tax_percentage, language)),
    },
    delivery: { label: w.delivery, value: w.delivery_days(input.delivery_days) },
    terms: input.shop.terms.trim() === "" ? null : { heading: w.terms, lines: lines(input.shop.terms) },
    design_feedback:
      input.design_feedback.length === 0
        ? null
        : { heading: w.design_feedback, items: sameSentencesOnce(input.design_feedback, w.places) },
  };
}

/**
 * Each sentence once, with the number of places it applies to: a part's six 1 mm corners are one
 * note to a customer, not six identical ones (the sentences carry no ids to tell them apart).
 */
function sameSentencesOnce(
  sentences: readonly string[],
  places: (count: number, sentence: string) => string,
): string[] {
  const counts = new Map<string, number>();
  for (const sentence of sentences) counts.set(sentence, (counts.get(sentence) ?? 0) + 1);
  return [...counts].map(([sentence, count]) => (count === 1 ? sentence : places(count, sentence)));
}

/** the part's name when the quote job gives none: the uploaded file's name without its CAD extension */
export function partNameFromFile(fileName: string): string {
  return fileName.replace(/\.(step|stp|p21|stl|brep|brp)$/i, "") || fileName;
}

/** Q-2026-0001_Bracket_en.pdf: the quote number and the part's name, in characters every file system takes */
export function customerDocumentFilename(
  quoteNumber: string,
  partName: string,
  language: DocumentLanguage,
  extension: "pdf" | "xlsx",
): string {
  const part =
    partName
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/\.[A-Za-z0-9]{2,5}$/, "")
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^[._]+|_+$/g, "")
      .slice(0, 60) || "part";
  return `${quoteNumber}_${part}_${language}.${extension}`;
}
