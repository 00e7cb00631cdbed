/**
 * The texts and formats of the user's language: the browser's first language we have (en or
 * de), or the one chosen with the switch (kept in localStorage). Numbers, dates and money go
 * through Intl in the browser's own locale, so a de-CH reader gets de-CH's separators.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { de } from "./de.ts";
import { en, type Messages } from "./en.ts";

export type Language = "en" | "de";
export const LANGUAGES: readonly Language[] = ["en", "de"];
const DICTIONARIES: Record<Language, Messages> = { en, de };
const STORAGE_KEY = "swarf.language";

export function initialLanguage(): Language {
  try {
    const chosen = localStorage.getItem(STORAGE_KEY);
    if (chosen === "en" || chosen === "de") return chosen;
  } catch {
    // storage refused (a private window's policy): the browser's language decides
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split("-")[0];
    if (primary === "de" || primary === "en") return primary;
  }
  return "en";
}

export function rememberLanguage(language: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // not kept across visits; the switch still works for this one
  }
}

/** the locale for Intl: the browser's own tag when it is of the chosen language */
function localeFor(language: Language): string {
  const browser = navigator.languages?.find((tag) => tag.toLowerCase().startsWith(language));
  return browser ?? language;
}

export interface I18n {
  language: Language;
  t: Messages;
  setLanguage(language: Language): void;
  formatNumber(value: number, options?: Intl.NumberFormatOptions): string;
  formatMoney(value: number, currency: string): string;
  formatDateTime(iso: string): string;
}

export function makeI18n(language: Language, setLanguage: (language: Language) => void): I18n {
  const locale = localeFor(language);
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  return {
    language,
    t: DICTIONARIES[language],
    setLanguage,
    formatNumber: (value, options) => new Intl.NumberFormat(locale, options).format(value),
    formatMoney: (value, currency) => new Intl.NumberFormat(locale, { style: "currency", currency }).format(value),
    formatDateTime: (iso) => dateTime.format(new Date(iso)),
  };
}

export const I18nContext = createContext<I18n>(makeI18n("en", () => undefined));

export function useI18n(): I18n {
  return useContext(I18nContext);
}

/** fills {name} placeholders; the values are text, rendered as text */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
