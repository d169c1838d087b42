/**
 * User-facing messages of the live-run module's designs, prompts and parser (the vega-lite
 * convention of core/messages/: every message a function, so tests compare the same text).
 */
import { q } from './text.js';


export const liveMsg = {
  noMatch: (what: string, value: string, known: readonly string[]) =>
    `${what} ${q(value)} is not in the design (known: ${known.join(', ')})`,
  untilField: (path: string, what: string) => `--until: ${path === '' ? '' : `${path}: `}${what}`,
};
