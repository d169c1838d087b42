/**
 * Fixed strategies of repeated 2×2 games: each a small pure function of the history (and, for the
 * stochastic ones, of one uniform draw from the match's seeded stream), declared as the Axelrod
 * Python library declares its players — a name, the memory depth (how many previous rounds the
 * move may depend on; Infinity for the whole history), whether it is stochastic, and its source.
 * docs/methods.md ("Repeated games") defines each one.
 */
import type { Action } from '../../core/games.js';

/** What a strategy sees before round t: its own and the other's moves of rounds 1 … t−1, in order. */
export interface StrategyView {
  readonly own: readonly Action[];
  readonly other: readonly Action[];
}

export interface StrategyParams {
  /** random: probability of C. */
  readonly p?: number;
  /** generous-tit-for-tat: probability of C after the other's D. */
  readonly forgive?: number;
}

export interface Strategy {
  readonly name: string;
  readonly memoryDepth: number;
  readonly stochastic: boolean;
  readonly source: string;
  /** Parameters the strategy takes, with their defaults. */
  readonly params: Readonly<Record<string, number>>;
  /** The move of the next round; `u` is a uniform in [0, 1) drawn for this (match, round). */
  move(view: StrategyView, params: StrategyParams, u: number): Action;
}

const last = (xs: readonly Action[]): Action | undefined => xs[xs.length - 1];
const AXELROD = 'Axelrod Python library (axelrod.readthedocs.io)';

export const STRATEGIES = {
  'always-cooperate': {
    name: 'Cooperator', memoryDepth: 0, stochastic: false, source: `${AXELROD}: Cooperator; Akata et al. (arXiv 2305.16867): always-J`, params: {},
    move: () => 'C',
  },
  'always-defect': {
    name: 'Defector', memoryDepth: 0, stochastic: false, source: `${AXELROD}: Defector; Akata et al. (arXiv 2305.16867): always-F`, params: {},
    move: () => 'D',
  },
  'defect-once': {
    // A function of the round alone: D in round 1, C after.
    name: 'Defect Once', memoryDepth: 0, stochastic: false, source: 'Akata et al. (arXiv 2305.16867), pd/query_main.py act_defect_once', params: {},
    move: (v) => (v.own.length === 0 ? 'D' : 'C'),
  },
  'tit-for-tat': {
    name: 'Tit For Tat', memoryDepth: 1, stochastic: false, source: `${AXELROD}: TitForTat (Rapoport; Axelrod 1980)`, params: {},
    move: (v) => (last(v.other) === 'D' ? 'D' : 'C'),
  },
  'suspicious-tit-for-tat': {
    name: 'Suspicious Tit For Tat', memoryDepth: 1, stochastic: false, source: `${AXELROD}: SuspiciousTitForTat`, params: {},
    move: (v) => (v.other.length === 0 ? 'D' : last(v.other)!),
  },
  'tit-for-two-tats': {
    name: 'Tit For 2 Tats', memoryDepth: 2, stochastic: false, source: `${AXELROD}: TitFor2Tats`, params: {},
    move: (v) => (v.other.length >= 2 && v.other[v.other.length - 1] === 'D' && v.other[v.other.length - 2] === 'D' ? 'D' : 'C'),
  },
  'grim-trigger': {
    name: 'Grudger', memoryDepth: Infinity, stochastic: false, source: `${AXELROD}: Grudger (Friedman; Axelrod 1980)`, params: {},
    move: (v) => (v.other.includes('D') ? 'D' : 'C'),
  },
  alternate: {
    name: 'Alternator', memoryDepth: 1, stochastic: false, source: `${AXELROD}: Alternator`, params: {},
    move: (v) => (last(v.own) === 'C' ? 'D' : 'C'),
  },
  random: {
    name: 'Random', memoryDepth: 0, stochastic: true, source: `${AXELROD}: Random`, params: { p: 0.5 },
    move: (_v, p, u) => (u < (p.p ?? 0.5) ? 'C' : 'D'),
  },
  'generous-tit-for-tat': {
    name: 'Generous Tit For Tat', memoryDepth: 1, stochastic: true, source: `${AXELROD}: GTFT (Nowak and Sigmund 1992)`, params: { forgive: 0.1 },
    move: (v, p, u) => (last(v.other) !== 'D' ? 'C' : u < (p.forgive ?? 0.1) ? 'C' : 'D'),
  },
} as const satisfies Record<string, Strategy>;

export type StrategyId = keyof typeof STRATEGIES;
export const STRATEGY_IDS = Object.keys(STRATEGIES) as [StrategyId, ...StrategyId[]];

export function isStrategyId(s: string): s is StrategyId {
  return Object.hasOwn(STRATEGIES, s);
}

/** Play a strategy against a fixed sequence of the other's moves: its moves, round by round. */
export function playAgainst(id: StrategyId, other: readonly Action[], params: StrategyParams = {}, draws: readonly number[] = []): Action[] {
  const own: Action[] = [];
  for (let t = 0; t < other.length; t++) {
    own.push(STRATEGIES[id].move({ own, other: other.slice(0, t) }, params, draws[t] ?? 0.5));
  }
  return own;
}
