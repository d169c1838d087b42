import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, exportTrials, init, run } from '../../src/index.js';
import { MemoryLogger } from '../../src/core/logger.js';

/**
 * One route for repeated play: a simulated repeated run analysed from its store, and exported then read back as a
 * per-decision log (`analyze --trials FILE --format DESCRIPTION`), give byte-identical tables (Table 3, cells, rounds,
 * reactions, end game, models, Table 2 and their .tex), and both say synthetic: table3.csv's column, the .tex notices, the
 * report. The export's sidecar brings back the synthetic flag and the design's names (here: Sim shown as "Simulated One").
 */
const dir = mkdtempSync(join(tmpdir(), 'samegame-route-repeated-'));
const read = (...p: string[]) => readFileSync(join(dir, ...p), 'utf8');
const TABLES = ['table3.csv', 'table3.tex', 'table2.csv', 'table2.tex', 'cells.csv', 'cells.tex', 'rounds.csv', 'reactions.csv', 'endgame.csv', 'models.csv'];

beforeAll(async () => {
  const logger = new MemoryLogger();
  init({ name: 'rp', kind: 'repeated', dir, logger });
  const design = join(dir, 'rp.yaml');
  writeFileSync(design, read('rp.yaml').replace(/^synthetic: true$/m, 'synthetic: true\nnames: { Sim: Simulated One }'));
  const store = join(dir, 'rp.sqlite');
  await run({ design, store, logger });
  await analyze({ store, out: join(dir, 'a'), reps: 200, seed: 3, figures: false, logger });
  await exportTrials({ store, format: 'csv', out: join(dir, 'rp.csv') });
  await analyze({ trials: join(dir, 'rp.csv'), format: join(__dirname, '..', '..', 'data', 'log-formats', 'samegame-export.yaml'), out: join(dir, 't'),
    reps: 200, seed: 3, figures: false, logger });
}, 120_000);

describe('repeated play on every route', () => {
  it.each(TABLES)('%s: byte-identical from the store and from its export', (f) => {
    expect(read('t', 'reports', f)).toBe(read('a', 'reports', f));
  });

  it('both are labelled synthetic, and the names come back through the sidecar', () => {
    for (const out of ['a', 't']) {
      const t3 = read(out, 'reports', 'table3.csv').trimEnd().split('\n');
      expect(t3[0].split(',').at(-1)).toBe('synthetic');
      expect(t3.slice(1).every((r) => r.endsWith(',true'))).toBe(true);
      expect(read(out, 'reports', 'table3.tex')).toMatch(/^% Synthetic data: /);
      expect(read(out, 'reports', 'cells.tex')).toContain('\\textbf{Synthetic data:');
      expect(read(out, 'reports', 'cells.csv')).toContain('Simulated One');
    }
  });
});
