/**
 * Published values of any length (docs/methods.md §16, "Precision"): a number written with more
 * decimals than a double carries is compared at 15 significant digits, exactly; nothing crashes
 * at any length; names in a published file follow the readers' naming rule; a file of point
 * values only draws its figure without a Vega warning.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparedDecimals, exactDecimal, judge } from '../../../src/analyses/reproduction/verdict.js';
import { parsePublished, parseSignedDecimal } from '../../../src/sources/published.js';
import { UserError } from '../../../src/core/errors.js';
import { runCli } from '../../helpers/cli.js';

const P = (text: string) => parseSignedDecimal(text)!;
const zeros = (k: number) => '0'.repeat(k);

/** The exact decimal text of a double (its ExactDecimal written out), to `k` decimals by truncation or zero padding. */
function decimalText(x: number, k: number): string {
  const d = exactDecimal(x);
  const neg = d.units < 0n;
  const digits = (neg ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const int = digits.slice(0, digits.length - d.scale);
  const frac = digits.slice(digits.length - d.scale).padEnd(k, '0').slice(0, k);
  return `${neg ? '-' : ''}${int}${k > 0 ? `.${frac}` : ''}`;
}

describe('comparedDecimals: the decimals written, at most 15 significant digits', () => {
  it.each([
    ['0.087', 3], ['26', 0], ['0.150', 3], [`0.6${zeros(59)}`, 15], [`26.${zeros(60)}`, 13], [`0.${zeros(200)}`, 15],
    [`-0.4${zeros(59)}`, 15], ['0.000000000000000000012345', 24], ['123456789012345678', 0],
  ])('%s → %i', (text, want) => {
    expect(comparedDecimals(P(text))).toBe(want);
  });
});

describe('judge at any length', () => {
  it('0.6 written with 60 decimals is exact; 0.6 with 120 or 400 decimals too, without a crash', () => {
    for (const k of [59, 119, 399]) expect(judge(0.6, P(`0.6${zeros(k)}`)).verdict, String(k)).toBe('exact');
    expect(judge(0.2 - 0.6, P(`-0.4${zeros(59)}`)).verdict).toBe('exact');
  });
  it('a real difference is still one at any length', () => {
    expect(judge(0.61, P(`0.6${zeros(59)}`)).verdict).toBe('differs');
    expect(judge(0.6 + 1e-14, P(`0.6${zeros(59)}`)).verdict).toBe('differs');
  });
  it('property: the computed double written to any length — exactly, or its shortest form padded with zeros — is exact; moved by 1e-12 of its size, it differs', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 14, max: 300 }), (n, xRaw, pad) => {
      const computed = Math.min(xRaw, n) / n;
      const exactText = decimalText(computed, exactDecimal(computed).scale + pad);
      const short = String(computed).includes('e') ? exactText : String(computed);
      const shortText = `${short}${short.includes('.') ? '' : '.'}${zeros(pad + 1)}`;
      for (const text of [exactText, shortText]) {
        expect(judge(computed, P(text)).verdict, text).toBe('exact');
        const moved = computed + Math.max(computed, 1) * 1e-12;
        expect(judge(moved, P(text)).verdict, text).toBe('differs');
      }
    }), { numRuns: 300 });
  });
});

describe('published files: names and figures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-long-decimals-'));
  const trials = join(dir, 't.csv');
  writeFileSync(trials, ['model,game,framing,action', ...['C', 'C', 'C', 'D', 'D'].map((a) => `A,G,business,${a}`),
    ...['C', 'D', 'D', 'D', 'D'].map((a) => `A,G,friend-sharing,${a}`)].join('\n'));
  const expectFile = (rows: string[]) => {
    const f = join(dir, `e${rows.length}-${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(f, ['table,model,game,statistic,published', ...rows].join('\n'));
    return f;
  };
  it('a value with 120 decimals: exit 0, exact, no stack trace', async () => {
    const out = join(dir, 'o120');
    const r = await runCli(['reproduce', '--trials', trials, '--expect', expectFile([`table2,A,G,base_rate,0.6${zeros(119)}`]), '--out', out, '--reps', '100', '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'reports', 'reproduction.csv'), 'utf8')).toMatch(/,exact\n?$/);
  }, 30_000);
  it('points only: no Vega warning', async () => {
    const r = await runCli(['reproduce', '--trials', trials, '--expect', expectFile(['table2,A,G,base_rate,0.6', 'table2,A,G,alt_rate,0.2']),
      '--out', join(dir, 'opts'), '--reps', '100', '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/warning: figure/);
  }, 30_000);
  it.each([['a control character', 'A\u0007'], ['a line separator', 'A\u2028B'], ['a name over the limit', 'M'.repeat(257)]])('%s in a model name is refused', (_n, model) => {
    const text = `table,model,game,statistic,published\ntable2,${model},G,base_rate,0.6\n`;
    expect(() => parsePublished(text, 'FILE')).toThrow(UserError);
    expect(() => parsePublished(text, 'FILE')).toThrow(/^FILE:2: field "model": (contains the control character U\+|is 257 characters long)/);
  });
  it('a provenance column given twice is refused', () => {
    expect(() => parsePublished('table,model,game,statistic,published,source,source\ntable2,A,G,base_rate,0.6,x,y\n', 'FILE'))
      .toThrow('FILE:1: field "source": column appears twice in the header (columns 6 and 7)');
  });
});
