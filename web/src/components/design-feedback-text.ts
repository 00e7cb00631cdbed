/**
 * A design feedback item (GET /projects/{id}/quote's design_feedback) in a sentence: the server
 * words it in the language the breakdown was asked in (kernel/quote/design-feedback-text.ts),
 * for the quote page and the viewer's list.
 */
import type { DesignFeedbackItem } from "../api/quote.ts";

/** the sentence of an item */
export function useDesignFeedbackText(): (item: DesignFeedbackItem) => string {
  return (item) => item.message;
}
