/**
 * Words of the cost model's form (quote page, a machine's quote configuration, quote settings)
 * and of the cost lines' table. The lines' own names come from the server (each line's title).
 */
import type { CostModelField, LineUnit, WearFamily } from "../api/cost-model.ts";
import { useI18n } from "./index.ts";

/** where a line's rate came from: the cost model's layers, and the machine catalogue under an MHR */
export type CostLayer = "quote_job" | "machine" | "settings" | "default" | "catalogue";

interface CostModelMessages {
  linesTitle: string;
  colLine: string;
  colQuantity: string;
  colRate: string;
  colAmount: string;
  colLayer: string;
  layers: Record<CostLayer, string>;
  units: Record<LineUnit, string>;
  formTitle: string;
  formLead: string;
  settingsTitle: string;
  settingsLead: string;
  machineTitle: string;
  machineLead: string;
  fields: Record<CostModelField, string>;
  toolWear: string;
  families: Record<WearFamily, string>;
  inherited: string;
  notANumber: string;
  save: string;
  saving: string;
  saved: string;
  additional: {
    title: string;
    lead: string;
    none: string;
    untitled: string;
    groupTitle: string;
    perUnit: string;
    costLabel: string;
    costAmount: string;
    addCost: string;
    removeCost: string;
    addGroup: string;
    removeGroup: string;
  };
}

const en: CostModelMessages = {
  linesTitle: "Cost lines",
  colLine: "Line",
  colQuantity: "Quantity",
  colRate: "Rate",
  colAmount: "Amount",
  colLayer: "From",
  layers: {
    quote_job: "this project",
    machine: "machine",
    settings: "quote settings",
    default: "default",
    catalogue: "catalogue",
  },
  units: { h: "h", min: "min", kg: "kg", part: "parts", order: "× per order" },
  formTitle: "Rates and times for this quote",
  formLead: "Empty: the machine's value, then the quote settings'.",
  settingsTitle: "Rates and times",
  settingsLead: "Under every quote: a machine's or quote job's own value comes first.",
  machineTitle: "Rates and times on this machine",
  machineLead: "Empty: the quote settings' value. A quote job's own value comes first.",
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
  additional: {
    title: "Additional costs",
    lead: "Costs outside the plan, such as coating, heat treatment or packaging: per part or once per order, in EUR.",
    none: "None.",
    untitled: "Group {n}",
    groupTitle: "Group name",
    perUnit: "Per part (times the quantity)",
    costLabel: "Cost {n}",
    costAmount: "Cost {n}, EUR",
    addCost: "Add a cost",
    removeCost: "Remove cost {n}",
    addGroup: "Add a group",
    removeGroup: "Remove the group",
  },
};

const de: CostModelMessages = {
  linesTitle: "Kostenpositionen",
  colLine: "Position",
  colQuantity: "Menge",
  colRate: "Satz",
  colAmount: "Betrag",
  colLayer: "Aus",
  layers: {
    quote_job: "diesem Projekt",
    machine: "Maschine",
    settings: "Angebotseinstellungen",
    default: "Vorgabe",
    catalogue: "Katalog",
  },
  units: { h: "h", min: "min", kg: "kg", part: "Stück", order: "× je Auftrag" },
  formTitle: "Sätze und Zeiten dieses Angebots",
  formLead: "Leer: der Wert der Maschine, dann der Angebotseinstellungen.",
  settingsTitle: "Sätze und Zeiten",
  settingsLead: "Unter jedem Angebot: der eigene Wert einer Maschine oder eines Angebotsauftrags geht vor.",
  machineTitle: "Sätze und Zeiten dieser Maschine",
  machineLead: "Leer: der Wert der Angebotseinstellungen. Der eigene Wert eines Angebotsauftrags geht vor.",
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
  additional: {
    title: "Zusatzkosten",
    lead: "Kosten außerhalb des Plans, etwa Beschichtung, Wärmebehandlung oder Verpackung: je Teil oder einmal je Auftrag, in EUR.",
    none: "Keine.",
    untitled: "Gruppe {n}",
    groupTitle: "Gruppenname",
    perUnit: "Je Teil (mal Stückzahl)",
    costLabel: "Kosten {n}",
    costAmount: "Kosten {n}, EUR",
    addCost: "Kosten hinzufügen",
    removeCost: "Kosten {n} entfernen",
    addGroup: "Gruppe hinzufügen",
    removeGroup: "Gruppe entfernen",
  },
};

/** the fields and tool wear families the form asks for: every one the server has (the types hold them complete) */
export const COST_MODEL_FIELDS = Object.keys(en.fields) as CostModelField[];
export const WEAR_FAMILIES = Object.keys(en.families) as WearFamily[];

export function useCostModelText(): CostModelMessages {
  return useI18n().language === "de" ? de : en;
}
