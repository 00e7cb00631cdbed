/** Words of the cost model: its lines on the quote page and its form on the quote and settings pages. */
import type { CostModelField, LineKind, WearFamily } from "../api/cost-model.ts";
import { useI18n } from "./index.ts";

interface CostModelMessages {
  linesTitle: string;
  colLine: string;
  colQuantity: string;
  colRate: string;
  colAmount: string;
  kinds: Record<LineKind, string>;
  units: Record<"h" | "min" | "kg" | "part" | "order", string>;
  formTitle: string;
  formLead: string;
  settingsTitle: string;
  settingsLead: string;
  fields: Record<CostModelField, string>;
  toolWear: string;
  families: Record<WearFamily, string>;
  inherited: string;
  notANumber: string;
  save: string;
  saving: string;
  saved: string;
}

const en: CostModelMessages = {
  linesTitle: "Cost lines",
  colLine: "Line",
  colQuantity: "Quantity",
  colRate: "Rate",
  colAmount: "Amount",
  kinds: {
    machining: "Machining",
    setup_cost: "Setup",
    loading: "Loading and unloading",
    operator_attendance: "Operator attendance",
    programming: "Programming and review",
    tool_wear: "Tool wear",
    deburring: "Deburring",
    inspection: "Inspection",
    material: "Material",
    additional_cost: "Additional cost",
  },
  units: { h: "h", min: "min", kg: "kg", part: "parts", order: "× per order" },
  formTitle: "Rates and times for this quote",
  formLead: "Empty: the machine's value, then the quote settings'.",
  settingsTitle: "Rates and times",
  settingsLead: "Under every quote: a machine's or quote job's own value comes first.",
  fields: {
    setup_rate: "Setup rate (EUR/h)",
    setup_time_h: "Setup time per clamping (h)",
    operator_rate: "Operator rate (EUR/h)",
    loading_min: "Loading and unloading per part and clamping (min)",
    operator_attendance_percentage: "Operator attendance (% of machining time)",
    programming_rate: "Programming rate (EUR/h)",
    programming_time_h: "Programming and review per job (h)",
    deburring_min: "Deburring per part (min)",
    inspection_min: "Inspection per part (min)",
  },
  toolWear: "Tool wear (EUR per cutting minute)",
  families: {
    end_mill: "End mills",
    ball_end_mill: "Ball end mills",
    face_mill: "Face mills",
    drill: "Drills",
    reamer: "Reamers",
    tap: "Taps",
    thread_mill: "Thread mills",
  },
  inherited: "now {value}",
  notANumber: "Enter a number.",
  save: "Save rates",
  saving: "Saving…",
  saved: "Saved.",
};

const de: CostModelMessages = {
  linesTitle: "Kostenpositionen",
  colLine: "Position",
  colQuantity: "Menge",
  colRate: "Satz",
  colAmount: "Betrag",
  kinds: {
    machining: "Bearbeitung",
    setup_cost: "Rüsten",
    loading: "Be- und Entladen",
    operator_attendance: "Maschinenbedienung",
    programming: "Programmierung und Kontrolle",
    tool_wear: "Werkzeugverschleiß",
    deburring: "Entgraten",
    inspection: "Qualitätsprüfung",
    material: "Material",
    additional_cost: "Zusatzkosten",
  },
  units: { h: "h", min: "min", kg: "kg", part: "Stück", order: "× je Auftrag" },
  formTitle: "Sätze und Zeiten dieses Angebots",
  formLead: "Leer: der Wert der Maschine, dann der Angebotseinstellungen.",
  settingsTitle: "Sätze und Zeiten",
  settingsLead: "Unter jedem Angebot: der eigene Wert einer Maschine oder eines Angebotsauftrags geht vor.",
  fields: {
    setup_rate: "Rüstsatz (EUR/h)",
    setup_time_h: "Rüstzeit je Aufspannung (h)",
    operator_rate: "Bedienersatz (EUR/h)",
    loading_min: "Be- und Entladen je Teil und Aufspannung (min)",
    operator_attendance_percentage: "Bedieneranteil (% der Bearbeitungszeit)",
    programming_rate: "Programmiersatz (EUR/h)",
    programming_time_h: "Programmierung und Kontrolle je Auftrag (h)",
    deburring_min: "Entgraten je Teil (min)",
    inspection_min: "Prüfen je Teil (min)",
  },
  toolWear: "Werkzeugverschleiß (EUR je Schnittminute)",
  families: {
    end_mill: "Schaftfräser",
    ball_end_mill: "Kugelfräser",
    face_mill: "Planfräser",
    drill: "Bohrer",
    reamer: "Reibahlen",
    tap: "Gewindebohrer",
    thread_mill: "Gewindefräser",
  },
  inherited: "jetzt {value}",
  notANumber: "Geben Sie eine Zahl ein.",
  save: "Sätze speichern",
  saving: "Speichere…",
  saved: "Gespeichert.",
};

export function useCostModelText(): CostModelMessages {
  return useI18n().language === "de" ? de : en;
}
