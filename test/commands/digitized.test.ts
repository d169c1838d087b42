import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { writeOutputs } from '../../src/commands/pipeline/write.js';

/**
 * The digitized example (data/examples/digitized/) through the commands: the shipped counts,
 * drawn by samegame and clicked with < 0.5 px jitter, come back exactly (2 PNG px per count); the
 * project .tar and its wpd.json give byte-identical tables; the audit's reading error is the
 * per-cell ranges of reports/digitization.csv, stated in pixels; metrics.json records the
 * project's SHA-256 and image; coverage takes the project too.
 */
const EX = join(ROOT, 'data', 'examples', 'digitized');
const TAR = join(EX, 'project.tar'), JSON_ = join(EX, 'wpd.json'), LAYOUT = join(EX, 'layout.csv');
const out = (what: string) => mkdtempSync(join(tmpdir(), `samegame-digitized-${what}-`));
const csv = (path: string) => Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').trim(), { header: true }).data;

async function ok(args: string[]) {
  const r = await runCli(args);
  if (r.code !== 0) throw new Error(`samegame ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return r;
}

describe('the digitized example through reproduce', () => {
  const a = out('tar'), b = out('json');
  // The CLI with its figures for the .tar; the library (tables only, no figures) for the wpd.json.
  const run = Promise.all([
    ok(['reproduce', '--digitized', TAR, '--layout', LAYOUT, '--out', a, '--reps', '400', '-q']),
    Promise.resolve().then(() => writeOutputs(reproduceTables({ digitized: JSON_, layout: LAYOUT, out: b, reps: 400 }).files)),
  ]);
  it('recovers the known counts (truth.csv) in Table 2', async () => {
    await run;
    const truth = csv(join(EX, 'truth.csv'));
    const t2 = csv(join(a, 'reports', 'table2.csv'));
    expect(t2).toHaveLength(12);
    for (const row of t2) {
      const find = (framing: string) => truth.find((t) => t.model === row.model && t.game === row.game && t.framing === framing)!.cooperate;
      expect([row.base_count, row.alt_count]).toEqual([find('business'), find('friend-sharing')]);
    }
  });
  it('the .tar and its wpd.json give byte-identical tables and digitization.csv', async () => {
    await run;
    for (const f of ['table2.csv', 'table3.csv', 'digitization.csv']) {
      expect(readFileSync(join(a, 'reports', f), 'utf8')).toBe(readFileSync(join(b, 'reports', f), 'utf8'));
    }
  });
  it('digitization.csv has the listed columns and brackets every count; metrics.json records the project and its image', async () => {
    await run;
    const text = readFileSync(join(a, 'reports', 'digitization.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('model,game,framing,dataset,point,px,py,value,value_lo,value_hi,count,count_lo,count_hi');
    const rows = csv(join(a, 'reports', 'digitization.csv'));
    expect(rows).toHaveLength(24);
    for (const r of rows) {
      expect(Number(r.value_lo)).toBeLessThanOrEqual(Number(r.value));
      expect(Number(r.value)).toBeLessThanOrEqual(Number(r.value_hi));
      expect(Number(r.count_lo)).toBeLessThanOrEqual(Number(r.count));
      expect(Number(r.count)).toBeLessThanOrEqual(Number(r.count_hi));
      // 2 px per count: ±1 px is ±0.5 count, so the range is at most one count wide.
      expect(Number(r.count_hi) - Number(r.count_lo)).toBeLessThanOrEqual(1);
    }
    const m = JSON.parse(readFileSync(join(a, 'reports', 'metrics.json'), 'utf8'));
    const { createHash } = await import('node:crypto');
    expect(m.digitization.project.sha256).toBe(createHash('sha256').update(readFileSync(TAR)).digest('hex'));
    expect(m.input.sha256).toBe(m.digitization.project.sha256);
    expect(m.digitization.images).toEqual([expect.objectContaining({ name: 'figure.png', type: 'image/png', sha256: createHash('sha256').update(readFileSync(join(EX, 'figure.png'))).digest('hex') })]);
    expect(m.command).toContain('--digitized');
    const mj = JSON.parse(readFileSync(join(b, 'reports', 'metrics.json'), 'utf8'));
    expect(mj.digitization.images).toEqual([]);
  });
  it('the report from the .tar embeds the image and every point; from the wpd.json it says there is no image', async () => {
    await run;
    await ok(['report', '--digitized', TAR, '--layout', LAYOUT, '--out', a, '--reps', '400', '-q']);
    await ok(['report', '--digitized', JSON_, '--layout', LAYOUT, '--out', b, '--reps', '400', '-q']);
    const html = readFileSync(join(a, 'reports', 'report.html'), 'utf8');
    expect(html).toContain(`<image href="data:image/png;base64,${readFileSync(join(EX, 'figure.png')).toString('base64')}"`);
    expect(html.match(/<g class="mark" data-cell=/g)).toHaveLength(24);
    expect(readFileSync(join(b, 'reports', 'report.html'), 'utf8')).toContain('A wpd.json alone holds no image');
  });
});

describe('the digitized example through audit and coverage', () => {
  it('the audit moves each count within its digitization range, stated as ±K px of the digitized figure', async () => {
    const o = out('audit');
    const r = await ok(['audit', '--digitized', TAR, '--layout', LAYOUT, '--pixel-error', '2', '--out', o, '--reps', '200', '--search-reps', '50', '-q']);
    expect(r.stdout).toContain('reading error ±2 px of the digitized figure cannot overturn it');
    expect(r.stdout).toContain('consistency: no reported rate to test (the counts were given or read off a figure)');
    const dig = csv(join(o, 'reports', 'digitization.csv'));
    const j = JSON.parse(readFileSync(join(o, 'reports', 'audit.json'), 'utf8'));
    expect(j.reading_error).toMatchObject({ K: 2, unit: 'px', stated: '±2 px of the digitized figure' });
    expect(j.reading_error.down).toEqual(dig.map((d) => Number(d.count) - Number(d.count_lo)));
    expect(j.reading_error.up).toEqual(dig.map((d) => Number(d.count_hi) - Number(d.count)));
    // ±2 px is ±1 count at 2 px per count: somewhere a range is wider than one count.
    expect(Math.max(...dig.map((d) => Number(d.count_hi) - Number(d.count_lo)))).toBe(2);
    const index = new Map(dig.map((d, i) => [`${d.model} / ${d.game} / ${d.framing}`, i]));
    let moved = 0;
    for (const ch of j.reading_error.ranges.flatMap((x: { argmin: { cell: string; from: number; to: number }[]; argmax: typeof x.argmin }) => [...x.argmin, ...x.argmax])) {
      const i = index.get(ch.cell)!;
      expect(ch.to - ch.from).toBeGreaterThanOrEqual(-j.reading_error.down[i]);
      expect(ch.to - ch.from).toBeLessThanOrEqual(j.reading_error.up[i]);
      moved++;
    }
    expect(moved).toBeGreaterThan(0);
    expect(readFileSync(join(o, 'reports', 'audit.md'), 'utf8')).toContain('## 2. Reading error of ±2 px of the digitized figure');
    expect(readFileSync(join(o, 'reports', 'audit.html'), 'utf8')).toContain('Reading error ±2 px of the digitized figure');
    expect(j.command).toContain('--digitized');
    expect(j.command).toContain('--pixel-error 2');
  });
  it('coverage takes its cells and n from the project', async () => {
    const o = out('coverage');
    await ok(['coverage', '--digitized', TAR, '--layout', LAYOUT, '--out', o, '--sims', '2', '--reps', '50', '-q']);
    expect(readdirSync(join(o, 'reports'))).toEqual(['coverage.csv']);
  });
});
