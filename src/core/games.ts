/**
 * The canonical 2×2 games of Same Game, Different Story Appendix A (Table 4) and the checks a custom payoff matrix
 * must pass before a design may use it.
 */
/** Canonical binary actions (Same Game, Different Story §3.1): C = cooperate, D = defect. */
export type Action = 'C' | 'D';

/** A 2×2 game: payoffs[row action][column action] = [row player, column player]. */
export interface Game {
  readonly id: string;
  readonly name: string;
  readonly payoffs: Readonly<Record<Action, Readonly<Record<Action, readonly [number, number]>>>>;
}


type Pair = readonly [number, number];
const game = (id: string, name: string, cc: Pair, cd: Pair, dc: Pair, dd: Pair): Game => ({
  id, name, payoffs: { C: { C: cc, D: cd }, D: { C: dc, D: dd } },
});

/**
 * Same Game, Different Story, Appendix A, Table 4: entries are (row player, column player) payoffs, rows are the
 * row player's action, columns the column player's.
 */
export const CANONICAL_GAMES: readonly Game[] = [
  game('prisoners-dilemma', "Prisoner's Dilemma", [5, 5], [2, 10], [10, 2], [3, 3]),
  game('snowdrift', 'Snowdrift / Chicken', [5, 5], [3, 10], [10, 3], [2, 2]),
  game('stag-hunt', 'Stag Hunt', [10, 10], [2, 5], [5, 2], [3, 3]),
  game('harmony', "Prisoner's Delight / Harmony", [10, 10], [3, 5], [5, 3], [2, 2]),
];

export const CANONICAL_GAME_IDS: readonly string[] = CANONICAL_GAMES.map((g) => g.id);

/** The canonical game with this id, or undefined. */
export function canonicalGame(id: string): Game | undefined {
  return CANONICAL_GAMES.find((g) => g.id === id);
}

/**
 * A game's canonical id when the label is a canonical id or name (Same Game, Different Story Appendix A,
 * names matched without regard to case), else the label.
 */
export function canonicalGameKey(label: string): string {
  const byName = CANONICAL_GAMES.find((g) => g.name.toLowerCase() === label.toLowerCase());
  return canonicalGame(label)?.id ?? byName?.id ?? label;
}

/**
 * The one key a game goes by when sources are pooled: the canonical game's name when the label is
 * a canonical id or name ("prisoners-dilemma" and "Prisoner's Dilemma" both give "Prisoner's
 * Dilemma"), else the label as given.
 */
export function canonicalGameName(label: string): string {
  return canonicalGame(canonicalGameKey(label))?.name ?? label;
}

export const ACTIONS: readonly Action[] = ['C', 'D'];

/** The four payoffs of the row player, in the order CC, CD, DC, DD. */
export function rowPayoffs(g: Game): [number, number, number, number] {
  const p = g.payoffs;
  return [p.C.C[0], p.C.D[0], p.D.C[0], p.D.D[0]];
}

/**
 * Problems with a custom payoff matrix, as [path below `payoffs`, what is wrong] pairs; empty when
 * the matrix is usable. The row player's payoffs must not all be equal, because the λ diagnostic
 * and the simulated agent normalize them to range 1 (Same Game, Different Story §3.4).
 */
export function payoffProblems(payoffs: Game['payoffs']): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const r of ACTIONS) {
    for (const c of ACTIONS) {
      const cell = payoffs[r]?.[c];
      if (!Array.isArray(cell) || cell.length !== 2) {
        out.push([`${r}.${c}`, 'expected a pair [row player, column player]']);
        continue;
      }
      cell.forEach((v, i) => {
        if (typeof v !== 'number' || !Number.isFinite(v)) out.push([`${r}.${c}[${i}]`, 'expected a finite number']);
      });
    }
  }
  if (out.length === 0) {
    const u = [payoffs.C.C[0], payoffs.C.D[0], payoffs.D.C[0], payoffs.D.D[0]];
    if (Math.max(...u) === Math.min(...u)) {
      out.push(['', "the row player's four payoffs are all equal, so the game has no incentives to respond to"]);
    }
  }
  return out;
}

/** Deep equality of two payoff matrices. */
export function samePayoffs(a: Game['payoffs'], b: Game['payoffs']): boolean {
  return ACTIONS.every((r) => ACTIONS.every((c) => a[r][c][0] === b[r][c][0] && a[r][c][1] === b[r][c][1]));
}
