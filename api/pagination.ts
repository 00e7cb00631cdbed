/**
 * Cursor pagination for list routes: `?limit=` (1..100, default 20) and `?cursor=`, answered
 * with `{items, next_cursor}` (null on the last page). Lists are newest first by a sequence
 * number that only grows, and the cursor is the last sequence number seen: rows that existed
 * when a client started paging are each seen once, none repeated or skipped. New rows land
 * before the first page, except one whose insert was still uncommitted when a page was read
 * (a sequence number is taken at insert, not at commit): it can show up on a later page.
 */
import { z } from "zod";

const CURSOR_PREFIX = "v1:";

function encodeCursor(seq: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${seq}`).toString("base64url");
}

function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  if (!text.startsWith(CURSOR_PREFIX)) return null;
  const seq = Number(text.slice(CURSOR_PREFIX.length));
  return Number.isSafeInteger(seq) && seq > 0 ? seq : null;
}

export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("page size, 1 to 100"),
  cursor: z
    .string()
    .max(200)
    .transform((value, ctx) => {
      const seq = decodeCursor(value);
      if (seq === null) {
        ctx.addIssue({ code: "custom", message: "not a cursor this API returned" });
        return z.NEVER;
      }
      return seq;
    })
    .optional()
    .describe("next_cursor of the previous page"),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    next_cursor: z.string().nullable().describe("pass as ?cursor= for the next page; null on the last page"),
  });
}

/** Rows fetched with limit + 1: the extra one only says whether another page exists. */
export function toPage<R extends { seq: number }, T>(rows: R[], limit: number, map: (row: R) => T) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items: items.map(map),
    next_cursor: rows.length > limit && last ? encodeCursor(last.seq) : null,
  };
}
