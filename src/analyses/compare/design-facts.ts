import { canonicalGame, rowPayoffs } from '../../core/games.js';
import { readableDesign } from '../../sources/store.js';
import { payoffGap } from '../../stats/qre.js';
import { canonicalGameKey } from './compare.js';

/** What an analysis needs to know of the design a run was made from (runs.design_json). */
export interface DesignFacts {
  readonly models: readonly string[];
  readonly games: readonly string[];
  readonly framings: readonly string[];
  /** Models answered by the simulated provider: their data are synthetic. */
  readonly simulated: readonly string[];
  /** Δu(q = 0.5) per game id, for the λ̂ diagnostic. */
  readonly gaps: ReadonlyMap<string, number>;
  /** Display name per game id: the design's `name`, else the canonical game's name (Appendix A). */
  readonly gameNames?: ReadonlyMap<string, string>;
}

/**
 * What the facts read of the stored design (sources/store.ts readableDesign, one reader for every
 * place that reads a stored design): a design that is not one samegame wrote leaves the facts empty.
 */
export function designFacts(designJson: string): DesignFacts {
  const doc = readableDesign({ designJson }) ?? {};
  const models = (doc.models ?? []).map((m) => m.id ?? '').filter(Boolean);
  const simulated = (doc.models ?? []).filter((m) => m.provider === 'simulated').map((m) => m.id ?? '');
  const gaps = new Map<string, number>();
  const games: string[] = [];
  const gameNames = new Map<string, string>();
  for (const g of doc.games ?? []) {
    const id = typeof g === 'string' ? g : g.id ?? '';
    games.push(id);
    const name = (typeof g === 'string' ? undefined : g.name) ?? canonicalGame(id)?.name;
    if (name) gameNames.set(id, name);
    const payoffs = typeof g === 'string' ? canonicalGame(g)?.payoffs : g.payoffs ?? canonicalGame(id)?.payoffs;
    if (payoffs) gaps.set(id, payoffGap(rowPayoffs({ id, name: id, payoffs })));
  }
  const framings = (doc.framings ?? []).map((f) => (typeof f === 'string' ? f : f.id ?? '')).filter(Boolean);
  return { models, games, framings, simulated, gaps, gameNames };
}

/**
 * How a report shows a game: its name when the design gives one (or it is a canonical game),
 * else the label as stored. Ids are kept when two games would share a name.
 */
export function gameNameOf(facts: DesignFacts): (game: string) => string {
  const names = facts.gameNames ?? new Map<string, string>();
  if (new Set(names.values()).size !== names.size) return (g) => g;
  return (g) => names.get(g) ?? g;
}

/**
 * The facts with payoff gaps also for games known only from the table (reconstructed data, older
 * runs) whose labels are canonical ids or names.
 */
export function withTableGames(facts: DesignFacts, tableGames: readonly string[]): DesignFacts {
  const gaps = new Map(facts.gaps);
  for (const g of tableGames) {
    if (gaps.has(g)) continue;
    const c = canonicalGame(canonicalGameKey(g));
    if (c) gaps.set(g, payoffGap(rowPayoffs(c)));
  }
  return { ...facts, gaps };
}
