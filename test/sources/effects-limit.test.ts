import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_EFFECT_ROWS, readEffects } from '../../src/sources/effects-csv.js';
import { UserError } from '../../src/core/errors.js';

/** An effect table of n rows: one study, n model ids, one game. */
function table(n: number): string {
  const lines = ['study,model,game,yi,vi'];
  for (let i = 0; i < n; i++) lines.push(`s,m${i},pd,${(i % 7) / 10},0.01`);
  return lines.join('\n') + '\n';
}

describe('the effect-table row limit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-effects-limit-'));
  it('reads a table of exactly the limit', () => {
    const f = join(dir, 'at.csv');
    writeFileSync(f, table(MAX_EFFECT_ROWS));
    expect(readEffects(f).rows).toHaveLength(MAX_EFFECT_ROWS);
  });
  it('refuses one row more in one line naming the file and the count, before any fit', () => {
    const f = join(dir, 'over.csv');
    writeFileSync(f, table(MAX_EFFECT_ROWS + 1));
    let e: unknown;
    try { readEffects(f, 'over.csv'); } catch (x) { e = x; }
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toBe('over.csv: 200,001 effect rows; meta fits at most 200,000 (split the table, e.g. by study or model)');
  });
});
