/**
 * Connection pools. The API's pool connects as the non-superuser role; workers and the CLI
 * use the owner connection.
 */
import pg from "pg";

// int8 carries counts and task sequence numbers here, all far below 2^53
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function createPool(connectionString: string, max: number, applicationName: string): pg.Pool {
  return survivingLostConnections(new pg.Pool({ connectionString, max, application_name: applicationName }));
}

/**
 * An idle client that loses its connection (a restart of the server, pg_terminate_backend)
 * must not crash the process; the pool drops it and the next checkout gets a fresh one.
 */
export function survivingLostConnections<P extends pg.Pool>(pool: P): P {
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}
