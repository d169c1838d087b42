/**
 * A design is held, when it is read, to the name rule every reader of its store applies
 * (core/names-rule.ts): an id a reader would refuse as a level — a reserved name, a name over the
 * length limit — is one line naming the file, line and field, exit 2, before any call or store.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDesign } from '../../src/live/design/design.js';
import { levelFault, MAX_NAME_LENGTH } from '../../src/core/names-rule.js';
import { levelFault as readerLevelFault, MAX_NAME_LENGTH as READER_MAX } from '../../src/sources/reader-rules.js';
import { ROOT, runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-design-names-'));
const LONG = 'a'.repeat(MAX_NAME_LENGTH + 1);
const AT_LIMIT = 'a'.repeat(MAX_NAME_LENGTH);
const PAYOFFS = '{ C: { C: [3, 3], D: [0, 5] }, D: { C: [5, 0], D: [1, 1] } }';
const design = (o: { model?: string; game?: string; framing?: string }) => [
  'name: t',
  'models:',
  `  - { id: ${o.model ?? 'a'}, provider: simulated }`,
  `games: [${o.game === undefined ? 'harmony' : `{ id: ${o.game}, payoffs: ${PAYOFFS} }`}]`,
  `framings: [business, ${o.framing === undefined ? 'friend-sharing' : `{ id: ${o.framing}, family: business }`}]`,
  'trials: 2',
  'scoring: sample',
].join('\n');

const ENRICHMENT = readFileSync(join(ROOT, 'data/designs/enrichment-paraphrase.yaml'), 'utf8');

describe('design ids by the readers\' name rule', () => {
  it('is the readers\' rule itself, not a copy', () => {
    expect(readerLevelFault).toBe(levelFault);
    expect(READER_MAX).toBe(MAX_NAME_LENGTH);
  });

  it.each([
    ['a model named Pooled', { model: 'Pooled' }, 3, 'models[0].id', 'model id "Pooled" is reserved for the tables\' own pooled rows'],
    ['a game named All', { game: 'All' }, 4, 'games[0].id', 'game id "All" is reserved for the tables\' own per-model rows'],
    ['a model id over the limit', { model: LONG }, 3, 'models[0].id', `model id is ${MAX_NAME_LENGTH + 1} characters long (names may be at most ${MAX_NAME_LENGTH})`],
    ['a game id over the limit', { game: LONG }, 4, 'games[0].id', 'game id is 257 characters long'],
    ['a framing id over the limit', { framing: LONG }, 5, 'framings[1].id', 'framing id is 257 characters long'],
  ] as const)('%s: refused by run with file, line and field, exit 2, no store', async (_n, o, line, field, what) => {
    const file = join(dir, `d${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, design(o));
    const store = join(dir, `s${Math.random().toString(36).slice(2)}.sqlite`);
    const r = await runCli(['run', file, '--store', store, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${file}:${line}: field "${field}": ${what}`);
    expect(existsSync(store)).toBe(false);
  });

  it('a name at the limit is taken', () => {
    expect(parseDesign(design({ model: AT_LIMIT, game: AT_LIMIT, framing: AT_LIMIT }), 'x.yaml').models[0].id).toBe(AT_LIMIT);
  });

  it('a context-enrichment design: a scenario named All, a cell framing over the limit', () => {
    expect(() => parseDesign(ENRICHMENT.replace('scenario: pd-enrichment', 'scenario: All'), 'e.yaml'))
      .toThrow(/^e\.yaml:\d+: field "scenario": game id "All" is reserved/);
    // Each id within the limit, the stored framing condition/world/format over it.
    const cond = 'c'.repeat(200);
    const long = ENRICHMENT.replace('- id: neutral-padding', `- id: ${cond}`).replace('- id: cooperation-rewarded', `- id: ${'w'.repeat(60)}`)
      .replace(/cooperation-rewarded/g, 'w'.repeat(60));
    expect(() => parseDesign(long, 'e.yaml'))
      .toThrow(new RegExp(`^e\\.yaml:\\d+: field "conditions\\[0\\]\\.id": the cell framing condition/world/format of the longest ids is ${200 + 60 + 'paraphrase-1'.length + 2} characters long`));
  });
});
