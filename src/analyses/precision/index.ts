/** The precision planner: trials per cell for a target interval half-width. */
export * from './plan.js';
