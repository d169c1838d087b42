/**
 * The --price flag of `run` and `plan`: USD per million tokens, one number for input and output
 * alike or IN,OUT; and the deprecated spellings (`run --price-in/--price-out`, `plan --store`)
 * still accepted with a one-line note.
 */
import { InvalidArgumentError } from 'commander';
import type { Logger } from '../core/logger.js';
import { UserError } from '../core/errors.js';
import { FLAG_LIMITS, parseRangeFlag } from './options.js';
import { cliMsg } from './messages.js';

/** USD per million input and output tokens. */
export interface Price { readonly input: number; readonly output: number }

export const PRICE_HELP = 'USD per million tokens: IN,OUT (input, output) or one price for both';

/** `--price USD` or `--price IN,OUT`, each a number from 0 to FLAG_LIMITS.price. */
export const parsePriceFlag = (flag = '--price') => (v: string): Price => {
  const parts = v.split(',');
  const one = parseRangeFlag(flag, 0, FLAG_LIMITS.price);
  try {
    if (parts.length > 2) throw new InvalidArgumentError(v);
    const [input, output] = parts.map(one);
    return { input, output: output ?? input };
  } catch {
    throw new InvalidArgumentError(cliMsg.badFlag(flag, v, `a price or IN,OUT, each a number from 0 to ${FLAG_LIMITS.price}`));
  }
};

/** `run`'s prices: --price, else the deprecated --price-in/--price-out (with a note); both spellings at once are refused. */
export function runPrices(o: { price?: Price; priceIn?: number; priceOut?: number }, logger: Logger): { priceIn?: number; priceOut?: number } {
  const old = o.priceIn !== undefined || o.priceOut !== undefined;
  if (o.price !== undefined && old) throw new UserError(cliMsg.priceTwice());
  if (old) logger.warn(cliMsg.deprecatedPrice());
  return o.price !== undefined ? { priceIn: o.price.input, priceOut: o.price.output } : { priceIn: o.priceIn, priceOut: o.priceOut };
}

/** `plan`'s store: the argument, else the deprecated --store (with a note); two different stores are refused. */
export function planStore(arg: string | undefined, flag: string | undefined, logger: Logger): string | undefined {
  if (flag === undefined) return arg;
  if (arg !== undefined && arg !== flag) throw new UserError(cliMsg.storeTwice(arg, flag));
  logger.warn(cliMsg.deprecatedStore());
  return flag;
}
