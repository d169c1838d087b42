/**
 * Table 3's columns are one spec (stats/table3.ts): a statistic registered there — here the
 * absolute action shift |p_alt − p_base|, a name holding "_" — reaches the estimand, table3.csv,
 * the terminal table, the report, metrics.json, the checks, the coverage study and `--expect`,
 * with no other file changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerTable3Column, type Table3Column } from '../../../src/stats/table3.js';
import { reproduce, type ReproduceResult } from '../../../src/commands/reproduce.js';
import { table3Text } from '../../../src/analyses/two-framing/terminal.js';
import { twoFraming } from '../../../src/analyses/two-framing/index.js';
import { coverageStudy } from '../../../src/analyses/coverage/index.js';
import { cellRate } from '../../../src/core/cells.js';
import { POOLED, stat } from '../../../src/core/names.js';

const ABS: Table3Column = {
  column: 'abs_shift', label: '|Action shift|', info: { kind: 'shift', bounds: [0, 1] },
  cell: (pb, pa) => Math.abs(pa - pb),
  conservative: (x, a) => a * x,
  text: { quantity: 'absolute action shift', symbol: '|Δ|', short: '|Shift|' },
  names: { cell: 'abs_shift_raw', cellConservative: 'abs_shift_conservative', group: 'abs_shift_raw', groupConservative: 'abs_shift' },
};
const REPS = 300;
const file = (res: ReproduceResult, name: string) => String(res.files.find((f) => f.path.endsWith(name))!.content);

let dir: string;
let unregister: () => void;
let res: ReproduceResult;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'samegame-extra-'));
  unregister = registerTable3Column(ABS);
  res = reproduce({ out: dir, dryRun: true, reps: REPS, expect: false });
});
afterAll(() => { unregister(); rmSync(dir, { recursive: true, force: true }); });

describe('an extra Table 3 statistic', () => {
  it('is computed by the estimand: the pooled mean of |Δ| over model–games, times a', () => {
    const a = res.analysis;
    const raw = a.layout.pairs.map((p) => Math.abs(cellRate(a.table.cells[p.altIndex].obs) - cellRate(a.table.cells[p.baseIndex].obs)));
    const mean = raw.reduce((s, x) => s + x, 0) / raw.length;
    expect(a.boot.get(stat('abs_shift_raw', POOLED)).point).toBeCloseTo(mean, 12);
    expect(a.boot.get(stat('abs_shift', POOLED)).point).toBeCloseTo(0.7 * mean, 12);
    // R and shift are unchanged beside it (same draws per cell).
    const plain = reproduce({ dryRun: true, reps: REPS, expect: false });
    expect(a.boot.get(stat('R', POOLED))).toEqual(plain.analysis.boot.get(stat('R', POOLED)));
  });
  it('is a column of table3.csv, of the terminal and report tables, and of metrics.json', () => {
    expect(file(res, 'table3.csv').split('\n')[0]).toBe('model,R,R_lo,R_hi,shift,shift_lo,shift_hi,abs_shift,abs_shift_lo,abs_shift_hi');
    const pooled = res.table3.find((r) => r.model === POOLED)!;
    expect(pooled.abs_shift).toBe(res.analysis.boot.get(stat('abs_shift', POOLED)).point);
    expect(table3Text(res.table3, 0.7).split('\n')[1]).toMatch(/^Model\s+R\s+95% CI\s+Action shift\s+95% CI\s+\|Action shift\|\s+95% CI$/);
    const section = twoFraming.report.table3(res.analysis);
    expect(JSON.stringify(section)).toContain('|Action shift|');
    const metrics = JSON.parse(file(res, 'metrics.json'));
    expect(Object.keys(metrics.cells[0])).toEqual(expect.arrayContaining(['abs_shift_raw', 'abs_shift_conservative']));
    expect(Object.keys(metrics.pooled)).toEqual(['R_raw', 'shift_raw', 'abs_shift_raw', 'R', 'shift', 'abs_shift']);
    expect(metrics.pooled.abs_shift.point).toBeCloseTo(pooled.abs_shift as number, 11); // files carry 12 significant digits
  });
  it('is held to its declared bounds by the checks', () => {
    const interval = res.verification.checks.find((c) => c.name === 'intervals_ordered_and_contain_point')!;
    expect(interval.passed).toBe(true);
    // A spec whose values leave the bounds it declares fails the range check that selects its kind.
    const bad = registerTable3Column({ ...ABS, column: 'too_big', info: { kind: 'shift', bounds: [-1, 1] }, cell: () => 2, conservative: (x) => x,
      names: { cell: 'tb_raw', cellConservative: 'tb_conservative', group: 'tb_raw', groupConservative: 'tb' } });
    try {
      const r = reproduce({ dryRun: true, reps: 50, expect: false });
      const check = r.verification.checks.find((c) => c.name === 'shift_in_range')!;
      expect(check.passed).toBe(false);
      expect(check.failures!.join(' ')).toContain('tb[');
    } finally { bad(); }
  });
  it('has its coverage measured', () => {
    const cov = coverageStudy(res.analysis.table, { ...res.analysis.settings, reps: 50, sims: 3, methods: ['percentile'], truth: 'observed', level: 0.95 });
    expect(cov.rows.map((r) => r.statistic)).toContain('abs_shift[Pooled]');
  });
  it('is compared by --expect, its "_" and its interval ends read right', () => {
    const v = res.analysis.boot.get(stat('abs_shift', POOLED));
    const path = join(dir, 'published.csv');
    writeFileSync(path, `table,model,game,statistic,published\ntable3,Pooled,,abs_shift,${v.point.toFixed(4)}\ntable3,Pooled,,abs_shift_lo,${v.lo.toFixed(4)}\ntable3,Pooled,,R_hi,0.5\n`);
    const withExpect = reproduce({ dryRun: true, reps: REPS, expect: path });
    const rows = withExpect.reproduction!.rows;
    expect(rows.map((r) => [r.statistic, r.verdict])).toEqual([['abs_shift', 'exact'], ['abs_shift_lo', 'exact'], ['R_hi', 'differs']]);
    expect(rows[0].computed).toBe(v.point);
    expect(rows[1].computed).toBe(v.lo);
    expect(rows[2].computed).toBe(res.analysis.boot.get(stat('R', POOLED)).hi);
  });
});
