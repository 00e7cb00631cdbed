/**
 * The words and number formats of the customer's quote document, in English and German. Only
 * what a customer reads: no cost line, rate, margin or id has a label here.
 */
export type DocumentLanguage = "en" | "de";
export const DOCUMENT_LANGUAGES = ["en", "de"] as const satisfies readonly DocumentLanguage[];

const WORDS = {
  en: {
    title: "Quotation",
    quote_number: "Quote number",
    date: "Date",
    valid_until: "Valid until",
    customer: "Customer",
    part: "Part",
    material: "Material",
    size: "Size",
    prices: "Prices",
    quantity: "Quantity",
    unit_price: "Unit price",
    total_price: "Total",
    delivery: "Delivery",
    terms: "Terms",
    design_feedback: "Notes on the design",
    none: "not given",
    prices_note: (tax: string) => `Prices in EUR, excluding VAT (${tax} %).`,
    delivery_days: (days: number) => `${days} working ${days === 1 ? "day" : "days"} after order`,
    part_picture: "The part as quoted",
    places: (count: number, sentence: string) => `In ${count} places: ${lowerFirst(sentence)}`,
  },
  de: {
    title: "Angebot",
    quote_number: "Angebotsnummer",
    date: "Datum",
    valid_until: "Gültig bis",
    customer: "Kunde",
    part: "Teil",
    material: "Werkstoff",
    size: "Abmessungen",
    prices: "Preise",
    quantity: "Menge",
    unit_price: "Stückpreis",
    total_price: "Gesamt",
    delivery: "Lieferzeit",
    terms: "Bedingungen",
    design_feedback: "Hinweise zur Konstruktion",
    none: "nicht angegeben",
    prices_note: (tax: string) => `Preise in EUR, zuzüglich Umsatzsteuer (${tax} %).`,
    delivery_days: (days: number) => `${days} ${days === 1 ? "Arbeitstag" : "Arbeitstage"} nach Auftragseingang`,
    part_picture: "Das angebotene Teil",
    places: (count: number, sentence: string) => `An ${count} Stellen: ${lowerFirst(sentence)}`,
  },
} as const;

/** the sentences begin with an article ("An internal corner", "Eine Wand"), lower case after a lead */
function lowerFirst(sentence: string): string {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}

export type DocumentWords = (typeof WORDS)[DocumentLanguage];

export function documentWords(language: DocumentLanguage): DocumentWords {
  return WORDS[language];
}

const LOCALE: Record<DocumentLanguage, string> = { en: "en-GB", de: "de-DE" };

/** 1234.5 -> "€1,234.50" (en) or "1.234,50 €" (de) */
export function formatEuro(value: number, language: DocumentLanguage): string {
  return new Intl.NumberFormat(LOCALE[language], { style: "currency", currency: "EUR" }).format(value);
}

/** a whole number with the language's thousands separator: 1,000 or 1.000 */
export function formatCount(value: number, language: DocumentLanguage): string {
  return new Intl.NumberFormat(LOCALE[language], { maximumFractionDigits: 0 }).format(value);
}

/** up to two decimals, the language's decimal sign: 19 or 7,5 */
export function formatPercent(value: number, language: DocumentLanguage): string {
  return new Intl.NumberFormat(LOCALE[language], { maximumFractionDigits: 2 }).format(value);
}

/** "2026-11-29" -> "29 November 2026" (en) or "29.11.2026" (de) */
export function formatDate(isoDate: string, language: DocumentLanguage): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return new Intl.DateTimeFormat(LOCALE[language], {
    timeZone: "UTC",
    day: language === "de" ? "2-digit" : "numeric",
    month: language === "de" ? "2-digit" : "long",
    year: "numeric",
  }).format(date);
}

/** millimetres to a tenth, the language's decimal sign: "120 × 80,5 × 25 mm" */
export function formatSize(size: readonly number[], language: DocumentLanguage): string {
  const number = new Intl.NumberFormat(LOCALE[language], { maximumFractionDigits: 1 });
  return `${size.map((v) => number.format(v)).join(" × ")} mm`;
}
