/**
 * Numbers typed by a person: "12.5" or, as German writes it, "12,5". Text that is no number is
 * refused before a request, shown beside its field like the API's own field errors; the
 * ranges and every other rule stay the API's.
 */
import { ApiError } from "../../api/client.ts";

export function parseNumber(text: string, field = "", message = "Enter a number."): number {
  const trimmed = text.trim().replace(/\s/g, "");
  const normal = trimmed.includes(".") ? trimmed.replace(/,/g, "") : trimmed.replace(",", ".");
  const value = normal === "" ? Number.NaN : Number(normal);
  if (!Number.isFinite(value))
    throw new ApiError(0, "not_a_number", message, { fields: [{ field, message }] }, undefined);
  return value;
}
