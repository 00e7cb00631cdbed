/**
 * A TCP proxy in front of the test database that a test can take down and bring back: down,
 * it refuses new connections (ECONNREFUSED) and cuts the open ones, as a stopped server does.
 */
import net from "node:net";
import { findFreePort } from "./ports.ts";

export interface DbProxy {
  /** the target's connection string, through the proxy */
  url: string;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Where a postgres:// URL's server is: its Unix socket (the `host` parameter) or host and port. */
function targetOf(url: URL): net.NetConnectOpts {
  const port = Number(url.port || 5432);
  const socketDir = url.searchParams.get("host");
  if (socketDir?.startsWith("/")) return { path: `${socketDir}/.s.PGSQL.${port}` };
  return { host: url.hostname, port };
}

export async function startDbProxy(targetUrl: string): Promise<DbProxy> {
  const target = targetOf(new URL(targetUrl));
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  const port = await findFreePort();
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
  await listen();

  const url = new URL(targetUrl);
  url.searchParams.delete("host");
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return { url: url.toString(), down: stop, up: listen, close: stop };
}
