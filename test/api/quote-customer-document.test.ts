/**
 * The customer's quote document over HTTP (docs/quote.md, "The customer's document"): the PDF
 * read back with poppler's pdftotext and the workbook with exceljs, in English and German, for
 * a project whose current job holds a plan (test/support/every-move-plan.ts) over partC's real
 * mesh; each quantity break's prices against the breakdown of that quantity; the quote number's
 * sequence (kept on re-export, distinct under concurrent exports); the plan's design feedback in
 * words; bad input; other users.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import ExcelJS from "exceljs";
import type { DesignFeedbackItem } from "../../kernel/dfm/types.ts";
import { formatEuro } from "../../kernel/quote/customer-labels.ts";
import { designFeedbackText } from "../../kernel/quote/design-feedback-text.ts";
import { startTestApi, type TestApi } from "../support/api.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { everyMovePlan } from "../support/every-move-plan.ts";
import { projectWithPlan } from "../support/planning.ts";
import { readPdf } from "../support/setup-sheet-text.ts";
import { INTERNAL_WORDS } from "../support/internal-words.ts";
import { createTestUser, type TestUser } from "../support/users.ts";

interface ErrorBody {
  detail: { code: string; message: string; details: { fields?: { field: string; code: string }[] } };
}

let db: TestDatabase;
let api: TestApi;
let alice: TestUser;
let bob: TestUser;
let planned: string;
const BREAKS = [1, 10, 50];
const YEAR = new Date().getUTCFullYear();

before(async () => {
  db = await createTestDatabase();
  api = await startTestApi(db, { env: { RATE_LIMIT_PER_MINUTE: "100000" } });
  alice = await createTestUser(db.owner, "alice");
  bob = await createTestUser(db.owner, "bob");
  planned = await projectWithPlan(api, alice, everyMovePlan(false, "vise"), { name: "Bracket project" });
  const settings = await api.request("PATCH", "/quote/settings", {
    key: alice.key,
    body: {
      default_mhr: 72.5,
      shop_name: "Müller Präzisionsteile GmbH",
      shop_address: "Werkstraße 5\n70565 Stuttgart",
      terms: "Payment within 30 days net.\nPrices ex works.",
      validity_days: 30,
      delivery_days: 12,
    },
  });
  assert.equal(settings.status, 200, settings.text);
  const job = await api.request("PATCH", `/projects/${planned}/quote/job`, {
    key: alice.key,
    body: {
      customer_name: "ACME Robotics",
      customer_address: "1 Main St\nSpringfield",
      quantity_breaks: BREAKS,
      part_name: "Bracket (rev B)",
      // once per order: the unit price falls with the quantity
      additional_costs: { ship: { Title: "Shipping", per_unit: false, Costs: [{ label: "crate", cost: 120 }] } },
    },
  });
  assert.equal(job.status, 200, job.text);
});
after(async () => {
  await api?.close();
  await db?.drop();
});

const exportQuote = (projectId: string, query: string, key = alice.key) =>
  api.request<ErrorBody>("POST", `/projects/${projectId}/quote/export?${query}`, { key });

/** the net unit and total price of `quantity` as GET quote answers them with that quantity */
async function pricesOf(quantity: number): Promise<{ unit: number; total: number }> {
  const original = await api.request<{ quantity: number }>("GET", `/projects/${planned}/quote/job`, { key: alice.key });
  await api.request("PATCH", `/projects/${planned}/quote/job`, { key: alice.key, body: { quantity } });
  const quote = await api.request<{ unit_price: number; net_price: number }>("GET", `/projects/${planned}/quote`, {
    key: alice.key,
  });
  await api.request("PATCH", `/projects/${planned}/quote/job`, {
    key: alice.key,
    body: { quantity: original.body.quantity },
  });
  return { unit: quote.body.unit_price, total: quote.body.net_price };
}

async function workbookText(bytes: Uint8Array): Promise<{ cells: unknown[][]; text: string }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const cells: unknown[][] = [];
  workbook.worksheets[0]!.eachRow((row) => cells.push((row.values as unknown[]).slice(1)));
  return { cells, text: cells.flat().map(String).join(" ") };
}

describe("POST /projects/{project_id}/quote/export?document=customer", () => {
  it("writes the PDF and the workbook in en and de with the quote number, each break's prices and nothing internal", async () => {
    const expected: { unit: number; total: number }[] = [];
    for (const quantity of BREAKS) expected.push(await pricesOf(quantity));
    assert.ok(
      expected.every((p) => p.total > 0),
      "priced",
    );
    assert.ok(expected[2]!.total > expected[0]!.total);
    assert.ok(expected[2]!.unit < expected[0]!.unit, "the order's shipping spread over more parts");
    const numbers = new Set<string>();
    for (const language of ["en", "de"] as const) {
      const pdf = await exportQuote(planned, `document=customer&format=pdf&language=${language}`);
      assert.equal(pdf.status, 200, pdf.text);
      assert.equal(pdf.headers.get("content-type"), "application/pdf");
      const number = pdf.headers.get("x-quote-number") ?? "";
      assert.match(number, new RegExp(`^Q-${YEAR}-\\d{4}$`));
      numbers.add(number);
      assert.equal(
        pdf.headers.get("content-disposition"),
        `attachment; filename="${number}_Bracket_rev_B_${language}.pdf"`,
        "named by quote number and part, not the project id",
      );
      const { text } = readPdf(pdf.bytes);
      for (const fact of [
        number,
        "ACME Robotics",
        "Springfield",
        "Bracket (rev B)",
        "aluminium",
        "Stuttgart",
        "Payment within 30 days net.",
      ])
        assert.ok(text.toLowerCase().includes(fact.toLowerCase()), `${language} PDF names ${fact}: ${text}`);
      assert.ok(text.includes(language === "en" ? "Quotation" : "Angebot"));
      assert.ok(text.includes(language === "en" ? "12 working days" : "12 Arbeitstage"));
      for (const [i, price] of expected.entries()) {
        assert.ok(text.includes(formatEuro(price.unit, language).replace(/\s/g, " ")), `${language} unit ${BREAKS[i]}`);
        assert.ok(
          text.includes(formatEuro(price.total, language).replace(/\s/g, " ")),
          `${language} total ${BREAKS[i]}`,
        );
      }
      for (const word of INTERNAL_WORDS) assert.doesNotMatch(text, word, `${language} PDF: ${text}`);
      assert.ok(!text.includes(planned));

      const excel = await exportQuote(planned, `document=customer&format=excel&language=${language}`);
      assert.equal(excel.status, 200, excel.text);
      assert.equal(
        excel.headers.get("content-disposition"),
        `attachment; filename="${number}_Bracket_rev_B_${language}.xlsx"`,
      );
      const book = await workbookText(excel.bytes);
      assert.ok(book.text.includes(number));
      for (const [i, price] of expected.entries()) {
        const row = book.cells.find((r) => r[0] === BREAKS[i]);
        assert.deepEqual(row?.slice(0, 3), [BREAKS[i], price.unit, price.total], `${language} break ${BREAKS[i]}`);
      }
      for (const word of INTERNAL_WORDS) assert.doesNotMatch(book.text, word, `${language} workbook: ${book.text}`);
    }
    assert.equal(numbers.size, 1, "a re-export keeps the quote's number");
    const job = await api.request<{ quote_number: string }>("GET", `/projects/${planned}/quote/job`, {
      key: alice.key,
    });
    assert.equal(job.body.quote_number, [...numbers][0]);
  });

  it("lists the plan's design feedback in plain words, in the document's language", async () => {
    const thinWall: DesignFeedbackItem = {
      kind: "thin_wall",
      severity: "warning",
      faces: [3, 4],
      feature: null,
      measured: { value: 0.55, unit: "mm" },
      limit: { value: 0.8, unit: "mm" },
      details: { material: "aluminium" },
      message_key: "thin_wall",
    };
    // as a planning stores what it found: on the current job's plan summary
    await db.owner.query(
      `update app_public.jobs set plan_summary = plan_summary || jsonb_build_object('design_feedback', $2::jsonb)
        where id = (select current_job_id from app_public.projects where id = $1)`,
      [planned, JSON.stringify([thinWall])],
    );
    for (const language of ["en", "de"] as const) {
      const pdf = await exportQuote(planned, `document=customer&format=pdf&language=${language}`);
      assert.equal(pdf.status, 200, pdf.text);
      const text = readPdf(pdf.bytes).text.replace(/\s+/g, " ");
      const sentence = designFeedbackText(thinWall, language);
      assert.ok(text.includes(sentence.slice(0, 40)), `${language}: ${sentence} in ${text}`);
      const book = await workbookText(
        (await exportQuote(planned, `document=customer&format=excel&language=${language}`)).bytes,
      );
      assert.ok(book.text.includes(sentence), `${language} workbook: ${sentence}`);
    }
  });

  it("gives two projects exported at once two numbers, and keeps the costing export as it was", async () => {
    const [a, b] = await Promise.all([
      projectWithPlan(api, alice, everyMovePlan(false, "vise"), { name: "A" }),
      projectWithPlan(api, alice, everyMovePlan(false, "vise"), { name: "B" }),
    ]);
    const [ea, eb] = await Promise.all([
      exportQuote(a, "document=customer&format=excel"),
      exportQuote(b, "document=customer&format=excel"),
    ]);
    assert.equal(ea.status, 200, ea.text);
    assert.equal(eb.status, 200, eb.text);
    const na = ea.headers.get("x-quote-number");
    const nb = eb.headers.get("x-quote-number");
    assert.notEqual(na, nb);
    const costing = await exportQuote(a, "format=csv");
    assert.equal(costing.status, 200);
    assert.equal(costing.headers.get("content-disposition"), `attachment; filename="quote_${a}_en.csv"`);
    assert.equal(costing.headers.get("x-quote-number"), null);
  });

  it("answers 400 naming the field for bad breaks, dates, days, documents, formats and languages", async () => {
    for (const [body, field] of [
      [{ quantity_breaks: [10, 5] }, "body.quantity_breaks"],
      [{ quantity_breaks: [1, 1] }, "body.quantity_breaks"],
      [{ quantity_breaks: [0, 10] }, "body.quantity_breaks.0"],
      [{ quantity_breaks: [1.5] }, "body.quantity_breaks.0"],
      [{ quantity_breaks: ["10"] }, "body.quantity_breaks.0"],
      [{ valid_until: "2001-01-01" }, "body.valid_until"],
      [{ valid_until: "tomorrow" }, "body.valid_until"],
      [{ delivery_days: 0 }, "body.delivery_days"],
      [{ part_name: "" }, "body.part_name"],
    ] as const) {
      const res = await api.request<ErrorBody>("PATCH", `/projects/${planned}/quote/job`, { key: alice.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(
        res.body.detail.details.fields?.some((f) => f.field === field),
        `${JSON.stringify(body)}: ${JSON.stringify(res.body.detail.details.fields)}`,
      );
    }
    for (const [body, field] of [
      [{ validity_days: 0 }, "body.validity_days"],
      [{ validity_days: -5 }, "body.validity_days"],
      [{ delivery_days: "ten" }, "body.delivery_days"],
      [{ shop_name: "x".repeat(201) }, "body.shop_name"],
    ] as const) {
      const res = await api.request<ErrorBody>("PATCH", "/quote/settings", { key: alice.key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(
        res.body.detail.details.fields?.some((f) => f.field === field),
        JSON.stringify(res.body),
      );
    }
    for (const [query, field] of [
      ["document=invoice&format=pdf", "query.document"],
      ["document=customer&format=csv", "query.format"],
      ["document=costing&format=pdf", "query.format"],
      ["format=pdf", "query.format"],
      ["document=customer&format=pdf&language=fr", "query.language"],
    ] as const) {
      const res = await exportQuote(planned, query);
      assert.equal(res.status, 400, query);
      assert.ok(
        res.body.detail.details.fields?.some((f) => f.field === field),
        `${query}: ${res.text}`,
      );
    }
  });

  it("refuses other users' projects with 404, a key without quote:export with 403, and a project without a job with 404", async () => {
    const other = await exportQuote(planned, "document=customer&format=pdf", bob.key);
    assert.equal(other.status, 404);
    const patch = await api.request("PATCH", `/projects/${planned}/quote/job`, {
      key: bob.key,
      body: { quantity_breaks: [1, 2] },
    });
    assert.equal(patch.status, 404);
    const readOnly = await alice.keyWith(["quote:read"]);
    const scoped = await exportQuote(planned, "document=customer&format=pdf", readOnly);
    assert.equal(scoped.status, 403);
    assert.equal(scoped.body.detail.code, "insufficient_scope");
    const empty = await api.request<{ id: string }>("POST", "/projects", {
      key: alice.key,
      body: { name: "No part", customer: "ACME" },
    });
    const missing = await exportQuote(empty.body.id, "document=customer&format=pdf");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.detail.code, "job_missing");
  });
});
