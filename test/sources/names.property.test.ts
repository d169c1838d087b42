/**
 * The naming rule (docs/reference/specifications.md, "Names"): any printable text is a valid model or game name and comes
 * out intact in every output; control characters are refused by the reader with one line naming
 * the file, line and field.
 */
import fc from 'fast-check';
import Papa from 'papaparse';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRates } from '../../src/sources/rates-csv.js';
import { controlCharacter } from '../../src/sources/reader-rules.js';
import { UserError } from '../../src/core/errors.js';
import { neutralize } from '../../src/render/csv.js';
import { runInProcess } from '../helpers/in-process.js';
import { ROOT } from '../helpers/cli.js';

const SHIPPED = readFileSync(join(ROOT, 'data/lore-heydari-2024/rates.csv'), 'utf8');
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]/;
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

const SHIPPED_MODELS = ['GPT-3.5', 'GPT-4', 'LLaMa-2'];
const SHIPPED_GAMES = ['Prisoner\'s Dilemma', 'Snowdrift / Chicken', 'Stag Hunt', 'Prisoner\'s Delight / Harmony'];

/** The shipped rates with every model and game renamed (models[i] for SHIPPED_MODELS[i]; every field quoted as CSV allows). */
function renamedRates(models: readonly string[], games: readonly string[]): string {
  return SHIPPED.split('\n').map((l) => {
    if (l === '' || l.startsWith('model,')) return l;
    const f = Papa.parse<string[]>(l).data[0];
    f[0] = models[SHIPPED_MODELS.indexOf(f[0])] ?? f[0];
    f[1] = games[SHIPPED_GAMES.indexOf(f[1])] ?? f[1];
    return f.map(quote).join(',');
  }).join('\n');
}

const hostile = fc.constantFrom('constructor', 'toString', '__proto__', 'valueOf', '<img src=x onerror=alert(1)>', '</script>', 'a & b',
  '"quoted", with comma', 'שלום עולם', '🙂 emoji', 'RTL \u202eevil', 'zero\u200bwidth', '[link](javascript:x)', '=cmd|calc', 'A / B');
const printable = fc.oneof(hostile, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 16 }))
  .filter((s) => !CONTROL.test(s) && s.trim() === s && s !== '' && !['Pooled', 'All'].includes(s));

/** Every string in a JSON value, recursively. */
const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings)
  : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);

describe('names', () => {
  it('a level with a control character is refused with file, line and field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'samegame-names-'));
    fc.assert(fc.property(fc.string({ maxLength: 6 }), fc.integer({ min: 0, max: 0x9f }).filter((c) => c < 0x20 || c >= 0x7f), fc.string({ maxLength: 6 }),
      fc.constantFrom(0, 1), (a, code, b, col) => {
        const name = `${a}${String.fromCharCode(code)}${b}`;
        const f = join(dir, 'r.csv');
        writeFileSync(f, renamedRates(col === 0 ? ['GPT-3.5', name] : [], col === 1 ? ['Prisoner\'s Dilemma', 'Snowdrift / Chicken', name] : []));
        const line = SHIPPED.split('\n').findIndex((l) => (col === 0 ? l.startsWith('GPT-4,') : l.includes(',Stag Hunt,'))) + 1;
        let message = '';
        try { readRates(f, { base: 'business', alt: 'friend-sharing' }); } catch (e) { if (e instanceof UserError) message = e.message; else throw e; }
        // A control character the field's trimming removes (leading or trailing whitespace) leaves a valid name.
        if (controlCharacter(name.trim()) === undefined) return;
        expect(message).toMatch(new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}: field "${col === 0 ? 'model' : 'game'}": contains the control character U\\+[0-9A-F]{4} `));
      }), { numRuns: 200 });
  });

  it('any printable model and game names go through reproduce into every output', async () => {
    // Each run renames all 3 models and all 4 games at once: 7 names per reproduce.
    const dir = mkdtempSync(join(tmpdir(), 'samegame-names-'));
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.uniqueArray(printable, { minLength: 3, maxLength: 3 }), fc.uniqueArray(printable, { minLength: 4, maxLength: 4 }), async (models, games) => {
      const d = join(dir, String(run++));
      const f = `${d}.csv`;
      writeFileSync(f, renamedRates(models, games));
      const r = await runInProcess(['reproduce', '--data', f, '--out', d, '--reps', '200', '-q'], 60_000);
      expect(r.code, r.stderr).toBe(0);
      // CSV: every name parses back exactly (after the apostrophe that keeps =, +, -, @ from running as a formula).
      const table2 = Papa.parse<Record<string, string>>(readFileSync(join(d, 'reports', 'table2.csv'), 'utf8'), { header: true }).data;
      for (const model of models) for (const game of games) {
        expect(table2.some((row) => row.model === neutralize(model) && row.game === neutralize(game)), `${model} / ${game}`).toBe(true);
      }
      // JSON: each name is a string value.
      const metrics = strings(JSON.parse(readFileSync(join(d, 'reports', 'metrics.json'), 'utf8')));
      for (const name of [...models, ...games]) expect(metrics).toContain(name);
      // Markdown: no markup from a name.
      expect(readFileSync(join(d, 'reports', 'verification.md'), 'utf8')).not.toMatch(/<[A-Za-z/!?]/);
      // HTML: each name as escaped text (the page's own markup around it).
      const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
      const html = readFileSync(join(d, 'reports', 'report.html'), 'utf8');
      for (const name of [...models, ...games]) expect(html).toContain(esc(name));
      // Figures: the specs hold the names, and every SVG became a non-empty PNG.
      const figs = readdirSync(join(d, 'figures'));
      const forest = strings(JSON.parse(readFileSync(join(d, 'figures', 'table3-forest.vl.json'), 'utf8')));
      for (const model of models) expect(forest).toContain(model);
      const cells = strings(JSON.parse(readFileSync(join(d, 'figures', 'cell-r2.vl.json'), 'utf8')));
      for (const game of games) expect(cells).toContain(game);
      for (const svg of figs.filter((x) => x.endsWith('.svg'))) expect(statSync(join(d, 'figures', svg.replace(/\.svg$/, '.png'))).size).toBeGreaterThan(1000);
    }), { numRuns: 6 });
  }, 600_000);
});
