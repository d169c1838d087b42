import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseNames } from '../../src/sources/names-file.js';
import { UserError } from '../../src/core/errors.js';
import { shown, mergeNames } from '../../src/core/display-names.js';

/** The display-names file (--names FILE: CSV id,name). */
describe('parseNames', () => {
  it('reads id,name rows (quoted fields, a BOM, blank lines, CRLF), null-prototype', () => {
    const n = parseNames('\uFEFFid,name\r\nact_gpt4,GPT-4\r\n\r\n"__proto__","R&D, ""50%"""\r\n', 'names.csv');
    expect(shown(n, 'act_gpt4')).toBe('GPT-4');
    expect(shown(n, '__proto__')).toBe('R&D, "50%"');
    expect(shown(n, 'toString')).toBe('toString');
    expect(shown(mergeNames(n, parseNames('id,name\nact_gpt4,GPT-4 (0613)\n', 'b.csv')), 'act_gpt4')).toBe('GPT-4 (0613)');
  });

  it('refuses in one line naming the file, line and field', () => {
    expect(() => parseNames('model,name\na,b\n', 'f.csv')).toThrow('f.csv:1: the header must be id,name (got "model,name")');
    expect(() => parseNames('id,name\na,b,c\n', 'f.csv')).toThrow('f.csv:2: a row has 2 fields, id and name (got 3)');
    expect(() => parseNames('id,name\na,\n', 'f.csv')).toThrow('f.csv:2: field "name": is empty');
    expect(() => parseNames('id,name\na,b\n\na,c\n', 'f.csv')).toThrow('f.csv:4: field "id": "a" is named twice (first on line 2)');
    expect(() => parseNames('id,name\na,b\u0007\n', 'f.csv')).toThrow(/^f\.csv:2: field "name": .*U\+0007/);
  });

  it('any text: a map or one UserError naming the file (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (tail) => {
      try {
        parseNames(`id,name\n${tail}`, 'f.csv');
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        expect((e as Error).message).toMatch(/^f\.csv:\d+: /);
        expect((e as Error).message).not.toContain('\n');
      }
    }), { numRuns: 1000 });
  });

  it('what Papa writes of unique ids and names, it reads back (property)', () => {
    const text = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() === s && s !== '' && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffe\uffff]/.test(s));
    fc.assert(fc.property(fc.uniqueArray(fc.tuple(text, text), { selector: (p) => p[0], maxLength: 12 }), (pairs) => {
      const n = parseNames(`${Papa.unparse({ fields: ['id', 'name'], data: pairs }, { newline: '\n' })}\n`, 'f.csv');
      expect(new Map(Object.entries(n))).toEqual(new Map(pairs));
    }), { numRuns: 500 });
  });
});
