/**
 * What a customer's quote document must never say: margins, rates and ids (docs/quote.md, "The
 * customer's document"); the API test and scripts/quote-customer-documents.ts read it back
 * against these. The id pattern is a UUID's first two groups, so a cut-off one counts too.
 */
export const INTERNAL_WORDS: readonly RegExp[] = [
  /overhead/i,
  /profit/i,
  /\bMHR\b/,
  /machine hour/i,
  /Gemeinkosten/i,
  /Gewinn/i,
  /Stundensatz/i,
  /EUR\/h/,
  /[0-9a-f]{8}-[0-9a-f]{4}-/i,
];
