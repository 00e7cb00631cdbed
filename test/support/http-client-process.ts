/**
 * Requests sent from a process of its own, so the client's writes race the server's answer as
 * they do between two machines (in the test's own process the event loop takes turns between
 * client and server, and a connection cut mid-body goes unnoticed). Two clients:
 *
 *   fetch   Node's own fetch (undici); an upload as FormData, as a browser or a script sends it
 *   socket  a plain socket that writes the whole request before it reads the answer, as
 *           simple clients and proxies that buffer the body do (nginx, Python's requests), in
 *           64 KiB pieces a few milliseconds apart, as over a network (on loopback the kernel
 *           would take a few MB at once and hide a connection closed under the writer)
 *
 * `sendFromChild(requests)` runs `node --import tsx test/support/http-client-process.ts` with
 * the requests as JSON on stdin; it prints one ClientOutcome per request, in order, as JSON.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { repoRoot } from "../../config/env.ts";
import { multipart } from "./multipart.ts";

export interface ClientRequest {
  client: "fetch" | "socket";
  url: string;
  method: string;
  headers?: Record<string, string>;
  /** a multipart/form-data body with this file in the part `field` */
  upload?: { path: string; field: string; filename: string };
  /** a JSON document of this many bytes */
  jsonBytes?: number;
  /** the body's Content-Type instead of the natural one */
  contentType?: string;
}

export type ClientOutcome =
  | { ok: true; status: number; headers: Record<string, string>; body: string }
  | { ok: false; error: string };

function bodyOf(request: ClientRequest): { bytes: Buffer; contentType: string } | null {
  if (request.upload) {
    const file = fs.readFileSync(request.upload.path);
    const form = multipart([{ name: request.upload.field, filename: request.upload.filename, data: file }]);
    return { bytes: form.body, contentType: request.contentType ?? form.contentType };
  }
  if (request.jsonBytes !== undefined) {
    const frame = '{"name":""}';
    const document = `{"name":"${"x".repeat(Math.max(0, request.jsonBytes - frame.length))}"}`;
    return { bytes: Buffer.from(document), contentType: request.contentType ?? "application/json" };
  }
  return null;
}

function fetchBody(request: ClientRequest): { body?: FormData | Buffer; headers: Record<string, string> } {
  if (request.upload && !request.contentType) {
    const form = new FormData();
    form.append(request.upload.field, new Blob([fs.readFileSync(request.upload.path)]), request.upload.filename);
    return { body: form, headers: { ...request.headers } };
  }
  const body = bodyOf(request);
  return body
    ? { body: body.bytes, headers: { ...request.headers, "Content-Type": body.contentType } }
    : { headers: { ...request.headers } };
}

async function viaFetch(request: ClientRequest): Promise<ClientOutcome> {
  const { body, headers } = fetchBody(request);
  try {
    const response = await fetch(request.url, { method: request.method, headers, ...(body ? { body } : {}) });
    return {
      ok: true,
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { ok: false, error: `${(error as Error).message}: ${cause?.code ?? cause?.message ?? "no cause"}` };
  }
}

export interface RawAnswer {
  status: number;
  /** names in lower case */
  headers: Record<string, string>;
  body: Buffer;
  /** the bytes after it */
  rest: Buffer;
}

/** The first whole HTTP/1.1 answer (a Content-Length body) in `bytes`; null until all of it arrived. */
export function parseAnswer(bytes: Buffer): RawAnswer | null {
  const end = bytes.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const [statusLine = "", ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).trim().toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  const bodyEnd = end + 4 + Number(headers["content-length"] ?? 0);
  if (bytes.length < bodyEnd) return null;
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: bytes.subarray(end + 4, bodyEnd),
    rest: bytes.subarray(bodyEnd),
  };
}

const PIECE_BYTES = 64 * 1024;
const PIECE_PAUSE_MS = 3;

/** Writes head and body in full, then reads the answer to the end of its Content-Length. */
function viaSocket(request: ClientRequest): Promise<ClientOutcome> {
  const url = new URL(request.url);
  const body = bodyOf(request);
  const lines = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of Object.entries({ ...request.headers })) lines.push(`${name}: ${value}`);
  if (body) lines.push(`Content-Type: ${body.contentType}`, `Content-Length: ${body.bytes.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`);
  return new Promise((resolve) => {
    // a server's FIN does not end the writing (as with a plain socket in Python or C): only a reset does
    const socket = net.connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
    const received: Buffer[] = [];
    let settled = false;
    const finish = (outcome: ClientOutcome) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(outcome);
    };
    const parsed = (): ClientOutcome | null => {
      const answer = parseAnswer(Buffer.concat(received));
      return answer && { ok: true, status: answer.status, headers: answer.headers, body: answer.body.toString("utf8") };
    };
    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
    });
    socket.on("error", (error: NodeJS.ErrnoException) => finish({ ok: false, error: error.code ?? error.message }));
    socket.on("close", () => finish(parsed() ?? { ok: false, error: "the connection closed without a whole answer" }));
    const readAnswer = () => {
      // all written: only now read the answer, which the server may follow by closing
      const settle = () =>
        finish(parsed() ?? { ok: false, error: "the server closed the connection before a whole answer" });
      if (socket.readableEnded) {
        settle();
        return;
      }
      socket.on("end", settle);
      socket.on("data", () => {
        const outcome = parsed();
        if (outcome) finish(outcome);
      });
      const outcome = parsed();
      if (outcome) finish(outcome);
    };
    socket.on("connect", async () => {
      // no half-close after the body: Node's server aborts the request of a client that does
      const whole = Buffer.concat([head, body?.bytes ?? Buffer.alloc(0)]);
      for (let at = 0; at < whole.length && !settled; at += PIECE_BYTES) {
        const failed = await new Promise<Error | null | undefined>((done) =>
          socket.write(whole.subarray(at, at + PIECE_BYTES), done),
        );
        if (failed) {
          finish({ ok: false, error: `writing the body: ${(failed as NodeJS.ErrnoException).code ?? failed.message}` });
          return;
        }
        if (at + PIECE_BYTES < whole.length) await new Promise((resume) => setTimeout(resume, PIECE_PAUSE_MS));
      }
      if (!settled) readAnswer();
    });
  });
}

/** Sends `requests` one after the other from a child process; the outcomes in the same order. */
export function sendFromChild(requests: readonly ClientRequest[]): Promise<ClientOutcome[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", "test/support/http-client-process.ts"],
      { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`the client process failed: ${error.message}\n${stderr}`));
          return;
        }
        resolve(JSON.parse(stdout) as ClientOutcome[]);
      },
    );
    child.stdin!.end(JSON.stringify(requests));
  });
}

if (import.meta.filename === process.argv[1]) {
  const requests = JSON.parse(fs.readFileSync(0, "utf8")) as ClientRequest[];
  const outcomes: ClientOutcome[] = [];
  for (const request of requests)
    outcomes.push(await (request.client === "fetch" ? viaFetch(request) : viaSocket(request)));
  process.stdout.write(`${JSON.stringify(outcomes)}\n`);
}
