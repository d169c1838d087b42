/**
 * An aggregates table (docs/reference/aggregates.md) whose round is whole but past the rounds a log may hold (1,000,000, the log
 * rule's bound): refused in one line naming the row and column, as a round of 0 is — not a DuckDB conversion error or an
 * array sized by the round.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAggregatesFile } from '../../../src/sources/engine/index.js';
import { UserError } from '../../../src/core/errors.js';

const header = 'model,game,framing,opponent,match,round,previous,decisions,valid,cooperations';
const row = (round: string) => `m,pd,base,tft,g1,${round},,1,1,1`;

describe('an aggregates table round past the bound', () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-agg-rounds-'));
  const read = async (rounds: string[]) => {
    const f = join(dir, `a${rounds.join('-').replace(/[^0-9a-z]/gi, '')}.csv`);
    writeFileSync(f, [header, ...rounds.map(row)].join('\n') + '\n');
    return readAggregatesFile(f, 'a.csv').then(() => undefined, (e: unknown) => e);
  };
  it('reads rounds up to 1,000,000', async () => {
    expect(await read(['1', '1000000'])).toBeUndefined();
  });
  for (const big of ['1000001', '2147483648', '1e300']) {
    it(`refuses round ${big} at its row`, async () => {
      const e = await read(['1', big]);
      expect(e).toBeInstanceOf(UserError);
      expect((e as Error).message).toBe(`a.csv: row 2: column "round": "${big}" is not valid here (docs/reference/aggregates.md)`);
    });
  }
});
