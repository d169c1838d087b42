import { mkdtempSync, writeFileSync, closeSync, ftruncateSync, mkdirSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTrials, foldExtraFactors } from '../../src/sources/trials.js';
import { readRates } from '../../src/sources/rates-csv.js';
import { UserError } from '../../src/core/errors.js';
import { MAX_INPUT_BYTES, MAX_LINE_CHARS, MAX_NAME_LENGTH } from '../../src/sources/reader-rules.js';

const FIX = fileURLToPath(new URL('../fixtures/trials/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'samegame-trials-'));
let seq = 0;
function write(text: string, ext = 'csv'): { path: string; name: string } {
  const name = `in${seq++}.${ext}`;
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, name };
}
const read = (text: string, ext = 'csv', opts = {}) => { const f = write(text, ext); return readTrials(f.path, { displayPath: f.name, ...opts }); };
function error(text: string, ext = 'csv', opts = {}): string {
  const f = write(text, ext);
  try { readTrials(f.path, { displayPath: f.name, ...opts }); } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message.replace(f.name, 'FILE');
  }
  throw new Error('expected a UserError');
}
const H = 'model,game,framing,action';
const OK = ['A,G,business,C', 'A,G,friend-sharing,D'];

describe('readTrials: the same cells as a rates file of their counts', () => {
  it('trials.csv and trials.jsonl give counts.csv\'s table cell for cell, sorted (a per-trial file has no design)', () => {
    const counts = readRates(join(FIX, 'counts.csv'));
    expect(counts.kind).toBe('observed counts');
    const sorted = <T extends { key: Record<string, string> }>(cells: readonly T[]) => [...cells].sort((a, b) =>
      (a.key.model + '\0' + a.key.game + '\0' + a.key.framing < b.key.model + '\0' + b.key.game + '\0' + b.key.framing ? -1 : 1));
    for (const f of ['trials.csv', 'trials.jsonl']) {
      const t = readTrials(join(FIX, f));
      expect(t.table.factors).toEqual(counts.table.factors);
      expect(t.table.cells.map((c) => [c.key, c.obs])).toEqual(sorted(counts.table.cells).map((c) => [c.key, c.obs]));
      expect(t.trials).toBe(1920);
      expect(t.kind).toBe('per-trial decisions');
      expect(t.provenanceColumns.map((c) => c.name)).toEqual(['trial']);
      expect(t.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });
  it('p_cooperate gives probability cells; a cluster column gives clustered cells (sizes, sums per cluster)', () => {
    const p = read('model,game,framing,p_cooperate\nA,G,business,0.25\nA,G,business,1\nA,G,friend-sharing,0\n');
    expect(p.table.cells.map((c) => c.obs)).toEqual([{ kind: 'prob', values: Float64Array.from([0.25, 1]) }, { kind: 'prob', values: Float64Array.from([0]) }]);
    expect(p.kind).toBe('per-trial probabilities');
    const c = read('{"model":"A","game":"G","framing":"business","action":"C","cluster":"x"}\n{"model":"A","game":"G","framing":"business","action":"D","cluster":"x"}\n' +
      '{"model":"A","game":"G","framing":"business","action":"C","cluster":"y"}\n\n{"model":"A","game":"G","framing":"friend-sharing","action":"d","cluster":"x"}\n' +
      '{"model":"A","game":"G","framing":"friend-sharing","action":"C","cluster":"z"}\n', 'jsonl');
    expect(c.table.cells[0].obs).toEqual({ kind: 'clustered', sizes: Float64Array.from([2, 1]), sums: Float64Array.from([1, 1]), ids: ['x', 'y'] });
    expect(c.table.cells[1].obs).toMatchObject({ ids: ['x', 'z'] });
    expect(c.clusterColumn).toBe('cluster');
    expect(c.clusters).toBe(4);
    expect(c.kind).toBe('per-trial decisions, clustered by cluster');
  });
  it('--cluster names another column; --factor keeps a column as a factor, folded into the game for the analysis', () => {
    const t = read('model,game,framing,cooperate,conv,round\nA,G,business,1,c1,1\nA,G,friend-sharing,0,c2,1\nA,G,business,1,c3,2\nA,G,friend-sharing,1,c4,2\n' +
      'A,G,business,0,c5,1\nA,G,friend-sharing,0,c6,1\nA,G,business,1,c7,2\nA,G,friend-sharing,1,c8,2\n',
      'csv', { cluster: 'conv', factors: ['round'] });
    expect(t.table.factors).toEqual(['model', 'game', 'framing', 'round']);
    expect(t.table.cells).toHaveLength(4);
    // sorted as a store lists its cells: model, game, framing, then the factor's levels
    expect(foldExtraFactors(t.table).cells.map((c) => c.key.game)).toEqual(['G [round=1]', 'G [round=2]', 'G [round=1]', 'G [round=2]']);
  });
});

describe('readTrials: bad rows give one line with file, line and field', () => {
  it.each([
    ['unknown action', [H, 'A,G,business,X', OK[1]].join('\n'), 'csv', 'FILE:2: field "action": "X" is not C or D'],
    ['cooperate not 0/1', 'model,game,framing,cooperate\nA,G,business,2\n', 'csv', 'FILE:2: field "cooperate": "2" is not 0 or 1'],
    ['probability above 1', 'model,game,framing,p_cooperate\nA,G,business,1.5\n', 'csv', 'FILE:2: field "p_cooperate": "1.5" is not a probability in [0, 1]'],
    ['probability negative', 'model,game,framing,p_cooperate\nA,G,business,-0.1\n', 'csv', 'FILE:2: field "p_cooperate": "-0.1" is not a probability in [0, 1]'],
    ['probability not a number', '{"model":"A","game":"G","framing":"business","p_cooperate":"high"}\n', 'jsonl', 'FILE:1: field "p_cooperate": "high" is not a probability in [0, 1]'],
    ['missing column', 'model,framing,action\nA,business,C\n', 'csv', 'FILE:1: field "game": required column is missing from the header; the header has "model", "framing", "action"'],
    ['missing key (JSONL)', '{"model":"A","game":"G","framing":"business","action":"C"}\n{"model":"A","framing":"friend-sharing","action":"C"}\n', 'jsonl', 'FILE:2: field "game": value is missing'],
    ['missing value', [H, 'A,,business,C', OK[1]].join('\n'), 'csv', 'FILE:2: field "game": value is missing'],
    ['no outcome column', 'model,game,framing\nA,G,business\n', 'csv',
      'FILE:1: field "action": the row needs exactly one outcome column: "action" (C or D), "cooperate" (0 or 1) or "p_cooperate" (a probability)'],
    ['mixed outcome columns (CSV header)', 'model,game,framing,action,cooperate\nA,G,business,C,1\n', 'csv',
      'FILE:1: field "cooperate": mixed outcome columns: this file gives "action", this row "cooperate" (use one outcome column for every row)'],
    ['mixed outcome columns (JSONL rows)', '{"model":"A","game":"G","framing":"business","action":"C"}\n{"model":"A","game":"G","framing":"business","cooperate":1}\n', 'jsonl',
      'FILE:2: field "cooperate": mixed outcome columns: this file gives "action", this row "cooperate" (use one outcome column for every row)'],
    ['empty file', '', 'csv', 'FILE: no data rows'],
    ['header only', `${H}\n`, 'csv', 'FILE: no data rows'],
    ['empty JSONL', '\n\n', 'jsonl', 'FILE: no data rows'],
    ['not JSON', '{"model":"A",\n', 'jsonl', expect.stringMatching(/^FILE:1: not a JSON object \(/)],
    ['a JSON array', '[1,2]\n', 'jsonl', 'FILE:1: not a JSON object'],
    ['wrong field count', [H, 'A,G,business', OK[1]].join('\n'), 'csv', 'FILE:2: row has 3 fields, the header has 4'],
    ['reserved model name', [H, 'Pooled,G,business,C'].join('\n'), 'csv', expect.stringMatching(/^FILE:2: field "model": "Pooled" is reserved/)],
    // the pair not given is business (present) and the next framing, neutral (sources/framing-pair.ts)
    ['missing planned framing names the framings present', [H, 'A,G,business,C', 'A,G,neutral,D', 'B,G,business,C'].join('\n'), 'csv',
      'FILE:4: field "framing": model "B", game "G" has no "neutral" row (every model–game needs both planned framings); the file\'s framings are "business", "neutral" (choose the pair with --base/--alt)'],
    ['unknown extension', 'x', 'txt', 'FILE: a per-trial file must end in .csv or .jsonl'],
  ])('%s', (_n, text, ext, want) => {
    expect(error(text as string, ext as string)).toEqual(want);
  });
  it('a --cluster column the header lacks', () => {
    expect(error([H, ...OK].join('\n'), 'csv', { cluster: 'conv' })).toBe('FILE:1: field "conv": required column is missing from the header; the header has "model", "game", "framing", "action"');
  });
});

describe('readTrials over arbitrary input: a table or a UserError naming the file, never a crash', () => {
  const field = fc.oneof(fc.constantFrom('A', 'G', 'business', 'friend-sharing', 'C', 'D', '0', '1', '0.5', '', ' ', '"', ',', '\n', 'x', '1e-1', '-0', 'NaN'), fc.string({ maxLength: 6 }));
  const row = fc.array(field, { minLength: 0, maxLength: 6 });
  const csvText = fc.tuple(fc.constantFrom(H, 'model,game,framing,cooperate,cluster', 'model,game,framing,p_cooperate', 'model,game,action', ''), fc.array(row, { maxLength: 8 }))
    .map(([h, rows]) => [h, ...rows.map((r) => r.join(','))].join('\n'));
  const jsonValue = fc.oneof(field, fc.integer({ min: -2, max: 2 }), fc.double(), fc.constant(null), fc.boolean());
  const obj = fc.dictionary(fc.constantFrom('model', 'game', 'framing', 'action', 'cooperate', 'p_cooperate', 'cluster', 'x'), jsonValue);
  const jsonlText = fc.array(fc.oneof(obj.map((o) => JSON.stringify(o)), fc.string({ maxLength: 10 })), { maxLength: 8 }).map((ls) => ls.join('\n'));

  const outcome = (text: string, ext: string) => {
    const f = write(text, ext);
    try {
      const t = readTrials(f.path, { displayPath: f.name });
      expect(t.table.cells.length).toBeGreaterThan(0);
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      const m = (e as Error).message;
      expect(m.startsWith(f.name)).toBe(true);
      expect(m).not.toContain('\n');
    }
  };
  it('CSV', () => { fc.assert(fc.property(csvText, (t) => outcome(t, 'csv')), { numRuns: 300 }); });
  it('JSONL', () => { fc.assert(fc.property(jsonlText, (t) => outcome(t, 'jsonl')), { numRuns: 300 }); });
  it('valid random trials always give counts that sum to the rows', () => {
    const trial = fc.record({ m: fc.constantFrom('A', 'B'), g: fc.constantFrom('G1', 'G2'), c: fc.boolean() });
    fc.assert(fc.property(fc.array(trial, { minLength: 1, maxLength: 40 }), (ts) => {
      const rows = ts.flatMap((t) => [`${t.m},${t.g},business,${t.c ? 'C' : 'D'}`, `${t.m},${t.g},friend-sharing,${t.c ? 'D' : 'C'}`]);
      const r = read([H, ...rows].join('\n'));
      const n = r.table.cells.reduce((s, c) => s + (c.obs as { n: number }).n, 0);
      const x = r.table.cells.reduce((s, c) => s + (c.obs as { x: number }).x, 0);
      expect([n, x]).toEqual([rows.length, ts.length]);
    }), { numRuns: 100 });
  });
});

/**
 * Per-trial input that must be refused with one line naming file, line and field (README
 * "Per-trial input", "Names", "Limits"): duplicate or control-character column names and JSON
 * keys, objects where a name belongs, a cluster column present on some lines only, degenerate
 * clustering, folded factor names that collide, directories, deep nesting, long lines, files
 * and names over their limits.
 */
describe('per-trial input refused with one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-trials-hard-'));
  let seq = 0;
  function write(text: string, ext: string): string {
    const path = join(dir, `in${seq++}.${ext}`);
    writeFileSync(path, text);
    return path;
  }
  /** The UserError message of reading `path` (its name replaced by FILE); a table is a test failure. */
  function refusal(path: string, opts = {}): string {
    try {
      readTrials(path, { displayPath: 'FILE', ...opts });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      expect(e.message).not.toContain('\n');
      return e.message;
    }
    throw new Error('expected a UserError, the file was accepted');
  }
  const error = (text: string, ext: string, opts = {}) => refusal(write(text, ext), opts);
  const j = (o: Record<string, unknown>) => JSON.stringify(o);
  const row = (framing: string, extra: Record<string, unknown> = {}) => ({ model: 'A', game: 'G', framing, action: 'C', ...extra });

  describe('column names and JSON keys: one rule for rates and per-trial files', () => {
    it.each([
      ['a duplicate CSV header', 'model,game,framing,action,action\nA,G,business,C,D\nA,G,friend-sharing,C,D\n', 'csv',
        'FILE:1: field "action": column appears twice in the header (columns 4 and 5)'],
      ['a control character in a CSV header', 'model,game,framing,action,no\u0007te\nA,G,business,C,x\nA,G,friend-sharing,C,x\n', 'csv',
        'FILE:1: field "no\\u0007te": contains the control character U+0007 (names may hold any printable character, no control characters)'],
      ['a duplicate JSONL key', '{"model":"A","game":"G","framing":"business","action":"C","action":"D"}\n', 'jsonl',
        'FILE:1: field "action": key appears twice in the object (keys 4 and 5)'],
      ['a duplicate JSONL key written with an escape', '{"model":"A","game":"G","framing":"business","action":"C","\\u0061ction":"D"}\n', 'jsonl',
        'FILE:1: field "action": key appears twice in the object (keys 4 and 5)'],
      ['a control character in a JSONL key', `${j(row('business', { 'x\u0001': 1 }))}\n`, 'jsonl',
        'FILE:1: field "x\\u0001": contains the control character U+0001 (names may hold any printable character, no control characters)'],
      ['an object where a name belongs', `${j(row('business', { model: { a: 1 } }))}\n`, 'jsonl',
        'FILE:1: field "model": is an object, not a name'],
      ['an array where a name belongs', `${j(row('business', { game: ['G'] }))}\n`, 'jsonl', 'FILE:1: field "game": is an array, not a name'],
      ['an object as an outcome', `${j(row('business', { action: { C: 1 } }))}\n`, 'jsonl', 'FILE:1: field "action": is an object, not a name'],
    ])('%s is refused', (_n, text, ext, want) => {
      expect(error(text, ext)).toBe(want);
    });
    it('the rates reader refuses the same header with the same line', () => {
      const path = write('model,game,framing,n,rate,rate\nA,G,business,10,0.5,0.5\nA,G,friend-sharing,10,0.5,0.5\n', 'csv');
      expect(() => readRates(path, { displayPath: 'FILE' })).toThrow('FILE:1: field "rate": column appears twice in the header (columns 5 and 6)');
    });
  });

  describe('the cluster column is decided by the file, not by its first line', () => {
    it('a later line with a cluster, the first without', () => {
      const text = [row('business'), row('friend-sharing', { cluster: 'c1' })].map(j).join('\n');
      expect(error(text, 'jsonl')).toBe('FILE:2: field "cluster": the first row has no "cluster" and this row has one: give every row a cluster, or none');
    });
    it('the first line with a cluster, a later one without', () => {
      const text = [row('business', { cluster: 'c1' }), row('business', { cluster: 'c2' }), row('friend-sharing', { cluster: 'c1' }), row('friend-sharing', { cluster: 'c2' }), row('business')].map(j).join('\n');
      expect(error(text, 'jsonl')).toBe('FILE:5: field "cluster": value is missing');
    });
  });

  describe('degenerate clustering is refused', () => {
    const H = 'model,game,framing,action,cluster';
    it('one cluster in a cell: its interval would be a point', () => {
      expect(error(`${H}\nA,G,business,C,c1\nA,G,business,D,c2\nA,G,friend-sharing,C,c3\nA,G,friend-sharing,D,c3\n`, 'csv'))
        .toBe('FILE:4: field "cluster": cell "A" / "G" / "friend-sharing" has one cluster ("c3"): a cluster bootstrap needs at least two clusters per cell');
    });
    it.each(['model', 'game', 'framing', 'action'])('--cluster %s', (col) => {
      expect(error(`${H}\nA,G,business,C,c1\nA,G,friend-sharing,D,c2\n`, 'csv', { cluster: col }))
        .toBe(`--cluster: "${col}" is a column the reader already uses (model, game, framing or the outcome); name the column that groups dependent decisions`);
    });
  });

  describe('folded factor names are one-to-one', () => {
    it('a game named like a folded game is refused naming both', () => {
      const text = ['model,game,framing,action,t', 'A,G [t=1],business,C,x', 'A,G [t=1],friend-sharing,C,x', 'A,G,business,D,1] [t=x', 'A,G,friend-sharing,D,1] [t=x'].join('\n');
      expect(error(text, 'csv', { factors: ['t'] }))
        .toBe('FILE:4: field "game": "G" with t = "1] [t=x" and "G [t=1]" with t = "x" (line 2) would both be the game "G [t=1] [t=x]": rename a level');
    });
    it('two keys that fold into one game are refused', () => {
      const text = ['model,game,framing,action,t,u', 'A,G,business,C,1; u=2,3', 'A,G,friend-sharing,C,1; u=2,3', 'A,G,business,D,1,2; u=3', 'A,G,friend-sharing,D,1,2; u=3'].join('\n');
      expect(error(text, 'csv', { factors: ['t', 'u'] }))
        .toBe('FILE:4: field "game": "G" with t = "1", u = "2; u=3" and "G" with t = "1; u=2", u = "3" (line 2) would both be the game "G [t=1; u=2; u=3]": rename a level');
    });
  });

  describe('names: line and paragraph separators and control characters in factor values', () => {
    it.each([['\u2028', 'U+2028'], ['\u2029', 'U+2029']])('a game with %j is refused', (ch, cp) => {
      expect(error(`model,game,framing,action\nA,G${ch}x,business,C\nA,G${ch}x,friend-sharing,C\n`, 'csv'))
        .toBe(`FILE:2: field "game": contains the control character ${cp} (names may hold any printable character, no control characters)`);
    });
    it('a factor value with a control character is refused', () => {
      expect(error('model,game,framing,action,t\nA,G,business,C,a\u001bb\nA,G,friend-sharing,C,1\n', 'csv', { factors: ['t'] }))
        .toBe('FILE:2: field "t": contains the control character U+001B (names may hold any printable character, no control characters)');
    });
  });

  describe('files and lines over their limits', () => {
    it('a directory is one line', () => {
      const d = join(dir, 'folder.jsonl');
      mkdirSync(d);
      expect(refusal(d)).toBe('FILE: cannot read the file (EISDIR)');
      const c = join(dir, 'folder.csv');
      mkdirSync(c);
      expect(refusal(c)).toBe('FILE: cannot read the file (EISDIR)');
    });
    it('a value nested 200,000 deep is refused at the depth limit', () => {
      const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
      expect(error(`{"model":"A","game":"G","framing":"business","action":"C","x":${deep}}\n`, 'jsonl'))
        .toBe('FILE:1: nested deeper than 64 levels');
    });
    it(`a line longer than ${MAX_LINE_CHARS} characters is refused, early`, () => {
      const long = `{"model":"A","game":"G","framing":"business","action":"C","x":"${'y'.repeat(MAX_LINE_CHARS)}"}\n`;
      expect(error(`${j(row('business'))}\n${long}`, 'jsonl')).toBe(`FILE:2: the line is longer than ${MAX_LINE_CHARS.toLocaleString('en-US')} characters`);
    });
    it('a file over 512 MiB is refused before it is read', () => {
      for (const ext of ['jsonl', 'csv']) {
        const path = join(dir, `big.${ext}`);
        const fd = openSync(path, 'w');
        ftruncateSync(fd, MAX_INPUT_BYTES + 1); // sparse: no disk used
        closeSync(fd);
        expect(refusal(path)).toBe('FILE: the file is larger than 512 MiB (536,870,913 bytes)');
      }
    }, 10_000);
    it(`a name longer than ${MAX_NAME_LENGTH} characters is refused (figures would grow with it)`, () => {
      const name = 'M'.repeat(MAX_NAME_LENGTH + 1);
      expect(error(`model,game,framing,action\n${name},G,business,C\n${name},G,friend-sharing,C\n`, 'csv'))
        .toBe(`FILE:2: field "model": is ${MAX_NAME_LENGTH + 1} characters long (names may be at most ${MAX_NAME_LENGTH})`);
      const ok = 'M'.repeat(MAX_NAME_LENGTH);
      expect(readTrials(write(`model,game,framing,action\n${ok},G,business,C\n${ok},G,friend-sharing,C\n`, 'csv')).table.cells).toHaveLength(2);
    });
  });

  describe('the JSONL reader over arbitrary lines: a table or one line naming the file, and duplicate keys never read', () => {
    const key = fc.constantFrom('model', 'game', 'framing', 'action', 'cluster', 'x', 'a\u0001', 'act\\u0069on');
    const value = fc.oneof(fc.constantFrom('"A"', '"G"', '"business"', '"friend-sharing"', '"C"', '"D"', '1', 'null', '{}', '[]', '{"a":1,"a":2}', '[[[]]]', '"\\u2028"'),
      fc.json({ maxDepth: 3 }));
    const obj = fc.array(fc.tuple(key, value), { maxLength: 7 }).map((kv) => `{${kv.map(([k, v]) => `"${k}":${v}`).join(',')}}`);
    const line = fc.oneof(obj, fc.string({ maxLength: 12 }), fc.constantFrom('{', '}', '{"a":', '[', '"', '{"a":"\\"}'));
    it('never a crash; a key given twice in an accepted file is impossible', () => {
      fc.assert(fc.property(fc.array(line, { maxLength: 6 }), (ls) => {
        const text = ls.join('\n');
        const path = write(text, 'jsonl');
        try {
          readTrials(path, { displayPath: 'FILE' });
          for (const l of ls) {
            const t = l.trim();
            if (t === '') continue;
            const keys = [...t.matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
            if (/^\{[^{}[\]]*\}$/.test(t)) expect(new Set(keys).size).toBe(keys.length);
          }
        } catch (e) {
          expect(e).toBeInstanceOf(UserError);
          expect((e as Error).message.startsWith('FILE')).toBe(true);
          expect((e as Error).message).not.toContain('\n');
        }
      }), { numRuns: 300 });
    });
  });
});
