#!/usr/bin/env node
/**
 * Writes the synthetic audit inputs used by the golden-output test and the audit benchmark:
 *   test/fixtures/audit/rates-5-framings.csv  3 models × 2 games × 5 framings (30 cells)
 *   test/fixtures/audit/rates-240-cells.csv   30 models × 4 games × 2 framings (10× the shipped 24)
 * Counts come from a fixed linear congruential sequence, so the files are the same on every run.
 * Usage: node scripts/audit-fixtures.mjs
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let state = 20260601;
const next = () => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state / 4294967296; };
const rate = (k, n) => (Math.round((k / n) * 1000) / 1000).toFixed(3);

function write(name, models, games, framings, n) {
  const lines = ['model,game,framing,n,rate'];
  for (const m of models) for (const g of games) {
    const base = next();
    for (const [f, framing] of framings.entries()) {
      // The first framing sits near `base`; the others move away from it by up to ±0.4.
      const p = Math.min(1, Math.max(0, f === 0 ? base : base + (next() - 0.3) * 0.8));
      lines.push(`${m},${g},${framing},${n},${rate(Math.round(p * n), n)}`);
    }
  }
  writeFileSync(join(root, 'test/fixtures/audit', name), `${lines.join('\n')}\n`);
}

write('rates-5-framings.csv', ['Model A', 'Model B', 'Model C'], ['Game 1', 'Game 2'],
  ['business', 'friend-sharing', 'neutral', 'team', 'market'], 300);
write('rates-240-cells.csv', Array.from({ length: 30 }, (_, i) => `M${String(i + 1).padStart(2, '0')}`),
  ['Prisoner\'s Dilemma', 'Snowdrift / Chicken', 'Stag Hunt', 'Prisoner\'s Delight / Harmony'], ['business', 'friend-sharing'], 300);
