import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTables } from '../../src/commands/analyze.js';
import { counts, writeStore } from '../helpers/store.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-framings-'));

describe('analyze: a missing planned framing names the framings the run has', () => {
  it('lists them in the one-line error', () => {
    const dir = tmp();
    const store = join(dir, 'run.sqlite');
    const design = { name: 'd', models: [{ id: 'M', provider: 'simulated' }], games: ['stag-hunt'], framings: ['neutral', 'team'] };
    writeStore(store, design, [
      { model: 'M', game: 'stag-hunt', framing: 'neutral', actions: counts(3, 10) },
      { model: 'M', game: 'stag-hunt', framing: 'team', actions: counts(5, 10) },
    ]);
    expect(() => analyzeTables({ store, base: 'business', alt: 'team' })).toThrow(
      `${store}: model "M", game "stag-hunt" has no valid "business" trials (every model–game needs both planned framings; see --base/--alt); the run's framings are "neutral", "team"`);
  });
});
