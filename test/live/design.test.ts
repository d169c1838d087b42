import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { designHash, expandDesign, formatPath, loadDesign, parseDesign } from '../../src/live/design/design.js';
import { designJsonSchema } from '../../src/live/design/schema.js';
import { UserError } from '../../src/core/errors.js';
import { ROOT } from '../helpers/cli.js';
import { parseLogFormat } from '../../src/sources/logs/index.js';

const FIX = join(ROOT, 'test/fixtures/designs');
const message = (f: () => unknown): string => {
  try { f(); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
  throw new Error('expected a UserError');
};
const base = (over: Record<string, string>) => {
  const parts = {
    name: 'name: t', models: 'models: [{ id: a, provider: simulated }]', games: 'games: [harmony]',
    framings: 'framings: [business]', trials: 'trials: 2', ...over,
  };
  return Object.values(parts).filter((s) => s !== '').join('\n');
};

describe('loadDesign: valid designs', () => {
  it('resolves games, framings, decoding and prices', () => {
    const d = loadDesign(join(FIX, 'valid-custom.yaml'));
    expect(d.models.map((m) => [m.id, m.provider, m.model])).toEqual([['Sim-1', 'simulated', 'Sim-1'], ['mini', 'openai-chat', 'llama-3.1-8b-instruct']]);
    expect(d.models[1].baseUrl).toBe('http://127.0.0.1:8000/v1');
    expect(d.models[1].apiKeyEnv).toBe('LOCAL_KEY');
    expect(d.models[0].decoding).toEqual({ temperature: 0.7, maxTokens: 8, seed: 11 });
    expect(d.models[1].decoding).toEqual({ temperature: 0, maxTokens: 8, seed: 11 }); // the model's own temperature wins
    expect(d.models[0].prices).toEqual({ input: 1, output: 2 });
    expect(d.models[1].prices).toEqual({ input: 0.1, output: 0.2 });
    expect(d.games.map((g) => g.id)).toEqual(['stag-hunt', 'trust-lite']);
    expect(d.games[1]).toEqual({ id: 'trust-lite', name: 'Trust (lite)', payoffs: { C: { C: [4, 4], D: [0, 6] }, D: { C: [6, 0], D: [1, 1] } } });
    expect(d.framings).toEqual([{ id: 'business', family: 'business', labels: ['C', 'D'] }, { id: 'jf', family: 'label-perturbation', labels: ['J', 'F'] }]);
    expect(d.scoring).toBe('sample');
    expect(d.synthetic).toBe(false);
  });

  it('expands in the order model, game, framing, rep', () => {
    const specs = expandDesign(loadDesign(join(FIX, 'valid-custom.yaml')));
    expect(specs).toHaveLength(2 * 2 * 2 * 3);
    expect(specs.slice(0, 7).map((s) => `${s.model.id}|${s.game}|${s.framing}|${s.rep}`)).toEqual([
      'Sim-1|stag-hunt|business|0', 'Sim-1|stag-hunt|business|1', 'Sim-1|stag-hunt|business|2',
      'Sim-1|stag-hunt|jf|0', 'Sim-1|stag-hunt|jf|1', 'Sim-1|stag-hunt|jf|2', 'Sim-1|trust-lite|business|0',
    ]);
    expect(specs.at(-1)).toMatchObject({ game: 'trust-lite', framing: 'jf', rep: 2, labels: { J: 'C', F: 'D' }, actionWords: ['J', 'F'] });
    expect(specs.at(-1)!.model).toEqual({ id: 'mini', provider: 'openai-chat', model: 'llama-3.1-8b-instruct', baseUrl: 'http://127.0.0.1:8000/v1', apiKeyEnv: 'LOCAL_KEY', options: {} });
    expect(specs.at(-1)!.context.game!.payoffs.D.C).toEqual([6, 0]);
    expect(new Set(specs.map((s) => `${s.model.id}|${s.game}|${s.framing}|${s.rep}`)).size).toBe(specs.length);
  });

  it('logprobs scoring asks for 20 alternatives unless the design says otherwise', () => {
    expect(parseDesign(base({ trials: 'trials: 1\nscoring: logprobs' }), 'x.yaml').models[0].decoding.topLogprobs).toBe(20);
    expect(parseDesign(base({ trials: 'trials: 1\nscoring: logprobs\ndecoding: { top_logprobs: 5 }' }), 'x.yaml').models[0].decoding.topLogprobs).toBe(5);
  });

  it('ships a quickstart (simulated, synthetic) and the same-game design', () => {
    const q = loadDesign(join(ROOT, 'data/designs/quickstart.yaml'));
    expect(q.synthetic).toBe(true);
    expect(q.models.every((m) => m.provider === 'simulated')).toBe(true);
    expect(expandDesign(q)).toHaveLength(q.models.length * 4 * q.framings.length * q.trials);
    const s = loadDesign(join(ROOT, 'data/designs/same-game.yaml'));
    expect(s.models).toHaveLength(3);
    expect(s.models.every((m) => m.apiKeyEnv === 'OPENAI_API_KEY' && m.provider.startsWith('openai-'))).toBe(true);
    expect(s.trials).toBe(300);
    expect(s.models.every((m) => m.decoding.temperature === 0.8)).toBe(true);
    expect(s.games.map((g) => g.id)).toEqual(['prisoners-dilemma', 'snowdrift', 'stag-hunt', 'harmony']);
    const fams = new Set(s.framings.map((f) => f.family));
    for (const f of ['business', 'friend-sharing', 'abstract-matrix', 'neutral-narrative', 'cooperative-narrative',
      'competitive-narrative', 'role-narrative', 'label-perturbation']) expect(fams.has(f), f).toBe(true);
  });
});

describe('designHash', () => {
  const a = base({});
  it('is a SHA-256 hex digest that ignores comments, layout and key order', () => {
    const h = designHash(parseDesign(a, 'a.yaml'));
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    const b = ['# a comment', 'trials: 2', 'framings:\n  - business', 'games: [harmony]', 'models:\n  - provider: simulated\n    id: a', 'name: t'].join('\n');
    expect(designHash(parseDesign(b, 'b.yaml'))).toBe(h);
  });
  it('changes when anything that changes the trials changes', () => {
    const h = designHash(parseDesign(a, 'a.yaml'));
    expect(designHash(parseDesign(base({ trials: 'trials: 3' }), 'a.yaml'))).not.toBe(h);
    expect(designHash(parseDesign(base({ trials: 'trials: 2\ndecoding: { seed: 1 }' }), 'a.yaml'))).not.toBe(h);
    expect(designHash(parseDesign(base({ models: 'models: [{ id: a, provider: simulated, options: { lambda: 2 } }]' }), 'a.yaml'))).not.toBe(h);
  });
});

describe('loadDesign: errors name the file, the line, the document path and what was expected', () => {
  it('an unknown provider: models[1].provider', () => {
    const f = join(FIX, 'bad-provider.yaml');
    const m = message(() => loadDesign(f));
    expect(m).toContain(`${f}:6: field "models[1].provider": `);
    expect(m).toMatch(/expected one of "openai-responses"\|"openai-chat"\|"anthropic"\|"gemini"\|"simulated"/);
  });
  it('a bad custom matrix: games[2].payoffs…', () => {
    const f = join(FIX, 'bad-payoffs.yaml');
    const m = message(() => loadDesign(f));
    expect(m).toContain(`${f}:9: field "games[2].payoffs.C.D[1]": `);
    expect(m).toMatch(/expected a finite number/);
    expect(m).toContain(`${f}:10: field "games[2].payoffs.D.D": required field is missing (expected a pair [row player, column player])`);
  });
  it('YAML syntax errors give the line', () => {
    const f = join(FIX, 'bad-syntax.yaml');
    expect(message(() => loadDesign(f))).toMatch(new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5: invalid YAML`));
  });
  it('a missing file', () => {
    expect(message(() => loadDesign(join(FIX, 'nope.yaml')))).toMatch(/nope\.yaml: cannot read the design \(ENOENT\)/);
  });
  it.each([
    [{ trials: '' }, 'x.yaml:1: field "trials": required field is missing (expected number)'],
    [{ trials: 'trials: 0' }, 'x.yaml:5: field "trials": Too small'],
    [{ trials: 'trials: 10000000' }, 'x.yaml:5: field "trials": too large: at most 1,000,000 trials per cell'],
    [{ trials: 'trials: 1e12' }, 'x.yaml:5: field "trials": too large: at most 1,000,000 trials per cell'],
    [{ trials: 'trials: 1000000', games: 'games: [harmony, prisoners-dilemma, snowdrift]' },
      'x.yaml:5: field "trials": too large: 3,000,000 trials in all (cells × trials); at most 2,000,000 per design'],
    [{ trials: 'trials: 2\ndecoding: { temprature: 1 }' }, 'x.yaml:6: field "decoding.temprature": unknown field'],
    [{ games: 'games: [harmony, chicken]' }, 'x.yaml:3: field "games[1]": Invalid option: expected one of "prisoners-dilemma"'],
    [{ games: 'games:\n  - harmony\n  - { id: flat, payoffs: { C: { C: [1, 0], D: [1, 9] }, D: { C: [1, 2], D: [1, 3] } } }' },
      'x.yaml:5: field "games[1].payoffs": the row player\'s four payoffs are all equal'],
    [{ games: 'games:\n  - { id: harmony, payoffs: { C: { C: [1, 0], D: [2, 9] }, D: { C: [1, 2], D: [1, 3] } } }' },
      'x.yaml:4: field "games[0].id": custom game id "harmony" is a canonical game with different payoffs'],
    [{ framings: 'framings: [business, business]' }, 'x.yaml:4: field "framings[1]": duplicate framing id "business" (first used at framings[0])'],
    [{ framings: 'framings:\n  - { id: cc, family: label-perturbation, labels: [COOP, CHEAT] }' }, 'x.yaml:5: field "framings[0].labels": the labels "COOP" and "CHEAT" start with the same character'],
    [{ framings: 'framings:\n  - { id: z, family: abstract }' }, 'x.yaml:5: field "framings[0].family": Invalid option'],
    [{ models: 'models:\n  - { id: a, provider: simulated, options: { lambda: fast } }' },
      'x.yaml:3: field "models[0].options.lambda": expected a finite number (got string)'],
    [{ models: 'models:\n  - { id: a, provider: simulated, options: { bias: { buisness: 1 } } }' }, 'x.yaml:3: field "models[0].options.bias.buisness": no framing with id "buisness"'],
    [{ models: 'models:\n  - { id: a, provider: simulated }\n  - { id: a, provider: simulated }' }, 'x.yaml:4: field "models[1].id": duplicate model id "a"'],
    [{ models: 'models:\n  - { id: "a b", provider: simulated }' }, 'x.yaml:3: field "models[0].id": expected an id'],
    [{ models: 'models:\n  - { id: a, provider: openai-chat, api_key_env: "sk-123" }' }, 'x.yaml:3: field "models[0].api_key_env": expected the NAME of an environment variable'],
    [{ models: 'models: []' }, 'x.yaml:2: field "models": Too small'],
  ])('%j', (over, want) => {
    expect(message(() => parseDesign(base(over as Record<string, string>), 'x.yaml'))).toContain(want);
  });
  it('a document that is not a mapping', () => {
    expect(message(() => parseDesign('- a\n- b\n', 'x.yaml'))).toMatch(/^x\.yaml:1: a design must be a YAML mapping/);
  });
  it('lists several problems at once, capped', () => {
    const m = message(() => parseDesign('name: ""\nmodels: []\ngames: []\nframings: []\ntrials: 0\nscoring: maybe\nx: 1\ny: 2\nz: 3\n', 'x.yaml'));
    expect(m.split('\n').length).toBe(9);
    expect(m).toMatch(/\(and 1 more problem\)$/);
  });
});

describe('formatPath', () => {
  it('writes indices in brackets and odd keys quoted', () => {
    expect(formatPath(['models', 1, 'options', 'bias', 'a b'])).toBe('models[1].options.bias["a b"]');
    expect(formatPath([])).toBe('');
  });
});

describe('design JSON Schema', () => {
  it('data/designs/design.schema.json is current (regenerate: npx tsc -p . && node scripts/design-schema.mjs)', () => {
    const committed = readFileSync(join(ROOT, 'data/designs/design.schema.json'), 'utf8');
    expect(committed).toBe(`${JSON.stringify(designJsonSchema(), null, 2)}\n`);
  });
  it('requires the five core fields and lists the providers', () => {
    const s = designJsonSchema() as { required: string[]; properties: Record<string, unknown> };
    expect([...s.required].sort()).toEqual(['framings', 'games', 'models', 'name', 'trials']);
    expect(JSON.stringify(s.properties.models)).toContain('"openai-responses"');
  });
});

describe('reserved ids', () => {
  it('a model named Pooled or a custom game named All is refused with its document path', () => {
    expect(message(() => parseDesign(base({ models: 'models: [{ id: Pooled, provider: simulated }]' }), 'x.yaml')))
      .toContain('field "models[0].id": model id "Pooled" is reserved');
    expect(message(() => parseDesign(base({ games: 'games: [{ id: All, payoffs: { C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } } }]' }), 'x.yaml')))
      .toContain('game id "All" is reserved');
  });
});

/**
 * A repeated design that plays nothing is refused (a model naming itself as its only opponent),
 * and a bad number in a payoff matrix — of a design's game or of a log format's `actions.payoffs`
 * — is named at its own field ("expected a finite number"), not reported as the other branch of
 * a union (`actions.labels` missing, `actions.payoffs` unknown).
 */
describe('designs that play nothing or hold a bad payoff number', () => {
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
});
