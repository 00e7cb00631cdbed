/** The benchmark's user, API key and project, made the way the CLI and the API make them. */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { API_BASE_PATH } from "../../http/base-path.ts";
import { generateApiKey } from "../../auth/api-key.ts";
import { SCOPES } from "../../auth/scopes.ts";
import { insertApiKey } from "../../db/queries/api-keys.ts";
import { createUser } from "../../db/queries/users.ts";

export interface BenchUser {
  userId: string;
  apiKey: string;
}

export async function createBenchUser(owner: pg.Pool): Promise<BenchUser> {
  const user = await createUser(owner, `bench-${randomBytes(4).toString("hex")}@example.com`);
  const key = generateApiKey();
  await insertApiKey(owner, { userId: user.id, name: "benchmark", prefix: key.prefix, hash: key.hash, scopes: SCOPES });
  return { userId: user.id, apiKey: key.plaintext };
}

export interface BenchProject {
  id: string;
  /** the path of GET /projects/{id} */
  path: string;
  /** the body GET /projects/{id} answers with: the bare server sends the same bytes */
  body: string;
}

/** Creates the project through the real API (POST /projects) and reads it back once. */
export async function createProjectViaApi(origin: string, apiKey: string): Promise<BenchProject> {
  const created = await fetch(`${origin}${API_BASE_PATH}/projects`, {
    method: "POST",
    headers: {
      "X-API-Key": apiKey,
      "Content-Type": "application/json",
      "Idempotency-Key": `bench-${randomBytes(8).toString("hex")}`,
    },
    body: JSON.stringify({
      name: "Benchmark bracket",
      customer: "ACME Benchmarking",
      reference: "RFQ-1234",
      contact_name: "Ada Lovelace",
      contact_email: "ada@example.com",
    }),
  });
  const createdText = await created.text();
  if (created.status !== 201) throw new Error(`POST /projects answered ${created.status}: ${createdText}`);
  const { id } = JSON.parse(createdText) as { id: string };
  const path = `${API_BASE_PATH}/projects/${id}`;
  const read = await fetch(`${origin}${path}`, { headers: { "X-API-Key": apiKey } });
  const body = await read.text();
  if (read.status !== 200) throw new Error(`GET ${path} answered ${read.status}: ${body}`);
  return { id, path, body };
}

/** One request to each server: both must answer 200 with the same body before we load them. */
export async function checkSameAnswer(
  ours: string,
  bare: string,
  project: BenchProject,
  apiKey: string,
): Promise<void> {
  const [a, b] = await Promise.all([
    fetch(`${ours}${project.path}`, { headers: { "X-API-Key": apiKey } }),
    fetch(`${bare}${project.path}`, { headers: { "X-API-Key": apiKey } }),
  ]);
  const [aText, bText] = await Promise.all([a.text(), b.text()]);
  if (a.status !== 200 || b.status !== 200 || aText !== bText) {
    throw new Error(
      `the servers disagree: ours ${a.status} ${aText.slice(0, 200)}; bare ${b.status} ${bText.slice(0, 200)}`,
    );
  }
}
