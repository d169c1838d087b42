import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { xssRates } from '../render/xss-fixture.js';

// The CLI in-process (test/helpers/cli.ts).
const cli = runCli;
const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-report-'));

const FIGURE_FILES = ['bootstrap-pooled', 'cell-r2', 'reproduction', 'table2-dumbbell', 'table3-forest']
  .flatMap((id) => [`${id}.png`, `${id}.svg`, `${id}.vl.json`]);

describe('samegame reproduce: figures and report', () => {
  const a = tmp();
  let ra: CliResult;
  beforeAll(async () => { ra = await cli(['reproduce', '--out', a, '-q']); });

  it('writes the spec, SVG and PNG of every figure and reports/report.html', () => {
    expect(ra.code, ra.stderr).toBe(0);
    expect(readdirSync(join(a, 'figures')).sort()).toEqual(FIGURE_FILES);
    expect(existsSync(join(a, 'reports', 'report.html'))).toBe(true);
  });

  // The binary's own run of the shipped data writes the same bytes (test/commands/committed-outputs.test.ts):
  // two runs, in two processes, with the same bytes.
  it('a run writes the committed figures/ and reports/report.html, byte for byte', () => {
    for (const f of FIGURE_FILES) {
      const bytes = readFileSync(join(a, 'figures', f));
      expect(bytes.equals(readFileSync(join(ROOT, 'figures', f))), `committed figures/${f}`).toBe(true);
    }
    const html = readFileSync(join(a, 'reports', 'report.html'));
    expect(html.equals(readFileSync(join(ROOT, 'reports', 'report.html'))), 'committed reports/report.html').toBe(true);
  });

  it('`samegame report` writes only reports/report.html, the same file reproduce writes', async () => {
    const c = tmp();
    const r = await cli(['report', '--out', c]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(c)).toEqual(['reports']);
    expect(readdirSync(join(c, 'reports'))).toEqual(['report.html']);
    expect(readFileSync(join(c, 'reports', 'report.html')).equals(readFileSync(join(a, 'reports', 'report.html')))).toBe(true);
    expect(r.stderr).toContain('wrote ');
  });

  it('the report states the input path, its SHA-256 and the source columns', async () => {
    const html = readFileSync(join(a, 'reports', 'report.html'), 'utf8');
    const sha = JSON.parse(readFileSync(join(ROOT, 'reports', 'metrics.json'), 'utf8')).input.sha256 as string;
    expect(html).toContain('<dd>data/lore-heydari-2024/rates.csv</dd>');
    expect(html).toContain(`<dd>${sha}</dd>`);
    expect(html).toContain('<dt>Source columns</dt><dd>source, method, note</dd>');
  });

  it('`samegame report` with a malformed file: one message naming file, line and field; nothing written', async () => {
    const c = tmp();
    const bad = join(c, 'bad.csv');
    writeFileSync(bad, 'model,game,framing,n,rate\nA,G,business,300,0.1\nA,G,friend-sharing,300,seven\n');
    const r = await cli(['report', '--data', bad, '--out', c]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`samegame: ${bad}:3: field "rate": "seven" is not a number`);
    expect(existsSync(join(c, 'reports'))).toBe(false);
  });

  it('input strings are escaped in the report and the figure files', async () => {
    const c = tmp();
    const r = await cli(['reproduce', '--data', xssRates(c), '--out', c, '--reps', '200', '-q']);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(join(c, 'reports', 'report.html'), 'utf8').replace(/<script>[\s\S]*?<\/script>/g, '');
    expect(html.includes('<img')).toBe(false);
    expect(html.includes('window.__pwned=2</script>')).toBe(false);
    expect(html).toContain('<td>&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;</td>');
    const svg = readFileSync(join(c, 'figures', 'table2-dumbbell.svg'), 'utf8');
    expect(svg.includes('<img')).toBe(false);
    expect(svg).toContain('&lt;img src=x onerror=');
  });
});
