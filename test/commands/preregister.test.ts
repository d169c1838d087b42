/**
 * preregister: a study sealed, run, killed, resumed and analysed; its verdicts against an independent
 * computation on the exported trials (test/reference/preregistration/verdicts.py → verdicts.json); the
 * seal before every trial; run refusing a changed framing; re-sealing refused; flags that differ from
 * the plan labelled exploratory; the plan schema current.
 */
import { readdirSync, appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze, exportTrials, init, preregister, run } from '../../src/index.js';
import { preregistration } from '../../src/analyses/preregistration/index.js';
import { UserError } from '../../src/core/errors.js';
import { cleanEnv, startCli } from '../helpers/cli.js';
import { textSha256 } from '../../src/live/store/registry.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-prereg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const REF = JSON.parse(readFileSync(join(__dirname, '../reference/preregistration/verdicts.json'), 'utf8')) as {
  cells: Record<string, [number, number]>; verdicts: { id: string; statistic: number; lo: number | null; hi: number | null; p: number; p_adjusted: number;
    verdict: string; pairs: number }[] };
const EXTRA = `  - id: pooled-negative
    estimand: shift
    model: pooled
    compare: '<'
    value: 0
  - id: pooled-R
    estimand: R
    model: pooled
    compare: '>'
    value: 0.8
`;

function study(name: string): { design: string; plan: string; store: string } {
  const d = join(dir, name);
  const { file } = init({ name: 'study', dir: d });
  const plan = join(d, 'study.plan.yaml');
  appendFileSync(plan, EXTRA);
  return { design: file, plan, store: join(d, 'runs', 'study.sqlite') };
}

/** The rows of a CSV samegame wrote, a negative number's formula guard (a leading ') taken off. */
const csvRows = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data
  .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.replace(/^'(?=-)/, '')])));

describe('preregister', () => {
  it('sealed, run, killed, resumed, analysed: verdicts as the independent computation on the export; the seal precedes every trial', async () => {
    const s = study('full');
    const seal = preregister({ plan: s.plan, store: s.store });
    // The CLI, 10 calls a second, killed (SIGKILL) once 5 trials are stored.
    const first = startCli(['run', s.design, '--store', s.store, '--rpm', '600', '--concurrency', '1'], { env: cleanEnv() });
    const count = () => {
      try {
        const db = new Database(s.store, { readonly: true });
        try { return db.prepare('SELECT count(*) FROM trials').pluck().get() as number; } finally { db.close(); }
      } catch { return 0; }
    };
    while (count() < 5) await new Promise((r) => setTimeout(r, 50));
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const stored = count();
    expect(stored).toBeGreaterThanOrEqual(5);
    expect(stored).toBeLessThan(80);
    await run({ design: s.design, store: s.store });
    const out = join(dir, 'full', 'out');
    const lines: string[] = [];
    const logger = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), print: () => undefined };
    const res = await analyze({ store: s.store, out, figures: false, logger });
    // the verdicts are among the files the analysis wrote, and said after they are written (the analysis's own lines first)
    expect(res.files.map((f) => f.path)).toContain(join(out, 'reports', 'verdicts.csv'));
    const table3 = lines.findIndex((l) => l.includes('table3.csv'));
    expect(table3).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((l) => l.startsWith('verdicts'))).toBeGreaterThan(table3);
    const got = csvRows(readFileSync(join(out, 'reports', 'verdicts.csv'), 'utf8'));
    // The counts the reference read are the counts of this run's export.
    const exported = join(dir, 'full', 'trials.csv');
    await exportTrials({ store: s.store, format: 'csv', out: exported });
    const cells: Record<string, [number, number]> = {};
    for (const r of csvRows(readFileSync(exported, 'utf8')).filter((r) => r.status === 'ok')) {
      const c = (cells[`${r.model}|${r.game}|${r.framing}`] ??= [0, 0]);
      c[0] += r.action === 'C' ? 1 : 0;
      c[1] += 1;
    }
    expect(cells).toEqual(REF.cells);
    expect(got.map((r) => r.hypothesis)).toEqual(REF.verdicts.map((v) => v.id));
    REF.verdicts.forEach((v, i) => {
      const r = got[i];
      expect(r.verdict).toBe(v.verdict);
      expect(r.status).toBe('confirmatory');
      expect(r.plan_sha256).toBe(seal.planSha256);
      expect(Number(r.pairs)).toBe(v.pairs);
      for (const [col, want] of [['statistic', v.statistic], ['p', v.p], ['p_adjusted', v.p_adjusted], ['lo', v.lo], ['hi', v.hi]] as const) {
        if (want === null) expect(r[col]).toBe('');
        else expect(Number(r[col])).toBeCloseTo(want, 9);
      }
    });
    expect(new Set(got.map((r) => r.verdict))).toEqual(new Set(['supported', 'not supported', 'inconclusive']));
    const db = new Database(s.store, { readonly: true });
    const row = db.prepare('SELECT count(*) AS n, count(stored_at) AS timed, min(stored_at) AS first FROM trials').get() as { n: number; timed: number;
      first: number };
    const times = { ...row, first: new Date(row.first).toISOString() };
    db.close();
    expect(times.timed).toBe(times.n);
    expect(seal.sealed < times.first).toBe(true);
    const md = readFileSync(join(out, 'reports', 'verdicts.md'), 'utf8');
    expect(md).toContain(seal.planSha256);
    expect(md).toContain(`first trial stored ${times.first}`);
    expect(md).toContain('Deviations from the plan: none.');
    // The registry: one row per distinct prompt (two games × two framings), each with the SHA-256 of the stored text.
    const prompts = new Database(s.store, { readonly: true }).prepare('SELECT DISTINCT p.text FROM trials t JOIN prompts p ON p.id = t.prompt_id')
      .pluck().all() as string[];
    expect(prompts).toHaveLength(4);
    for (const text of prompts) expect(md).toContain(`| \`${textSha256(text)}\` | Sim |`);
  }, 60_000);

  it('re-sealing is refused; a sentence changed in a framing after sealing: run refuses (exit 2) naming the framing', async () => {
    const s = study('changed');
    preregister({ plan: s.plan, store: s.store });
    expect(() => preregister({ plan: s.plan, store: s.store })).toThrow(/already sealed .*a seal is never replaced/);
    writeFileSync(s.design, readFileSync(s.design, 'utf8').replace('in separate rooms', 'in two separate rooms'));
    const e = await run({ design: s.design, store: s.store }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UserError);
    expect((e as UserError).exitCode).toBe(2);
    expect((e as UserError).message).toMatch(/the design differs from the one sealed at .*: framing "strangers" changed/);
    expect((e as UserError).message.split('\n')).toHaveLength(1);
    const db = new Database(s.store, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM trials').pluck().get()).toBe(0);
    db.close();
  });

  it('a store with trials cannot be sealed; flags that differ from the plan make the verdicts exploratory', async () => {
    const s = study('late');
    await run({ design: s.design, store: s.store });
    expect(() => preregister({ plan: s.plan, store: s.store })).toThrow(/holds 80 trials; a plan is sealed before the first trial/);
    const t = study('explore');
    preregister({ plan: t.plan, store: t.store });
    await run({ design: t.design, store: t.store });
    const warned: string[] = [];
    const out = join(dir, 'explore', 'out');
    await analyze({ store: t.store, out, figures: false, reps: 100, logger: { info: () => {}, warn: (m) => warned.push(m) } });
    const got = csvRows(readFileSync(join(out, 'reports', 'verdicts.csv'), 'utf8'));
    expect(got.every((r) => r.status === 'exploratory')).toBe(true);
    expect(readFileSync(join(out, 'reports', 'verdicts.md'), 'utf8')).toContain('EXPLORATORY');
    expect(warned.join('\n')).toContain('--reps 100 differs from the sealed plan');
    const metrics = JSON.parse(readFileSync(join(out, 'reports', 'metrics.json'), 'utf8')) as { origin?: { exploratory?: string[] } };
    expect(metrics.origin?.exploratory).toEqual(['--reps 100']);
    // every output says so: each CSV's last column, each .tex table's comment and caption
    const csvs = readdirSync(join(out, 'reports')).filter((f) => f.endsWith('.csv') && f !== 'verdicts.csv'); // verdicts.csv: its status column
    expect(csvs).toContain('table3.csv');
    for (const f of csvs) {
      const lines = readFileSync(join(out, 'reports', f), 'utf8').trimEnd().split('\n');
      expect(lines[0].split(',').at(-1), f).toBe('exploratory');
      expect(lines.slice(1).every((l) => l.endsWith(',true')), f).toBe(true);
    }
    const tex = readFileSync(join(out, 'reports', 'table3.tex'), 'utf8');
    expect(tex).toContain('% Exploratory analysis: --reps 100 differs from the sealed plan');
    expect(tex).toContain('\\caption{\\textbf{Exploratory analysis:');
  }, 60_000);

  it('a bad plan is one line naming file, line and field; the committed JSON Schema is current', () => {
    const bad = join(dir, 'bad.plan.yaml');
    writeFileSync(bad, 'design: x.yaml\nanalysis: { base: a, alt: b }\nhypotheses:\n  - id: h\n    estimand: shift\n    model: m\n    compare: ">"\n');
    expect(() => preregistration.parsePlan(readFileSync(bad, 'utf8'), bad)).toThrow(new RegExp(`^${bad}:4: field hypotheses\\[0\\]\\.value: `));
    const committed = JSON.parse(readFileSync(join(__dirname, '../../data/plans/plan.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(preregistration.planJsonSchema());
  });
});
