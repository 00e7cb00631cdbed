/**
 * The setup sheet as one HTML file: no external asset (the pictures inline SVG, the style inline),
 * so it prints and archives as it is. In print each setup starts on a new page, a table's header
 * repeats on every page it runs onto and none of its rows is split; the page size is the
 * printer's (A4 or Letter: the layout fits the narrower, A4, and the shorter, Letter).
 */
import { escapeXml } from "./escape.ts";
import { pictureSvg } from "./picture-svg.ts";
import type { FactRow, SetupPage, SetupSheet, Table } from "./sheet-types.ts";
import { SHEET_CSS } from "./sheet-css.ts";

export function setupSheetHtml(sheet: SetupSheet): string {
  const parts: string[] = [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeXml(sheet.title)}</title>`,
    `<style>${SHEET_CSS}</style>`,
    "</head>",
    "<body>",
    '<section class="job">',
    `<h1>${escapeXml(sheet.title)}</h1>`,
    factsTable(sheet.job, "job-facts"),
    "<h2>Tools</h2>",
    table(sheet.tools, "tools"),
    "</section>",
  ];
  for (const [i, page] of sheet.setups.entries()) parts.push(setupSection(page, i));
  parts.push("</body>", "</html>", "");
  return parts.join("\n");
}

function setupSection(page: SetupPage, index: number): string {
  return [
    `<section class="setup" id="setup-${index + 1}">`,
    `<h2>${escapeXml(page.heading)}</h2>`,
    '<div class="setup-top">',
    "<figure>",
    pictureSvg(page.picture, page.heading, `s${index + 1}`),
    `<figcaption>${escapeXml(page.caption)}</figcaption>`,
    "</figure>",
    factsTable(page.facts, "setup-facts"),
    "</div>",
    ...(page.workholding === null ? [] : ["<h3>Workholding</h3>", factsTable(page.workholding, "workholding")]),
    "<h3>Tools</h3>",
    table(page.tools, "tools"),
    "<h3>Operations</h3>",
    table(page.operations, "operations"),
    "<h3>Totals</h3>",
    factsTable(page.totals, "totals"),
    "</section>",
  ].join("\n");
}

function factsTable(rows: readonly FactRow[], className: string): string {
  const body = rows.map(
    (row) => `<tr><th scope="row">${escapeXml(row.label)}</th><td>${escapeXml(row.value)}</td></tr>`,
  );
  return `<table class="facts ${className}"><tbody>\n${body.join("\n")}\n</tbody></table>`;
}

function table(t: Table, className: string): string {
  const cell = (tag: "td" | "th", text: string, i: number): string => {
    const align = t.columns[i]?.align === "right" ? ' class="num"' : "";
    return `<${tag}${align}>${escapeXml(text)}</${tag}>`;
  };
  const head = `<thead><tr>${t.columns.map((c, i) => cell("th", c.title, i)).join("")}</tr></thead>`;
  const rows = t.rows.map((row) => `<tr>${row.map((text, i) => cell("td", text, i)).join("")}</tr>`);
  const foot =
    t.footer === null ? "" : `\n<tfoot><tr>${t.footer.map((text, i) => cell("td", text, i)).join("")}</tr></tfoot>`;
  return `<table class="grid ${className}">${head}\n<tbody>\n${rows.join("\n")}\n</tbody>${foot}</table>`;
}
