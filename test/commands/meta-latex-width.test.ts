/**
 * `samegame meta --latex-width`, as reproduce and analyze take it: meta.tex, meta-regression.tex and
 * meta-influence.tex laid out for the text width given. At 240 pt (a column of a two-column layout)
 * each states in its header that it fits the column or spans both (table*), and none is a
 * longtable; the regenerate command names the flag; the CLI writes what the library computes.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { meta } from '../../src/commands/meta-outputs.js';
import { ROOT, runCli } from '../helpers/cli.js';

const MANIFEST = join(ROOT, 'data/meta/lore-heydari.yaml');
const tex = (files: readonly { path: string; content: string | Uint8Array }[]) =>
  new Map(files.filter((f) => f.path.endsWith('.tex')).map((f) => [f.path.split('/').slice(-1)[0], String(f.content)]));
const header = (text: string) => text.split('\n')[1];
const FITS = /^% About (\d+) pt wide .*: fits a two-column layout's column \(240 pt\)\.$/;
const SPANS = /^% About (\d+) pt wide .*: wider than a two-column layout's column \(240 pt\): laid out for a one-column article \(345 pt\), in a two-column/;

describe('meta --latex-width', () => {
  it('at 240 pt each table fits the column or spans both columns, no longtable; at the default 345 pt the layouts differ', async () => {
    const narrow = await meta({ manifest: MANIFEST, figures: false, dryRun: true, latexWidth: 240 });
    const wide = await meta({ manifest: MANIFEST, figures: false, dryRun: true });
    const at240 = tex(narrow.files);
    const at345 = tex(wide.files);
    expect([...at240.keys()]).toEqual(['meta.tex', 'meta-regression.tex', 'meta-influence.tex']);
    for (const [f, text] of at240) {
      const h = header(text);
      expect(FITS.test(h) || SPANS.test(h), `${f}: ${h}`).toBe(true);
      expect(text, f).not.toContain('\\begin{longtable}');
      expect(Number((FITS.exec(h) ?? SPANS.exec(h))![1]), f).toBeLessThanOrEqual(FITS.test(h) ? 240 : 345);
    }
    // Laid out for a one-column article the influence table is a longtable; for a column, floats.
    expect(at345.get('meta-influence.tex')).toContain('\\begin{longtable}');
    expect(header(at345.get('meta-regression.tex')!)).toMatch(/fits a one-column article \(345 pt\)/);
    expect(narrow.command).toBe(`${wide.command} --latex-width 240`);
    // The CSVs do not depend on the layout.
    for (const f of wide.files.filter((x) => x.path.endsWith('.csv'))) {
      expect(String(narrow.files.find((x) => x.path === f.path)!.content)).toBe(String(f.content));
    }
  });

  it('the CLI takes the flag and writes the tables the library computes; a width out of range is refused in one line', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sg-meta-latex-'));
    const r = await runCli(['meta', MANIFEST, '--latex-width', '240', '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(0);
    const lib = tex((await meta({ manifest: MANIFEST, figures: false, dryRun: true, latexWidth: 240 })).files);
    for (const [f, text] of lib) expect(readFileSync(join(out, 'reports', f), 'utf8'), f).toBe(text);
    expect(JSON.parse(readFileSync(join(out, 'reports', 'meta.json'), 'utf8')).command).toContain('--latex-width 240');
    const bad = await runCli(['meta', MANIFEST, '--latex-width', '50', '--out', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--latex-width: "50" is not a text width in points from 100 to 1000');
  });
});
