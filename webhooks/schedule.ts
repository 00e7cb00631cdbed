/**
 * When a failed delivery is tried again: six attempts in all, the first at once, then after
 * 1 min, 10 min, 1 h, 5 h and 17 h (about 23 h in all), each delay stretched by a random
 * factor between 0.8 and 1.2 (jitter), so receivers that come back are not hit by every
 * sender at once.
 */
export const MAX_ATTEMPTS = 6;
export const RETRY_DELAYS_SECONDS: readonly number[] = [60, 600, 3600, 5 * 3600, 17 * 3600];
export const JITTER = 0.2;

/** The time of the attempt after `attempt` (1-based); null when no attempt is left. */
export function nextAttemptAt(attempt: number, now: Date, random: () => number = Math.random): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attempt - 1];
  if (delay === undefined || attempt >= MAX_ATTEMPTS) return null;
  const factor = 1 - JITTER + 2 * JITTER * random();
  return new Date(now.getTime() + Math.round(delay * factor * 1000));
}
