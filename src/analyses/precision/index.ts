/** The precision planner: trials per cell for a target interval half-width. */
export * from './plan.js';

import { planTrials } from './plan.js';

/** The precision planner as one object. */
export const precision = { plan: planTrials } as const;
