/** What route handlers and middleware are given: the API's pool and its settings. */
import type pg from "pg";
import type { Env } from "../config/env.ts";
import type { GeometryPool } from "../geometry-pool/pool.ts";

export interface ApiServices {
  /** connects as the non-superuser API role; RLS applies to everything */
  pool: pg.Pool;
  env: Env;
  /** the warm geometry threads; absent in a process that serves no uploads */
  geometry?: GeometryPool;
}
