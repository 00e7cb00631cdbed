/**
 * A machine of one user's own: not a seeded archetype, so neither the planner nor the defaults
 * know it, and assigned to that user alone (last in their list).
 */
import type pg from "pg";

export async function insertOwnMachine(owner: pg.Pool, userId: string, productId: string, name: string): Promise<void> {
  await owner.query(
    `insert into app_public.machines (product_id, name, control, travel_x_mm, travel_y_mm, travel_z_mm, max_spindle_rpm, max_feed_mm_min, tool_slots, default_mhr)
     values ($1, $2, 'linuxcnc', 500, 400, 300, 10000, 5000, 10, 40)`,
    [productId, name],
  );
  await owner.query("insert into app_public.user_machines (user_id, product_id, position) values ($1, $2, 100)", [
    userId,
    productId,
  ]);
}
