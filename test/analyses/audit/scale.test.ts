import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditCompute } from '../../../src/commands/audit.js';
import { UserError } from '../../../src/core/errors.js';
import { MemoryLogger } from '../../../src/core/logger.js';
import { robustness2 } from '../../../src/stats/jsd.js';

const SHIPPED = 'data/lore-heydari-2024/rates.csv';
const quick = { reps: 200, searchReps: 200, logger: new MemoryLogger() };

describe('audit sizes', () => {
  it('refuses a table above --max-cells before any work, naming the file, the cells and the limit', () => {
    expect(() => auditCompute({ data: SHIPPED, maxCells: 23, ...quick })).toThrow(UserError);
    expect(() => auditCompute({ data: SHIPPED, maxCells: 23, ...quick }))
      .toThrow(`${SHIPPED}: 24 cells: the audit takes at most 23 (its searches grow with the square of the cells)`);
    expect(auditCompute({ data: SHIPPED, maxCells: 24, ...quick }).tipping.length).toBe(6);
  });

  it('audits counts in the millions: every tipping table found is verified, the order by R reverses', () => {
    // Two models, one game, n = 1,000,000 per cell: the sampler is BTRD, R2 is no table lookup,
    // and the order tipping needs far more than 2,048 changes (the grid programme).
    const dir = mkdtempSync(join(tmpdir(), 'samegame-scale-'));
    const file = join(dir, 'million.csv');
    const n = 1_000_000;
    writeFileSync(file, ['model,game,framing,n,rate', `A,Stag Hunt,business,${n},0.400`, `A,Stag Hunt,friend-sharing,${n},0.420`,
      `B,Stag Hunt,business,${n},0.300`, `B,Stag Hunt,friend-sharing,${n},0.500`].join('\n') + '\n');
    const r = auditCompute({ data: file, ...quick });
    const order = r.tipping.find((t) => t.id === 'order-by-R')!;
    expect(order.holds).toBe(true);
    expect(order.method).toBe('dp-grid');
    expect(order.verified).toBe(true);
    // Recompute the two R2 values of the changed table by hand: B's must now exceed A's.
    const counts = new Map(r.input.table.cells.map((c, i) => [i, (c.obs as { x: number }).x]));
    for (const c of order.cells) counts.set(c.index, c.to);
    const x = [...counts.values()];
    expect(robustness2(x[2] / n, x[3] / n)).toBeGreaterThan(robustness2(x[0] / n, x[1] / n));
    expect(order.changes).toBe(order.cells.reduce((s, c) => s + Math.abs(c.to - c.from), 0));
    for (const t of r.tipping) if (t.changes !== undefined) expect(t.verified).toBe(true);
  });
});
