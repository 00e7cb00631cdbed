/**
 * The setup sheet as a document: what it says, section by section, as text already formatted.
 * document.ts builds it from a plan; html.ts and pdf.ts lay the very same sections and tables out,
 * so the HTML and the PDF cannot say different things.
 */
import type { Picture } from "./picture-shapes.ts";

/** One labelled fact: "Material", "Aluminium 6061-T6". */
export interface FactRow {
  label: string;
  value: string;
}

export interface Column {
  title: string;
  /** numbers right, words left */
  align: "left" | "right";
  /** share of the table's width in print (the PDF's column widths; the HTML's are the browser's) */
  weight: number;
}

export interface Table {
  columns: Column[];
  /** each as many cells as columns */
  rows: string[][];
  /** a last row set apart (sums); null without one */
  footer: string[] | null;
}

export interface SetupPage {
  /** "Setup 2 of 6: -Z" */
  heading: string;
  facts: FactRow[];
  picture: Picture;
  /** what the picture shows, in a line */
  caption: string;
  /** null: planned without a workholding */
  workholding: FactRow[] | null;
  tools: Table;
  operations: Table;
  totals: FactRow[];
}

export interface SetupSheet {
  /** "Setup sheet: Bracket (rev B)" */
  title: string;
  job: FactRow[];
  tools: Table;
  setups: SetupPage[];
}
