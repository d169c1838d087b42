/**
 * The attenuation a of the conservative transform (docs/methods.md §4: shift_c = a·Δ,
 * R_c = 1 − a(1 − R2)), the share of a published effect taken as real. Every reader of one — the
 * `--attenuation` flag of every command, the library's options and a meta-analysis manifest —
 * takes 0.01 ≤ a ≤ 1: at a = 0 every R is 1 and every shift 0 beside a test that says framing
 * changes behaviour, and below 0.01 every shift and 1 − R rounds to none at the decimals shown.
 */
import { UserError } from './errors.js';
import { msg } from './messages/common.js';

export const MIN_ATTENUATION = 0.01;

/** The words of the range, for a flag's message. */
export const ATTENUATION_RANGE_TEXT = `a number from ${MIN_ATTENUATION} to 1`;

/** Whether `a` is an attenuation (a finite number in [MIN_ATTENUATION, 1]). */
export const isAttenuation = (a: number): boolean => Number.isFinite(a) && a >= MIN_ATTENUATION && a <= 1;

/** `a` itself when it is an attenuation, else a UserError naming where it was given. */
export function checkAttenuation(a: number, where = 'attenuation'): number {
  if (!isAttenuation(a)) throw new UserError(msg.badAttenuation(where, a, ATTENUATION_RANGE_TEXT));
  return a;
}
