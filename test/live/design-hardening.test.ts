/**
 * A repeated design that plays nothing is refused (a model naming itself as its only opponent),
 * and a bad number in a payoff matrix — of a design's game or of a log format's `actions.payoffs`
 * — is named at its own field ("expected a finite number"), not reported as the other branch of
 * a union (`actions.labels` missing, `actions.payoffs` unknown).
 */
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../src/live/design/design.js';
import { parseLogFormat } from '../../src/sources/logs/index.js';
import { UserError } from '../../src/core/errors.js';

const message = (f: () => unknown): string => {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
  throw new Error('accepted');
};

const repeated = (models: string, opponents: string) => `name: r
models:
${models}
games: [prisoners-dilemma]
framings: [{ id: jf, family: label-perturbation, labels: [J, F] }]
trials: 2
play:
  rounds: 3
  opponents: ${opponents}
`;

describe('a repeated design that plays nothing', () => {
  it('only model Sim-A with opponents [Sim-A] is refused naming the model (not "0 matches … 0 calls")', () => {
    expect(message(() => parseDesign(repeated('  - { id: Sim-A, provider: simulated }', '[Sim-A]'), 'r.yaml')))
      .toBe('r.yaml:9: field "play.opponents": model "Sim-A" plays no match: a model is not its own opponent by name (write self for self-play) and no other model meets it');
  });
  it('a model listed among the opponents of every model still plays: two models each meeting the other, or self', () => {
    const two = '  - { id: A, provider: simulated }\n  - { id: B, provider: simulated }';
    expect(parseDesign(repeated(two, '[A, B]'), 'r.yaml').play!.opponents).toHaveLength(2);
    expect(parseDesign(repeated('  - { id: A, provider: simulated }', '[self, A]'), 'r.yaml').models).toHaveLength(1);
    // B's only opponent is B itself, but A meets B: B plays (seat 2).
    expect(parseDesign(repeated(two, '[B]'), 'r.yaml').models).toHaveLength(2);
  });
});

describe('a bad number in a payoff matrix is named at its field', () => {
  const game = (dd: string) => `name: g
models:
  - { id: A, provider: simulated }
games:
  - { id: g, payoffs: { C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: ${dd} } } }
framings: [business]
trials: 2
`;
  it.each([['.nan', 'NaN'], ['.inf', 'Infinity'], ['"5"', 'string']])('design game payoff %s', (v, got) => {
    expect(message(() => parseDesign(game(`[${v}, 1]`), 'g.yaml'))).toBe(`g.yaml:5: field "games[0].payoffs.D.D[0]": expected a finite number (got ${got})`);
  });
  const format = (dd: string) => `name: x
shape: round
columns: [round, p1, p2, a1, a2, x1, x2]
match: consecutive
round: { column: round }
game: { constant: pd }
framing: { file_stem: true }
seats:
  - { model: { column: p1 }, opponent: { column: p2 }, action: a1, payoff: x1 }
  - { model: { column: p2 }, opponent: { column: p1 }, action: a2, payoff: x2 }
actions:
  payoffs: { C: { C: [8, 8], D: [0, 10] }, D: { C: [10, 0], D: ${dd} } }
`;
  it.each([['.nan', 'NaN'], ['.inf', 'Infinity'], ['"5"', 'string']])('log format actions.payoffs %s', (v, got) => {
    expect(message(() => parseLogFormat(format(`[${v}, 5]`), 'f.yaml'))).toBe(`f.yaml:12: field "actions.payoffs.D.D[0]": expected a finite number (got ${got})`);
  });
  it('log format: a 3-tuple is named at actions.payoffs.D.D, not as a missing label map', () => {
    expect(message(() => parseLogFormat(format('[5, 5, 5]'), 'f.yaml'))).toMatch(/^f\.yaml:12: field "actions\.payoffs\.D\.D": /);
  });
});
