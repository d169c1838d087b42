/** The confidence-sequence methods, a typed registry: a stop rule's `method` names one of them. */
import { startBetting } from './betting.js';
import { startNormalMixture } from './normal-mixture.js';
import type { ConfSeqMethod } from './types.js';

export const CONFSEQ_METHODS = {
  betting: {
    describe: 'hedged-capital betting confidence sequence with predictable plug-in bets',
    source: 'Waudby-Smith and Ramdas (2023), JRSS B 86(1)',
    start: startBetting,
  },
  'normal-mixture': {
    describe: 'two-sided normal-mixture (Hoeffding) boundary, closed form',
    source: 'Howard, Ramdas, McAuliffe and Sekhon (2021), Annals of Statistics 49(2)',
    start: startNormalMixture,
  },
} as const satisfies Record<string, ConfSeqMethod>;

export type ConfSeqMethodId = keyof typeof CONFSEQ_METHODS;
export const CONFSEQ_METHOD_IDS = Object.keys(CONFSEQ_METHODS) as ConfSeqMethodId[];
