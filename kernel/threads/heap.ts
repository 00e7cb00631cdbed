/**
 * The young generation of the threads that plan and simulate (geometry threads, the simulation
 * thread): 96 MB, V8's 32 MB semi-spaces (`--max-semi-space-size=32`, which `npm run bench:cam`
 * passes so it plans as these threads do). A plan makes millions of short-lived points: in CPU
 * profiles of NIST STC-06's planning the garbage collector had 12.9 % of the samples with
 * Node's default and 5.3 % with this (other changes came in between). Plan times on 2 cores, two
 * rounds each, Node's default against this: NIST CTC-01 22.5 s against 19.4, FTC-10 19.7 against
 * 18.7, STC-06 43.1 against 40.7; 64 MB semi-spaces were no better.
 */
export const YOUNG_GENERATION_MB = 96;
