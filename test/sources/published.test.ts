import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePublished, parseSignedDecimal, readPublished, PUBLISHED_TABLES, SHIPPED_PUBLISHED } from '../../src/sources/published.js';
import { UserError } from '../../src/core/errors.js';
import { ROOT } from '../helpers/cli.js';

const H = 'table,model,game,statistic,published,source';
const T2 = "table2,GPT-3.5,Prisoner's Dilemma,base_rate,0.087,Table 2";
const T3 = 'table3,Pooled,,shift_hi,0.316,Table 3';

function error(text: string, file = 'pub.csv'): string {
  try { parsePublished(text, file); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
  throw new Error('expected a UserError');
}
const csv = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('the shipped published values (Same Game, Different Story, Tables 2 and 3)', () => {
  const p = readPublished(join(ROOT, SHIPPED_PUBLISHED), SHIPPED_PUBLISHED);
  it('hold every number of both tables: 12 × 5 of Table 2 and 4 × 6 of Table 3, each naming its table', () => {
    expect(p.rows).toHaveLength(84);
    expect(p.rows.filter((r) => r.table === 'table2')).toHaveLength(60);
    expect(p.rows.filter((r) => r.table === 'table3')).toHaveLength(24);
    expect(p.provenanceColumns).toEqual(['source']);
    for (const r of p.rows) expect(r.provenance.source).toContain(r.table === 'table2' ? 'Table 2' : 'Table 3');
    // As printed in the paper: three decimals for rates and Table 3, whole counts.
    expect(new Set(p.rows.map((r) => `${r.statistic.endsWith('count') ? 'count' : 'rate'}:${r.published.decimals}`))).toEqual(new Set(['count:0', 'rate:3']));
    const pooledHi = p.rows.find((r) => r.table === 'table3' && r.model === 'Pooled' && r.statistic === 'shift_hi')!;
    expect([pooledHi.game, pooledHi.published.text]).toEqual(['', '0.316']);
  });
  it('Table 3 numbers came from B = 10,000 bootstrap replicates (the paper\'s Table 1); Table 2 numbers from none', () => {
    for (const r of p.rows) expect([r.table, r.reps]).toEqual([r.table, r.table === 'table3' ? 10_000 : undefined]);
  });
});

describe('the reps column: the publication\'s bootstrap replicates, per row', () => {
  const HR = 'table,model,game,statistic,published,reps,source';
  it('a whole number ≥ 1 or empty; not provenance', () => {
    const p = parsePublished(csv(HR, 'table3,A,,R_lo,0.5,2000,x', 'table3,A,,R,0.6,,y'), 'pub.csv');
    expect(p.rows.map((r) => r.reps)).toEqual([2000, undefined]);
    expect(p.provenanceColumns).toEqual(['source']);
    expect(p.rows[0].provenance).toEqual({ source: 'x' });
  });
  it.each(['0', '-5', '1e4', '10,000', '2.5', 'many'])('%j names the file, line and field', (v) => {
    expect(error(csv(HR, `table3,A,,R_lo,0.5,"${v}",x`))).toBe(`pub.csv:2: field "reps": ${JSON.stringify(v)} is not a number of bootstrap replicates (a whole number ≥ 1, or empty)`);
  });
  it('any reps text (property): read back as its number, or a UserError naming the field', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 8 }), fc.nat().map(String)), (v) => {
      const text = csv(HR, `table3,A,,R_lo,0.5,${quote(v)},x`);
      const t = v.trim();
      if (/^\d+$/.test(t) && Number(t) >= 1 && Number.isSafeInteger(Number(t))) expect(parsePublished(text, 'pub.csv').rows[0].reps).toBe(Number(t));
      else if (t === '') expect(parsePublished(text, 'pub.csv').rows[0].reps).toBeUndefined();
      else expect(error(text)).toMatch(/^pub\.csv:2: field "reps": /);
    }), { numRuns: 500 });
  });
});

describe('the method column: the publication\'s interval method, per row', () => {
  const HM = 'table,model,game,statistic,published,method,source';
  it('percentile, bca (any case) or empty; not provenance', () => {
    const p = parsePublished(csv(HM, 'table3,A,,R_lo,0.5,BCa,x', 'table3,A,,R_hi,0.6,percentile,y', 'table3,A,,R,0.6,,z'), 'pub.csv');
    expect(p.rows.map((r) => r.method)).toEqual(['bca', 'percentile', undefined]);
    expect(p.provenanceColumns).toEqual(['source']);
  });
  it('any method text (property): read back, or a UserError naming the file, line and field', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('bca', 'BCA', 'Percentile', 'studentized', 'basic')), (v) => {
      const text = csv(HM, `table3,A,,R_lo,0.5,${quote(v)},x`);
      const t = v.trim().toLowerCase();
      if (t === 'bca' || t === 'percentile') expect(parsePublished(text, 'pub.csv').rows[0].method).toBe(t);
      else if (t === '') expect(parsePublished(text, 'pub.csv').rows[0].method).toBeUndefined();
      else expect(error(text)).toMatch(/^pub\.csv:2: field "method": /);
    }), { numRuns: 500 });
  });
});

describe('precision is read from the text', () => {
  it.each([
    ['0.150', 3, '150', 0.15], ['0.15', 2, '15', 0.15], ['26', 0, '26', 26], ['-0.010', 3, '-10', -0.01], ['+1.0', 1, '10', 1], ['.5', 1, '5', 0.5],
  ] as const)('%s has %i decimals', (text, decimals, units, value) => {
    const d = parseSignedDecimal(text)!;
    expect([d.text, d.decimals, d.units, d.value]).toEqual([text, decimals, units, value]);
  });
  it.each(['1e-3', '0x10', '- 1', '-+1', '1.2.3', '', '.', 'NaN', '∞'])('%j is not a plain decimal', (text) => {
    expect(parseSignedDecimal(text)).toBeUndefined();
  });
  it('a row keeps the printed text: "0.150" stays "0.150"', () => {
    const r = parsePublished(csv(H, 'table3,A,,shift,0.150,x'), 'f').rows[0];
    expect([r.published.text, r.published.decimals]).toEqual(['0.150', 3]);
  });
});

describe('bad published files: one line naming file, line and field', () => {
  it.each([
    ['unknown table', csv(H, 'table4,A,,R,0.5,x'), 'pub.csv:2: field "table": "table4" is not a table (one of table2, table3, family)'],
    ['unknown statistic', csv(H, 'table3,A,,R_mid,0.5,x'), 'pub.csv:2: field "statistic": "R_mid" is not a column of table3 (one of R, R_lo, R_hi, shift, shift_lo, shift_hi)'],
    ['a Table 3 statistic in Table 2', csv(H, 'table2,A,G,R,0.5,x'), 'pub.csv:2: field "statistic": "R" is not a column of table2 (one of base_rate, base_count, alt_rate, alt_count, difference)'],
    ['a non-number', csv(H, T2, 'table3,A,,R,seven,x'), 'pub.csv:3: field "published": "seven" is not a number'],
    ['an exponent', csv(H, 'table3,A,,R,9.67e-1,x'), 'pub.csv:2: field "published": "9.67e-1" is not a plain decimal number (write it as printed, e.g. 0.150 or 26)'],
    ['a missing number', csv(H, 'table3,A,,R,,x'), 'pub.csv:2: field "published": value is missing'],
    ['a duplicate row', csv(H, T3, T2, 'table3,Pooled,,shift_hi,0.317,again'),
      'pub.csv:4: field "statistic": duplicate published value ["table3","Pooled","","shift_hi"] (first seen on line 2)'],
    ['a wrong header', csv('table,model,game,stat,published', T2), 'pub.csv:1: field "stat": the header must begin with table,model,game,statistic,published (further columns are provenance)'],
    ['columns in another order', csv('model,table,game,statistic,published', T2), 'pub.csv:1: field "model": the header must begin with table,model,game,statistic,published (further columns are provenance)'],
    ['a short header', csv('table,model', 'table3,A'), 'pub.csv:1: field "game": the header must begin with table,model,game,statistic,published (further columns are provenance)'],
    ['a Table 2 row without a game', csv(H, 'table2,A,,base_rate,0.5,x'), 'pub.csv:2: field "game": table2 rows are per model and game: the game is missing'],
    ['a Table 3 row with a game', csv(H, 'table3,A,G,R,0.5,x'), 'pub.csv:2: field "game": table3 rows are per model: leave the game empty (got "G")'],
    ['a missing model', csv(H, 'table3,,,R,0.5,x'), 'pub.csv:2: field "model": value is missing'],
    ['a short row', csv(H, 'table3,A,,R'), 'pub.csv:2: row has 4 fields, the header has 6'],
    ['no data rows', csv(H), 'pub.csv: no data rows'],
  ])('%s', (_what, text, want) => {
    expect(error(text)).toBe(want);
  });
  it('an unreadable file names it', () => {
    expect(() => readPublished('/nonexistent/p.csv', 'p.csv')).toThrow('p.csv: cannot read the file (ENOENT)');
  });
  it('a family file may write per-model rows with game "All" (as family-robustness.csv does) or empty; both are one row', () => {
    expect(parsePublished(csv(H, 'family,A,All,R,0.9,x'), 'f').rows[0].game).toBe('');
    expect(error(csv(H, 'family,A,All,R,0.9,x', 'family,A,,R,0.9,y'))).toContain('pub.csv:3: field "statistic": duplicate published value');
  });
});

/** A printed decimal: optional minus, digits, optional fraction with trailing zeros kept. */
const printed = fc.tuple(fc.boolean(), fc.nat({ max: 999 }), fc.option(fc.stringMatching(/^\d{1,4}$/), { nil: undefined }))
  .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`);
const level = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .'/-]{0,12}$/).map((s) => s.trim()).filter((s) => s.length > 0);
const row = fc.constantFrom(...(Object.keys(PUBLISHED_TABLES) as (keyof typeof PUBLISHED_TABLES)[])).chain((table) => fc.record({
  table: fc.constant(table),
  model: level,
  game: table === 'table2' ? level : table === 'family' ? fc.option(level, { nil: '' }).map((g) => (g === 'All' ? '' : g)) : fc.constant(''),
  statistic: fc.constantFrom(...PUBLISHED_TABLES[table]),
  published: printed,
}));
const quote = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

describe('parsePublished (property tests)', () => {
  it('any text: rows, or a UserError of one line that begins with the file name — never another error', () => {
    const cell = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('table2', 'table3', 'family', 'R', 'R_lo', 'base_count', '0.150', '-1', '', 'All', '"'));
    const text = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(fc.array(cell, { minLength: 1, maxLength: 7 }), { maxLength: 6 })
        .map((rows) => [H, ...rows.map((r) => r.join(','))].join('\n')),
    );
    fc.assert(fc.property(text, (t) => {
      try {
        const p = parsePublished(t, 'in.csv');
        expect(p.rows.length).toBeGreaterThan(0);
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        const m = (e as Error).message;
        expect(m.startsWith('in.csv:')).toBe(true);
        expect(m).not.toMatch(/[\n\r]/);
      }
    }), { numRuns: 2000 });
  });

  it('distinct valid rows read back as written: the printed text, its decimals and its value', () => {
    const rows = fc.uniqueArray(row, { minLength: 1, maxLength: 12, selector: (r) => JSON.stringify([r.table, r.model, r.game, r.statistic]) });
    fc.assert(fc.property(rows, (rs) => {
      const text = [H, ...rs.map((r, i) => [r.table, r.model, r.game, r.statistic, r.published, `note ${i}`].map(quote).join(','))].join('\r\n');
      const p = parsePublished(text, 'in.csv');
      expect(p.rows.map((r) => [r.table, r.model, r.game, r.statistic, r.published.text])).toEqual(rs.map((r) => [r.table, r.model, r.game, r.statistic, r.published]));
      p.rows.forEach((r, i) => {
        const frac = rs[i].published.split('.')[1];
        expect(r.published.decimals).toBe(frac === undefined ? 0 : frac.length);
        expect(r.published.value).toBe(Number(rs[i].published));
        expect(r.line).toBe(i + 2);
        expect(r.provenance).toEqual({ source: `note ${i}` });
      });
    }), { numRuns: 500 });
  });
});

describe('readPublished on disk', () => {
  it('hashes the bytes and names the file as given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'samegame-published-'));
    writeFileSync(join(dir, 'p.csv'), csv(H, T3));
    const p = readPublished(join(dir, 'p.csv'), 'p.csv');
    expect(p.path).toBe('p.csv');
    expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
