/**
 * Connection pools. The API's pool connects as the non-superuser role; workers and the CLI
 * use the owner connection.
 */
import pg from "pg";

// int8 carries counts and task sequence numbers here, all far below 2^53
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function createPool(connectionString: string, max: number, applicationName: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, application_name: applicationName });
  // an idle client that loses its connection must not crash the process; the next
  // checkout gets a fresh one
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  return pool;
}

