import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRates } from '../../src/sources/rates-csv.js';
import { UserError } from '../../src/core/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-rates-'));
const H = 'model,game,framing,n,rate,note';
const OK = ['A,G,business,300,0.087,x', 'A,G,friend-sharing,300,0.323,y'];
function read(lines: string[], name = 'in.csv') {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return readRates(p, { base: 'business', alt: 'friend-sharing', displayPath: name });
}
function error(lines: string[]): string {
  try { read(lines); } catch (e) { expect(e).toBeInstanceOf(UserError); return (e as Error).message; }
  throw new Error('expected a UserError');
}

describe('readRates: valid input', () => {
  it('says what the file holds: counts given, reconstructed from rates, or both; options default to the paper\'s pair', () => {
    expect(read([H, ...OK]).kind).toBe('reconstructed from rates');
    expect(read(['model,game,framing,n,cooperate', 'A,G,business,50,0', 'A,G,friend-sharing,50,50']).kind).toBe('observed counts');
    expect(read(['model,game,framing,n,rate,cooperate', 'A,G,business,50,0.1,5', 'A,G,friend-sharing,50,0.2,']).kind).toBe('observed counts and reconstructed from rates');
    const p = join(dir, 'plain.csv');
    writeFileSync(p, [H, ...OK].join('\n'));
    expect(readRates(p).table.cells).toHaveLength(2);
  });
  it('reconstructs counts (26 from 0.087, 97 from 0.323) and keeps other columns as provenance', () => {
    const r = read([H, ...OK]);
    expect(r.table.cells.map((c) => c.obs)).toEqual([{ kind: 'binary', n: 300, x: 26 }, { kind: 'binary', n: 300, x: 97 }]);
    expect(r.provenanceColumns).toEqual(['note']);
    expect(r.table.cells[0].provenance).toEqual({ note: 'x', rate: '0.087' });
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
  it('0 and 1 give 0/n and n/n; a cooperate column is used as the count', () => {
    const r = read(['model,game,framing,n,cooperate', 'A,G,business,50,0', 'A,G,friend-sharing,50,50']);
    expect(r.table.cells.map((c) => c.obs)).toEqual([{ kind: 'binary', n: 50, x: 0 }, { kind: 'binary', n: 50, x: 50 }]);
    const s = read([H, 'A,G,business,300,0.000,', 'A,G,friend-sharing,300,1,']);
    expect(s.table.cells.map((c) => (c.obs as { x: number }).x)).toEqual([0, 300]);
  });
  it('rounds halves up exactly: 0.5 of n = 7 is 3.5 → 4; 0.0015 of 1000 = 1.5 → 2', () => {
    const r = read([H, 'A,G,business,7,0.5,', 'A,G,friend-sharing,1000,0.0015,']);
    expect(r.table.cells.map((c) => (c.obs as { x: number }).x)).toEqual([4, 2]);
  });
  it('accepts quoted fields with commas and newlines, blank lines and a BOM, and counts lines right', () => {
    const r = read(['\uFEFF' + H, 'A,"G, long",business,300,0.1,"two', 'lines"', '', 'A,"G, long",friend-sharing,300,0.2,z']);
    expect(r.rows.map((x) => x.line)).toEqual([2, 5]);
  });
});

describe('readRates: each malformed input gives one message with file, line and field', () => {
  it.each([
    ['missing field', [H, 'A,,business,300,0.1,', OK[1]], 'in.csv:2: field "game": value is missing'],
    ['non-number rate', [H, 'A,G,business,300,abc,', OK[1]], 'in.csv:2: field "rate": "abc" is not a number'],
    ['rate above 1 (as a percent, 1.2 %)', [H, OK[0], 'A,G,friend-sharing,300,1.2,'], 'in.csv:3: field "rate": "1.2" is outside [0, 1]; it looks like a percent: write 0.012'],
    ['a percent (32.3): the rate it means, at its precision', [H, OK[0], 'A,G,friend-sharing,300,32.3,'],
      'in.csv:3: field "rate": "32.3" is outside [0, 1]; it looks like a percent: write 0.323'],
    ['a whole percent (87)', [H, OK[0], 'A,G,friend-sharing,300,87,'], 'in.csv:3: field "rate": "87" is outside [0, 1]; it looks like a percent: write 0.87'],
    ['100 (%) with trailing zeros kept', [H, OK[0], 'A,G,friend-sharing,300,100.0,'], 'in.csv:3: field "rate": "100.0" is outside [0, 1]; it looks like a percent: write 1.000'],
    ['above 100: not a percent', [H, OK[0], 'A,G,friend-sharing,300,100.5,'], 'in.csv:3: field "rate": "100.5" is outside [0, 1]'],
    ['negative rate', [H, OK[0], 'A,G,friend-sharing,300,-0.1,'], 'in.csv:3: field "rate": "-0.1" is outside [0, 1]'],
    ['n zero', [H, 'A,G,business,0,0.1,', OK[1]], 'in.csv:2: field "n": "0" is not a positive integer'],
    ['n fractional', [H, 'A,G,business,30.5,0.1,', OK[1]], 'in.csv:2: field "n": "30.5" is not a positive integer'],
    ['n not a number', [H, 'A,G,business,many,0.1,', OK[1]], 'in.csv:2: field "n": "many" is not a number'],
    ['duplicate cell', [H, ...OK, 'A,G,business,300,0.2,'], 'in.csv:4: field "framing": duplicate cell A / G / business (first seen on line 2)'],
    ['missing planned framing', [H, OK[0], 'A,G,other,300,0.2,'], 'in.csv:2: field "framing": model "A", game "G" has no "friend-sharing" row (every model–game needs both planned framings); the file\'s framings are "business", "other" (choose the pair with --base/--alt)'],
    ['wrong field count', [H, 'A,G,business,300', OK[1]], 'in.csv:2: row has 4 fields, the header has 6'],
    ['missing column', ['model,game,n,rate', 'A,G,300,0.1'], 'in.csv:1: field "framing": required column is missing from the header; the header has "model", "game", "n", "rate"'],
    ['no rate or cooperate', ['model,game,framing,n', 'A,G,business,300'], 'in.csv:1: field "rate": the header needs a "rate" or a "cooperate" column; the header has "model", "game", "framing", "n"'],
    ['a misspelt rate column', ['model,game,framing,n,cooperation_rate', 'A,G,business,300,0.1'],
      'in.csv:1: field "rate": the header needs a "rate" or a "cooperate" column; the header has "model", "game", "framing", "n", "cooperation_rate"'],
    ['empty file', [''], 'in.csv: no data rows'],
    ['header only', [H], 'in.csv: no data rows'],
  ])('%s', (_name, lines, want) => {
    expect(error(lines as string[])).toBe(want);
  });
  it('cooperate above n', () => {
    expect(error(['model,game,framing,n,cooperate', 'A,G,business,10,11', 'A,G,friend-sharing,10,1']))
      .toBe('in.csv:2: field "cooperate": 11 cooperations exceed n = 10');
  });
  it('cooperate not an integer', () => {
    expect(error(['model,game,framing,n,cooperate', 'A,G,business,10,2.5', 'A,G,friend-sharing,10,1']))
      .toBe('in.csv:2: field "cooperate": "2.5" is not a non-negative integer');
  });
  it('an unreadable file names the file', () => {
    expect(() => readRates(join(dir, 'nope.csv'), { base: 'b', alt: 's', displayPath: 'nope.csv' })).toThrow('nope.csv: cannot read the file (ENOENT)');
  });
});

describe('readRates: strict numbers and reserved names', () => {
  it.each([
    ['hex n', [H, 'A,G,business,0x12c,0.1,', OK[1]], 'in.csv:2: field "n": "0x12c" is not a positive integer'],
    ['exponent n', [H, 'A,G,business,3e2,0.1,', OK[1]], 'in.csv:2: field "n": "3e2" is not a positive integer'],
    ['exponent rate', [H, 'A,G,business,300,1e-3,', OK[1]], 'in.csv:2: field "rate": "1e-3" is not a plain decimal (write e.g. 0.087)'],
    ['model named Pooled', [H, 'Pooled,G,business,300,0.1,', 'Pooled,G,friend-sharing,300,0.2,'], 'in.csv:2: field "model": "Pooled" is reserved for the tables\' own pooled rows; rename it'],
    ['game named All', [H, 'A,All,business,300,0.1,', 'A,All,friend-sharing,300,0.2,'], 'in.csv:2: field "game": "All" is reserved for the tables\' own per-model rows; rename it'],
  ])('%s', (_name, lines, want) => {
    expect(error(lines as string[])).toBe(want);
  });
  it('cooperate in exponent form is refused', () => {
    expect(error(['model,game,framing,n,cooperate', 'A,G,business,10,1e1', 'A,G,friend-sharing,10,1']))
      .toBe('in.csv:2: field "cooperate": "1e1" is not a non-negative integer');
  });
  it('names with the characters of statistic names stay apart (no collision)', () => {
    const r = read([H, 'A | B,G,business,300,0.1,', 'A | B,G,friend-sharing,300,0.2,', 'A,B | G,business,300,0.5,', 'A,B | G,friend-sharing,300,0.5,']);
    expect(r.table.cells).toHaveLength(4);
  });
});
