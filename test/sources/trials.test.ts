import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTrials, foldExtraFactors } from '../../src/sources/trials.js';
import { readRates } from '../../src/sources/rates-csv.js';
import { UserError } from '../../src/core/errors.js';

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
  it('trials.csv and trials.jsonl give counts.csv\'s table cell for cell, in the same order', () => {
    const counts = readRates(join(FIX, 'counts.csv'));
    expect(counts.kind).toBe('observed counts');
    for (const f of ['trials.csv', 'trials.jsonl']) {
      const t = readTrials(join(FIX, f));
      expect(t.table.factors).toEqual(counts.table.factors);
      expect(t.table.cells.map((c) => [c.key, c.obs])).toEqual(counts.table.cells.map((c) => [c.key, c.obs]));
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
    expect(c.table.cells[0].obs).toEqual({ kind: 'clustered', sizes: Float64Array.from([2, 1]), sums: Float64Array.from([1, 1]) });
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
    expect(foldExtraFactors(t.table).cells.map((c) => c.key.game)).toEqual(['G [round=1]', 'G [round=1]', 'G [round=2]', 'G [round=2]']);
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
    ['missing planned framing names the framings present', [H, 'A,G,business,C', 'A,G,neutral,D'].join('\n'), 'csv',
      'FILE:2: field "framing": model "A", game "G" has no "friend-sharing" row (every model–game needs both planned framings); the file\'s framings are "business", "neutral" (choose the pair with --base/--alt)'],
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
