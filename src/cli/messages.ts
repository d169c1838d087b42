/**
 * The user-facing messages used only in cli/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../core/messages/text.js';

export const cliMsg = {
  badMap: (v: string) => `--map-model: ${q(v)} is not DIRECT=RECONSTRUCTED`,
  badFlag: (flag: string, value: string, want: string) => `${flag}: ${q(value)} is not ${want}`,
  progressLine: (done: number, total: number) => `coverage: ${done}/${total} simulations`,
  oneInput: () => '--digitized replaces --data and --trials: give one input',
  readingErrorCounts: () => '--reading-error (counts) applies to rates files; a digitized figure\'s reading error is --pixel-error K (pixels of the figure)',
  pixelErrorRange: (value: string) => `--pixel-error: ${q(value)} is not a number of pixels from 0 to 100`,
  badShortMatches: (value: string) => `--short-matches: ${q(value)} is not drop or keep`,
  badFormat: (v: string) => `--format: ${q(v)} is not jsonl, csv or parquet`,
  bothInputs: () => '--data and --trials cannot be used together: give one input',
  stopping: () => 'stopping: finishing the calls in flight (press Ctrl-C again to abort them)',
  deprecatedPrice: () => '--price-in and --price-out are deprecated: give --price IN,OUT',
  priceTwice: () => '--price replaces --price-in and --price-out: give one of them',
  deprecatedStore: () => 'plan --store is deprecated: give the store as the argument (samegame plan STORE ...)',
  storeTwice: (arg: string, flag: string) => `plan: two stores given (${q(arg)} and --store ${q(flag)}): give the store as the argument only`,
  trialsOnly: () => '--cluster and --factor apply to per-trial input: give --trials FILE',
};
