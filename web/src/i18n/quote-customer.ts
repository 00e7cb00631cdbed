/**
 * The words of the customer's quote document's form and downloads (quote page) and of the shop
 * details (Settings > Quote settings), in English and German.
 */
import { useI18n } from "./index.ts";

const EN = {
  title: "Customer's quote",
  lead: "The document you send: your shop's details and terms, the quote number, the customer, the part and the price of each quantity. No costs, rates or margins.",
  customerName: "Customer",
  customerAddress: "Customer's address",
  partName: "Part name",
  partNameHint: "Empty: the part's file name.",
  quantityBreaks: "Quantities",
  quantityBreaksHint: "Increasing whole numbers, e.g. 1, 10, 50. Empty: the quantity above.",
  validUntil: "Valid until",
  validUntilHint: "Empty: today plus the validity in the quote settings.",
  deliveryDays: "Delivery (working days)",
  deliveryDaysHint: "Empty: the quote settings' delivery time.",
  number: "Quote number: {number}",
  noNumber: "The first download gives the quote its number.",
  pdf: "Customer's PDF ({language})",
  excel: "Customer's Excel ({language})",
  notANumber: "Write whole numbers separated by commas.",
  shopTitle: "Your shop on the customer's quote",
  shopName: "Shop name",
  shopAddress: "Address",
  terms: "Terms",
  validityDays: "Validity (days)",
  settingsDeliveryDays: "Delivery time (working days)",
} as const;

const DE: Record<keyof typeof EN, string> = {
  title: "Angebot für den Kunden",
  lead: "Das Dokument, das Sie versenden: Ihre Firmendaten und Bedingungen, die Angebotsnummer, der Kunde, das Teil und der Preis je Menge. Keine Kosten, Sätze oder Zuschläge.",
  customerName: "Kunde",
  customerAddress: "Anschrift des Kunden",
  partName: "Teilename",
  partNameHint: "Leer: der Dateiname des Teils.",
  quantityBreaks: "Mengen",
  quantityBreaksHint: "Aufsteigende ganze Zahlen, z. B. 1, 10, 50. Leer: die Stückzahl oben.",
  validUntil: "Gültig bis",
  validUntilHint: "Leer: heute plus die Gültigkeit aus den Angebotseinstellungen.",
  deliveryDays: "Lieferzeit (Arbeitstage)",
  deliveryDaysHint: "Leer: die Lieferzeit aus den Angebotseinstellungen.",
  number: "Angebotsnummer: {number}",
  noNumber: "Der erste Download gibt dem Angebot seine Nummer.",
  pdf: "Kunden-PDF ({language})",
  excel: "Kunden-Excel ({language})",
  notANumber: "Ganze Zahlen, durch Kommas getrennt.",
  shopTitle: "Ihre Firma im Angebot für den Kunden",
  shopName: "Firmenname",
  shopAddress: "Anschrift",
  terms: "Bedingungen",
  validityDays: "Gültigkeit (Tage)",
  settingsDeliveryDays: "Lieferzeit (Arbeitstage)",
};

export type QuoteCustomerTexts = Record<keyof typeof EN, string>;

export function useQuoteCustomerTexts(): QuoteCustomerTexts {
  return useI18n().language === "de" ? DE : EN;
}
