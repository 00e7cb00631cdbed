/**
 * The HTML sheet's style, inline in its head. On screen a page-wide column; in print 12 mm
 * margins on the printer's paper, A4 or Letter: the content is at most 186 mm wide (A4's width
 * less the margins) and a setup's first page (heading, picture, facts) fits Letter's shorter page.
 */
export const SHEET_CSS = `
@page { margin: 12mm; }
* { box-sizing: border-box; }
html { font-family: Helvetica, Arial, sans-serif; font-size: 10pt; color: #111; background: #fff; }
body { margin: 0 auto; padding: 8mm; max-width: 210mm; }
h1 { font-size: 17pt; margin: 0 0 4mm; }
h2 { font-size: 13pt; margin: 6mm 0 2mm; border-bottom: 1.5pt solid #111; padding-bottom: 1mm; }
h3 { font-size: 10.5pt; margin: 4mm 0 1.5mm; }
h2, h3 { break-after: avoid; page-break-after: avoid; }
table { border-collapse: collapse; width: 100%; }
tr, figure { break-inside: avoid; page-break-inside: avoid; }
thead { display: table-header-group; }
tfoot { display: table-row-group; }
th, td { padding: 0.8mm 1.4mm; vertical-align: top; text-align: left; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.facts th { width: 28%; font-weight: bold; color: #333; }
.facts tr + tr th, .facts tr + tr td { border-top: 0.5pt solid #ddd; }
.job-facts { width: 70%; }
.grid { font-size: 8pt; }
.grid thead th { background: #e8ebef; border-bottom: 1pt solid #888; font-size: 7.5pt; }
.grid tbody tr:nth-child(even) td { background: #f6f7f9; }
.grid tbody td { border-bottom: 0.5pt solid #e2e4e8; }
.tools td:nth-child(2), .operations td:nth-child(2) { white-space: nowrap; }
.grid tfoot td { border-top: 1pt solid #888; font-weight: bold; }
.setup { break-before: page; page-break-before: always; }
.setup-top { display: flex; gap: 4mm; align-items: flex-start; }
.setup-top figure { flex: 0 0 58%; margin: 0; }
.setup-top figure svg { width: 100%; height: auto; display: block; border: 0.5pt solid #ccc; }
.setup-top figcaption { font-size: 7.5pt; color: #555; margin-top: 1mm; }
.setup-top .facts { flex: 1 1 auto; font-size: 8.5pt; }
.setup-top .facts th { width: 34%; }
@media print {
  body { padding: 0; max-width: none; }
  .grid tbody tr:nth-child(even) td { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .grid thead th { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
`;
