/** A real HTTP receiver on loopback for the webhook suites: records every request, answers as scripted. */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  at: number;
}

export interface TestReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** the status of each next answer, in order; 200 once the script is used up */
  script: number[];
  close(): Promise<void>;
}

export async function startReceiver(path = "/hooks"): Promise<TestReceiver> {
  const received: ReceivedWebhook[] = [];
  const state = { script: [] as number[] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) as ReceivedWebhook["body"], at: Date.now() });
      res.statusCode = state.script.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    get script() {
      return state.script;
    },
    set script(value: number[]) {
      state.script = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback URL nothing listens on (a port bound, then released). */
export async function deadUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/dead`;
}

export interface HangingReceiver {
  url: string;
  /** every request it took in, in order: it read each body and never answered */
  requests: ReceivedWebhook[];
  close(): Promise<void>;
}

/** A receiver that accepts every connection, reads the request, and never answers. */
export async function startHangingReceiver(path = "/hang"): Promise<HangingReceiver> {
  const requests: ReceivedWebhook[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      requests.push({ headers: req.headers, raw, body: JSON.parse(raw) as ReceivedWebhook["body"], at: Date.now() });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.requestTimeout = 0; // node's own 5-minute cut-off would answer 408 for us
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
