/**
 * The fixture store of the Parquet export's reference: 3 models × 2 games × 2 framings, a seeded
 * number of trials per cell (some invalid), with a persona factor; written the same way every time,
 * so counts.py's numbers (counts.json, computed with pyarrow on its export) hold for every run of the test.
 * Regenerate: npx tsx test/reference/parquet-export/fixture-store.ts OUT.sqlite, then
 * node bin/samegame.js export OUT.sqlite --format parquet --out DIR, then python3 test/reference/parquet-export/counts.py DIR.
 */
import { writeStore, type CellSpec } from '../../helpers/store.js';
import { uniforms } from '../../helpers/uniforms.js';
import type { Action } from '../../../src/live/types.js';

export function writeFixtureStore(path: string): void {
  const u = uniforms(46);
  const cells: CellSpec[] = [];
  for (const model of ['gpt-x', 'claude-y', 'llama/z']) for (const game of ['prisoners-dilemma', 'stag-hunt']) for (const framing of ['business', 'friend-sharing']) {
    const n = 5 + Math.floor(u() * 20);
    const p = u();
    const actions: (Action | null)[] = Array.from({ length: n }, () => (u() < 0.1 ? null : u() < p ? 'C' : 'D'));
    cells.push({ model, game, framing, actions, factors: { persona: u() < 0.5 ? 'plain' : 'warm' } });
  }
  writeStore(path, { name: 'parquet-fixture', models: ['gpt-x', 'claude-y', 'llama/z'] }, cells);
}

if (process.argv[1]?.endsWith('fixture-store.ts') && process.argv[2]) writeFixtureStore(process.argv[2]);
