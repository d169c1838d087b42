/**
 * Table 3's columns are one spec (stats/table3.ts): a statistic registered there — here the
 * absolute action shift |p_alt − p_base|, a name holding "_" — reaches the estimand, table3.csv,
 * the terminal table, the report, metrics.json, the checks, the coverage study, `--expect`, the
 * figures, table3.tex and, as it declares a conclusion (its interval excludes 0), the audit's
 * searches and outputs, `--simultaneous` (its own sup-t band), `plan --statistic` and `--pooling
 * random`, with no other file changed; a statistic that declares none leaves the audit as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerTable3Column, type Table3Column } from '../../../src/stats/table3.js';
import { reproduceTables, type ReproduceResult } from '../../../src/commands/reproduce.js';
import { table3Text } from '../../../src/analyses/two-framing/terminal.js';
import { twoFraming } from '../../../src/analyses/two-framing/index.js';
import { coverageStudy } from '../../../src/analyses/coverage/index.js';
import { cellRate } from '../../../src/core/cells.js';
import { POOLED, stat } from '../../../src/core/names.js';
import { twoFramingFigures } from '../../../src/analyses/two-framing/figures.js';
import { analyzeTwoFraming } from '../../../src/analyses/two-framing/analysis.js';
import { audit, auditPlan, SearchWorkspace, type AuditResult } from '../../../src/analyses/audit/index.js';
import { readRates } from '../../../src/sources/rates-csv.js';
import { intervalParts } from '../../helpers/latex.js';
import { reproduce } from '../../../src/commands/reproduce-outputs.js';
import { silentLogger } from '../../../src/core/logger.js';
import { fixed } from '../../../src/core/format.js';
import { meta } from '../../../src/analyses/meta/index.js';
import { scaleTable } from '../../../src/analyses/precision/plan.js';
import { runInProcess } from '../../helpers/in-process.js';

const ABS: Table3Column = {
  column: 'abs_shift', label: '|Action shift|', info: { kind: 'shift', bounds: [0, 1] },
  cell: (pb, pa) => Math.abs(pa - pb),
  conservative: (x, a) => a * x,
  text: { quantity: 'absolute action shift', short: 'Abs. shift', formula: '|shift|_c = a·|Δ|' },
  // |Δ| ≥ 0 is 0 exactly at equal rates: its interval excludes 0 until enough replicates have equal rates in every pair.
  audit: { excludes: { value: 0, side: 'either' }, groups: 'pooled', order: 2, valueAtEqualRates: true },
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
  res = reproduceTables({ out: dir, reps: REPS, expect: false });
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
    const plain = reproduceTables({ reps: REPS, expect: false });
    expect(a.boot.get(stat('R', POOLED))).toEqual(plain.analysis.boot.get(stat('R', POOLED)));
  });
  it('is a column of table3.csv, of the terminal and report tables, and of metrics.json', () => {
    expect(file(res, 'table3.csv').split('\n')[0]).toBe('model,R,R_lo,R_hi,shift,shift_lo,shift_hi,abs_shift,abs_shift_lo,abs_shift_hi,R_corrected,R_corrected_lo,R_corrected_hi,shift_wilson_lo,shift_wilson_hi');
    const pooled = res.table3.find((r) => r.model === POOLED)!;
    expect(pooled.abs_shift).toBe(res.analysis.boot.get(stat('abs_shift', POOLED)).point);
    expect(table3Text(res.table3, 0.7).split('\n')[1]).toMatch(/^Model\s+R\s+95% CI\s+Action shift\s+95% CI\s+\|Action shift\|\s+95% CI\s+R corrected\s+90% CI \(test inversion; each end one-sided 95%\)\s+95% CI \(MOVER-Wilson\)$/);
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
      const r = reproduceTables({ reps: 50, expect: false });
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
    const withExpect = reproduceTables({ reps: REPS, expect: path });
    const rows = withExpect.reproduction!.rows;
    expect(rows.map((r) => [r.statistic, r.verdict])).toEqual([['abs_shift', 'exact'], ['abs_shift_lo', 'exact'], ['R_hi', 'differs']]);
    expect(rows[0].computed).toBe(v.point);
    expect(rows[1].computed).toBe(v.lo);
    expect(rows[2].computed).toBe(res.analysis.boot.get(stat('R', POOLED)).hi);
  });
});

describe('an extra Table 3 statistic in the figures and table3.tex', () => {
  const spec = (id: string) => twoFramingFigures(res.analysis).find((f) => f.id === id)!;
  it('is a panel of the Table 3 forest, with every model and Pooled', () => {
    const f = spec('table3-forest').spec as unknown as { title: { text: string }; facet: { column: { sort: string[] } }; data: { values: { model: string; statistic: string; estimate: number }[] } };
    const panel = '|Action shift| (conservative, a = 0.7)';
    expect(f.facet.column.sort).toEqual(['R (conservative, a = 0.7)', 'Action shift (conservative, a = 0.7)', panel]);
    expect(f.title.text).toBe('Table 3: robustness R, action shift and absolute action shift');
    const rows = f.data.values.filter((v) => v.statistic === panel);
    expect(rows.map((v) => v.model)).toEqual([...res.analysis.layout.models, POOLED]);
    for (const v of rows) expect(v.estimate).toBe(res.analysis.boot.get(stat('abs_shift', v.model)).point);
  });
  it('has a bootstrap histogram of its pooled replicates', () => {
    const f = spec('bootstrap-pooled');
    const panels = (f.spec as unknown as { hconcat: { title: { text: string }; layer: { data: { values: { count?: number }[] } }[] }[] }).hconcat;
    expect(panels.map((p) => p.title.text)).toEqual(['Pooled R (conservative, a = 0.7)', 'Pooled action shift (conservative, a = 0.7)', 'Pooled absolute action shift (conservative, a = 0.7)']);
    expect(panels[2].layer[0].data.values.reduce((n, b) => n + (b.count ?? 0), 0)).toBe(REPS);
    expect(f.caption).toContain('the pooled R, action shift and absolute action shift.');
  });
  it('is a column of table3.tex, its point and interval with the numbers of table3.csv at three decimals', () => {
    const tex = file(res, 'table3.tex');
    expect(tex).toContain('Model & R & Shift & Abs. shift \\\\');
    expect(tex).toContain('\\caption{Robustness R, action shift and absolute action shift per model,');
    const csv = file(res, 'table3.csv').split('\n');
    const at = csv[0].split(',').indexOf('abs_shift');
    const pooledCsv = csv.find((l) => l.startsWith(`${POOLED},`))!.split(',');
    const pooledTex = tex.split('\n').find((l) => l.startsWith(`${POOLED} &`))!.replace(/ \\\\$/, '').split(' & ');
    expect(intervalParts(pooledTex[pooledTex.length - 1])).toEqual(pooledCsv.slice(at, at + 3).map((x) => Number(x).toFixed(3)));
  });
});

describe('an extra Table 3 statistic that declares a conclusion, in the audit', () => {
  const input = () => readRates('data/lore-heydari-2024/rates.csv', { base: 'business', alt: 'friend-sharing' });
  const settings = audit.settings({ reps: 400, searchReps: 400 });
  let r: Omit<AuditResult, 'files'>;
  beforeAll(() => { r = audit.run(input(), settings); });
  const ID = `abs_shift-excludes-0[${POOLED}]`;

  it('is searched for its tipping point, listed after the built-in conclusions, and the changed table overturns it when re-run', () => {
    expect(r.tipping.map((t) => t.id)).toEqual([...['Pooled', 'GPT-3.5', 'GPT-4', 'LLaMa-2'].map((g) => `shift-excludes-0[${g}]`), 'order-by-R', `R-excludes-1[${POOLED}]`, ID]);
    const t = r.tipping.find((x) => x.id === ID)!;
    expect(t.statement).toBe('the pooled absolute-action-shift interval excludes 0');
    expect(t.holds).toBe(true);
    expect(t.changes).toBeGreaterThan(0);
    expect(t.changes).toBe(t.cells.reduce((n, c) => n + Math.abs(c.to - c.from), 0));
    // Independently of the audit: apply its changes to the table and bootstrap again.
    const table = r.analysis.table;
    const changed = { ...table, cells: table.cells.map((c, i) => {
      const ch = t.cells.find((x) => x.index === i);
      return ch ? { ...c, obs: { kind: 'binary' as const, n: (c.obs as { n: number }).n, x: ch.to } } : c;
    }) };
    const after = analyzeTwoFraming(changed, r.analysis.settings).boot.get(stat('abs_shift', POOLED));
    expect(after.lo > 0).toBe(false);
    expect(t.verified).toBe(true);
  });
  it('has its reading-error ranges: the point range is the mean of per-pair extremes within ±1 in [0, n] (by enumeration here), times a', () => {
    const ranges = r.readingError.ranges.filter((x) => x.kind === 'abs_shift');
    expect(ranges.map((x) => `${x.group}:${x.which}`)).toEqual([...r.analysis.layout.models, POOLED].flatMap((g) => ['point', 'lo', 'hi'].map((w) => `${g}:${w}`)));
    const t = r.analysis.table;
    const extreme = (dir: 1 | -1) => r.analysis.layout.pairs.reduce((s, p) => {
      const b = t.cells[p.baseIndex].obs as { n: number; x: number }, a = t.cells[p.altIndex].obs as { n: number; x: number };
      let best = -Infinity;
      const within = (o: { n: number; x: number }) => [-1, 0, 1].map((d) => o.x + d).filter((x) => x >= 0 && x <= o.n); // counts stay in [0, n]
      for (const xb of within(b)) for (const xa of within(a)) best = Math.max(best, dir * Math.abs(xa / a.n - xb / b.n));
      return s + dir * best;
    }, 0) / r.analysis.layout.pairs.length;
    const pooled = ranges.find((x) => x.group === POOLED && x.which === 'point')!;
    expect(pooled.max).toBeCloseTo(0.7 * extreme(1), 12);
    expect(pooled.min).toBeCloseTo(0.7 * extreme(-1), 12);
  });
  it('is in the influence, attenuation sweep and Monte Carlo sections, audit.json, audit.md and the audit figures', () => {
    const full = r.analysis.boot.get(stat('abs_shift', POOLED));
    expect(Object.keys(r.influence.full)).toEqual(['R', 'shift', 'abs_shift']);
    expect(r.influence.full.abs_shift.point).toBeCloseTo(full.point, 12);
    const one = r.attenuation.find((x) => x.attenuation === 1 && x.group === POOLED)!;
    expect(one.values.abs_shift.point).toBeCloseTo(r.analysis.boot.get(stat('abs_shift_raw', POOLED)).point, 12);
    expect(r.mcError.filter((m) => m.kind === 'abs_shift').map((m) => m.group)).toEqual([...r.analysis.layout.models, POOLED]);
    const json = JSON.parse(audit.report.json(r));
    expect(json.settings.headline).toBe('conservative R, action shift and absolute action shift, per model and pooled (Table 3)');
    expect(Object.keys(json.attenuation.rows[0])).toEqual(['attenuation', 'marks', 'group', 'R', 'shift', 'abs_shift']);
    expect(json.tipping_points.map((x: { id: string }) => x.id)).toContain(ID);
    const md = audit.report.markdown(r);
    expect(md).toContain('| pair left out | Δ pooled R | Δ R lo | Δ R hi | Δ pooled shift | Δ shift lo | Δ shift hi | Δ pooled abs_shift | Δ abs_shift lo | Δ abs_shift hi | Δ own model R | Δ own model shift | Δ own model abs_shift |');
    expect(md).toContain('shift_c = a·Δ, R_c = 1 − a(1 − R2), |shift|_c = a·|Δ|');
    const [sweep, bars] = audit.figures(r.attenuation, r.tipping, r.readingError.K, r.analysis);
    expect((sweep.spec as unknown as { facet: { column: { sort: string[] } } }).facet.column.sort).toEqual(['R (conservative)', 'Action shift (conservative)', '|Action shift| (conservative)']);
    expect(JSON.stringify(bars.spec)).toContain('pooled absolute-action-shift interval excludes 0');
  });
  it('a statistic that declares no conclusion leaves the audit as it was', () => {
    const before = audit.report.json(r);
    const plain = registerTable3Column({ ...ABS, column: 'abs_shift_2', audit: undefined,
      names: { cell: 'abs2_raw', cellConservative: 'abs2_conservative', group: 'abs2_raw', groupConservative: 'abs2' } });
    try {
      expect(audit.report.json(audit.run(input(), settings))).toBe(before);
    } finally { plain(); }
  });
  it('a worker thread whose spec lacks an audited column refuses the job (its tasks then run on the calling thread)', () => {
    const plan = auditPlan(input(), settings);
    expect(plan.job.columns).toEqual(['R', 'shift', 'abs_shift']);
    expect(() => new SearchWorkspace({ ...plan.job, columns: ['R', 'shift', 'not_registered'] })).toThrow(/no column not_registered/);
  });
});

describe('an extra Table 3 statistic under --simultaneous, plan --statistic and --pooling random', () => {
  const RATES = 'data/lore-heydari-2024/rates.csv';
  let out: string;
  let printed: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'samegame-extra-routes-'));
    let text = '';
    await reproduce({ data: RATES, out, reps: REPS, simultaneous: true, pooling: 'random', figures: false, expect: false,
      logger: { ...silentLogger, print: (s: string) => { text += `${s}\n`; } } });
    printed = text;
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const read = (name: string) => readFileSync(join(out, 'reports', name), 'utf8');
  const csvRows = (name: string) => {
    const [head, ...rest] = read(name).trim().split('\n');
    const cols = head.split(',');
    return rest.map((l) => Object.fromEntries(l.split(',').map((x, i) => [cols[i], x])));
  };

  it('--simultaneous: its per-model rows of table3.csv are one sup-t band over the models, holding jointly in about 95 % of the replicates', () => {
    const t = readRates(RATES, { base: 'business', alt: 'friend-sharing' }).table;
    const a = analyzeTwoFraming(t, { ...twoFraming.defaults, reps: REPS, attenuation: 0.7, base: 'business', alt: 'friend-sharing', simultaneous: true });
    const rows = csvRows('table3.csv');
    const models = a.layout.models;
    for (const m of models) {
      const row = rows.find((r) => r.model === m)!;
      const band = a.bands!.ends.get(stat('abs_shift', m))!;
      expect([Number(row.abs_shift_lo), Number(row.abs_shift_hi)]).toEqual(band.map((x) => Number(x.toPrecision(12))));
    }
    // Independently of the sup-t code: the share of replicates in which every model's |Δ| lies inside its band.
    const idx = models.map((m) => a.boot.indexOf(stat('abs_shift', m)));
    let inside = 0;
    for (let r = 0; r < REPS; r++) {
      if (idx.every((j, i) => { const [lo, hi] = a.bands!.ends.get(stat('abs_shift', models[i]))!; const v = a.boot.replicates[j * REPS + r]; return v >= lo && v <= hi; })) inside++;
    }
    expect(inside / REPS).toBeGreaterThanOrEqual(0.94);
    expect(inside / REPS).toBeLessThanOrEqual(0.97);
    // Its critical value is named wherever the bands are described.
    const c = a.bands!.c.abs_shift;
    expect(printed).toContain(`, ${fixed(c, 2)} for the abs_shift), Pooled pointwise`);
    expect(JSON.parse(read('metrics.json')).settings.simultaneous).toContain(`per-model R, shift and abs_shift in table3.csv`);
    expect(JSON.parse(read('metrics.json')).settings.simultaneous).toContain(`${c} for the abs_shift;`);
  });

  it('--pooling random: its columns in table3-random.csv, equal to the shift\'s where every pair\'s shift is ≥ 0 (the shipped rates), clipped at 0', () => {
    const cols = read('table3-random.csv').split('\n')[0].split(',');
    expect(cols).toEqual(['model', 'k', ...['shift', 'abs_shift'].flatMap((c) => [c, `${c}_lo`, `${c}_hi`, `${c}_pi_lo`, `${c}_pi_hi`, `${c}_tau2`, `${c}_I2`]),
      'R', 'R_lo', 'R_hi', 'R_tau2', 'R_I2', 'R_test_p', 'clipped']);
    // The shift is pooled as metafor's risk difference (checked against metafor in test/analyses/meta/table3-random.test.ts), |Δ| by the
    // delta method of its formula: where every Δ ≥ 0 the two are the same effects and variances, so the same fit, |Δ|'s ends clipped to [0, 1].
    for (const r of csvRows('table3-random.csv')) {
      const n = (k: string) => Number(r[k]);
      expect(n('abs_shift'), r.model).toBeCloseTo(n('shift'), 8);
      expect(n('abs_shift_lo')).toBeCloseTo(Math.max(0, n('shift_lo')), 8);
      expect(n('abs_shift_hi')).toBeCloseTo(n('shift_hi'), 8);
      expect(n('abs_shift_tau2')).toBeCloseTo(n('shift_tau2'), 8);
      if (n('shift_lo') < 0) expect(r.clipped.split(' ')).toContain('abs_shift_lo');
    }
    expect(printed).toMatch(/Model\s+k\s+Shift\s+95% CI\s+tau2\s+I2\s+Abs\. shift\s+95% CI\s+tau2 \(Abs\. shift\)\s+I2 \(Abs\. shift\)\s+R\s+95% CI\s+I2 \(R\)/);
  });

  it('--pooling random: where the shifts cancel, |Δ| does not: games at +0.2 and −0.2 pool to a shift of 0 and a |Δ| of 0.2·a', () => {
    const cell = (game: string, framing: string, x: number) => ({ key: { model: 'M', game, framing }, obs: { kind: 'binary' as const, n: 100, x } });
    const table = { factors: ['model', 'game', 'framing'], cells: [cell('g1', 'b', 40), cell('g1', 's', 60), cell('g2', 'b', 60), cell('g2', 's', 40)] };
    const [m] = meta.randomTable3(table, { base: 'b', alt: 's', attenuation: 0.7 }, POOLED);
    expect(m.shift).toBeCloseTo(0, 12);
    expect(m.abs_shift).toBeCloseTo(0.7 * 0.2, 8); // equal effects and variances: the pooled value is that effect
    expect(m.abs_shift_tau2).toBeCloseTo(0, 12);
  });

  it('plan --statistic: the CLI takes it, plans its interval, and refuses a name that is no column in one line naming it', async () => {
    const r = await runInProcess(['plan', '--data', RATES, '--statistic', 'abs_shift', '--target-halfwidth', '0.05', '--reps', '200', '--max-n', '3000']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Plan: 95% interval of abs_shift with half-width ≤ 0.05 (attenuation a = 0.70, 24 cells)');
    const n = Number(r.stdout.split('\n').find((l) => l.startsWith('pooled'))!.trim().split(/\s{2,}/)[1]);
    // Independently of the planner: the pooled |Δ| interval at that n (expected counts, the same bootstrap) reaches the half-width.
    const t = readRates(RATES, { base: 'business', alt: 'friend-sharing' }).table;
    const a = analyzeTwoFraming(scaleTable(t, n), { ...twoFraming.defaults, reps: 200, attenuation: 0.7, base: 'business', alt: 'friend-sharing' });
    const v = a.boot.get(stat('abs_shift', POOLED));
    expect((v.hi - v.lo) / 2).toBeLessThanOrEqual(0.05);
    const bad = await runInProcess(['plan', '--data', RATES, '--statistic', 'nope', '--target-halfwidth', '0.05']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('"nope" is not R, shift or abs_shift');
  });
});
