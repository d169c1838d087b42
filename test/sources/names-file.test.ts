import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { parseNames, readDisplayNames } from '../../src/sources/names-file.js';
import { UserError } from '../../src/core/errors.js';
import { shown, mergeNames } from '../../src/core/display-names.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { designWarnings, parseDesign } from '../../src/live/design/design.js';
import { BUILTIN_LOG_FORMATS, parseLogFormat } from '../../src/sources/logs/index.js';
import { ROOT } from '../helpers/cli.js';

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

  it('a line end inside a quoted field is refused by the name rule, naming the line, the field and the character', () => {
    const fault = (text: string) => { try { parseNames(text, 'f.csv'); return 'accepted'; } catch (e) { return (e as Error).message; } };
    expect(fault('id,name\na,"GPT\n4"\n')).toMatch(/^f\.csv:2: field "name": contains the control character U\+000A /);
    expect(fault('id,name\r\na,"GPT\r\n4"\r\n')).toMatch(/^f\.csv:2: field "name": contains the control character U\+000D /);
    expect(fault('id,name\n\nx,y\n"a\nb",x\nc,d\n')).toMatch(/^f\.csv:4: field "id": contains the control character U\+000A /);
    // At a field's end too (not trimmed away), and U+2028.
    expect(fault('id,name\na,"GPT-4\n"\n')).toMatch(/^f\.csv:2: field "name": contains the control character U\+000A /);
    expect(fault('id,name\na,GPT-4\u2028\n')).toMatch(/^f\.csv:2: field "name": contains the control character U\+2028 /);
    expect(fault('id,name\na,"x\n')).toBe('f.csv:2: malformed CSV (Quoted field unterminated)');
    expect(fault('id,name\na, b \n')).toBe('accepted');
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

describe('names: blocks of designs and log formats', () => {
  const design = readFileSync(join(ROOT, 'data/designs/akata-pd-sim.yaml'), 'utf8');
  it('a design carries its names to the resolved design; a control character in a name is refused naming the line', () => {
    expect(parseDesign(design.replace(/^synthetic: true$/m, 'synthetic: true\nnames: { Sim-A: Alpha }'), 'd.yaml').names).toEqual({ 'Sim-A': 'Alpha' });
    expect(() => parseDesign(design.replace(/^synthetic: true$/m, 'synthetic: true\nnames: { Sim-A: "A\\u0007" }'), 'd.yaml')).toThrow(/^d\.yaml:\d+: .*names.*no control character/);
  });
  it('designWarnings: one warning per id of the block that names no model, game, framing or opponent of the design, none otherwise', () => {
    const named = (block: string) => designWarnings(parseDesign(design.replace(/^synthetic: true$/m, `synthetic: true\nnames: ${block}`), 'd.yaml'));
    expect(named('{ Sim-A: Alpha, akata-pd: PD, akata-jf: JF, always-defect: All-D, defect-once: D1 }')).toEqual([]);
    const w = named('{ Sim-A: Alpha, sim-a: again, gpt9: GPT-9 }');
    expect(w.map((x) => /^d\.yaml:\d+: display name for ("[^"]+")/.exec(x)?.[1])).toEqual(['"sim-a"', '"gpt9"']);
    expect(w[0]).toContain('did you mean "Sim-A"?');
    expect(w[1]).not.toContain('did you mean');
  });
  it('a log format too; the built-in akata format names the paper\'s players and marks its fixed strategies scripted', () => {
    const yaml = 'name: x\nshape: decision\ncolumns: [m, o, a, r]\nmatch: { column: m }\nround: { column: r }\ngame: { constant: g }\nframing: { constant: f }\nseats:\n  - { model: { column: m }, opponent: { column: o }, action: a }\nactions: { labels: { g: { c: C, d: D } } }\n';
    expect(parseLogFormat(`${yaml}names: { m1: Model One }\nscripted: [bot]\n`, 'f.yaml')).toMatchObject({ names: { m1: 'Model One' }, scripted: ['bot'] });
    expect(() => parseLogFormat(`${yaml}names: { m1: "x\\u0007" }\n`, 'f.yaml')).toThrow(/^f\.yaml:\d+: .*no control character/);
    expect(BUILTIN_LOG_FORMATS.akata.names).toMatchObject({ act_gpt4: 'GPT-4', act_j: 'Always J' });
    expect(BUILTIN_LOG_FORMATS.akata.scripted).toEqual(['act_j', 'act_f', 'act_defect_once']);
  });
});

describe('readDisplayNames: read, merge and check in one place', () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-names-read-'));
  const id = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/);

  it('warns once for each id of the file or the checked block that is no id of the input, and of no other (property)', () => {
    fc.assert(fc.property(fc.uniqueArray(id, { maxLength: 10 }), fc.uniqueArray(id, { maxLength: 6 }), fc.uniqueArray(id, { maxLength: 6 }),
      (inFile, inBlock, known) => {
        const file = join(dir, 'n.csv');
        writeFileSync(file, `id,name\n${inFile.map((i) => `${i},N ${i}`).join('\n')}\n`);
        const warnings: string[] = [];
        const names = readDisplayNames({ file, source: Object.fromEntries(inBlock.map((i) => [i, `B ${i}`])), sourceBlock: 'the block', targets: { model: known }, warn: (w) => warnings.push(w) });
        const unused = [...new Set([...inFile, ...inBlock])].filter((i) => !known.includes(i));
        expect(warnings.map((w) => /display name for ("[^"]*")/.exec(w)![1])).toEqual(unused.map((i) => JSON.stringify(i)));
        // The file's line for an id of the file (line 1 is the header), the block's name for the others.
        warnings.forEach((w, k) => expect(w.startsWith(inFile.includes(unused[k]) ? `${file}:${inFile.indexOf(unused[k]) + 2}: ` : 'the block: ')).toBe(true));
        // The merge: the file wins over the block.
        for (const i of inFile) expect(names[i]).toBe(`N ${i}`);
        for (const i of inBlock) if (!inFile.includes(i)) expect(names[i]).toBe(`B ${i}`);
      }), { numRuns: 300 });
  });

  it('an unchecked block (no sourceBlock: a log format\'s) warns of nothing', () => {
    const warnings: string[] = [];
    const names = readDisplayNames({ source: { act_x: 'X' }, targets: { model: ['a'] }, warn: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(names.act_x).toBe('X');
  });
});
