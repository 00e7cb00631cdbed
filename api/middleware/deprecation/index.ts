/**
 * Retiring routes (spec: Versioning). A route table entry marked `deprecated` answers with
 *   Deprecation: true
 *   Sunset: <IMF-fixdate, RFC 7231>
 *   Link: <successor>; rel="successor-version"   (when a replacement exists)
 * and the OpenAPI document marks the operation deprecated. The policy (a sunset at least six
 * months after the deprecation is announced) is checked when the route table is built, so a
 * route cannot ship with a shorter notice.
 */
import type { RequestHandler } from "express";

export interface Deprecation {
  /** ISO date the deprecation was announced */
  announced: string;
  /** ISO date after which the route may be gone */
  sunset: string;
  /** path of the replacement, e.g. /backend-api/api/public/v2/projects */
  successor?: string;
}

const MIN_NOTICE_MONTHS = 6;

export function assertDeprecationPolicy(route: string, deprecation: Deprecation): void {
  const announced = new Date(deprecation.announced);
  const sunset = new Date(deprecation.sunset);
  if (Number.isNaN(announced.getTime()) || Number.isNaN(sunset.getTime())) {
    throw new Error(`${route}: deprecation dates must be ISO dates`);
  }
  const earliest = new Date(announced);
  earliest.setUTCMonth(earliest.getUTCMonth() + MIN_NOTICE_MONTHS);
  if (sunset < earliest) {
    throw new Error(
      `${route}: the sunset ${deprecation.sunset} is less than ${MIN_NOTICE_MONTHS} months after ${deprecation.announced}`,
    );
  }
}

export function deprecationHeaders(deprecation: Deprecation): RequestHandler {
  const sunset = new Date(deprecation.sunset).toUTCString();
  return (_req, res, next) => {
    res.setHeader("Deprecation", "true");
    res.setHeader("Sunset", sunset);
    if (deprecation.successor) res.setHeader("Link", `<${deprecation.successor}>; rel="successor-version"`);
    next();
  };
}
