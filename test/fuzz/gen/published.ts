/**
 * Published-values files (--expect) from a seeded generator: rows drawn from the shipped file,
 * written with benign variations (row order, CRLF, a provenance column, values with many
 * decimals) whose values must be read exactly as written, and hostile ones (over 100 decimals,
 * control characters in names, unknown statistics, duplicate or missing columns, garbage) for
 * which only the contract is judged.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePublished } from '../../../src/sources/published.js';
import { ROOT } from '../../helpers/cli.js';
import { stream, type FuzzCase } from './common.js';

const SHIPPED = readFileSync(join(ROOT, 'data/lore-heydari-2024/published.csv'), 'utf8').trim().split('\n');
/** table,model,game,statistic,published of each shipped row (the fields have no commas but the game may be quoted). */
const ROWS = SHIPPED.slice(1).map((l) => {
  const f: string[] = [];
  let cur = '', q = false;
  for (const ch of l) {
    if (ch === '"') q = !q; else if (ch === ',' && !q) { f.push(cur); cur = ''; } else cur += ch;
  }
  f.push(cur);
  return f.slice(0, 5);
});
const field = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

const HOSTILE: readonly [string, (rows: string[][]) => string][] = [
  ['a value with 150 decimals', (rows) => `table,model,game,statistic,published\n${rows.map((r, i) => [...r.slice(0, 4), i === 0 ? `0.${'3'.repeat(150)}` : r[4]].map(field).join(',')).join('\n')}\n`],
  ['control character in a model', (rows) => `table,model,game,statistic,published\n${rows.map((r, i) => [r[0], i === 0 ? `${r[1]}\u0007` : r[1], ...r.slice(2)].map(field).join(',')).join('\n')}\n`],
  ['an unknown statistic', (rows) => `table,model,game,statistic,published\n${rows.map((r, i) => [...r.slice(0, 3), i === 0 ? 'nonsense' : r[3], r[4]].map(field).join(',')).join('\n')}\n`],
  ['a duplicate column', (rows) => `table,model,game,statistic,published,published\n${rows.map((r) => [...r, r[4]].map(field).join(',')).join('\n')}\n`],
  ['no published column', (rows) => `table,model,game,statistic\n${rows.map((r) => r.slice(0, 4).map(field).join(',')).join('\n')}\n`],
  ['a value that is not a decimal', (rows) => `table,model,game,statistic,published\n${rows.map((r, i) => [...r.slice(0, 4), i === 0 ? '1e-3' : r[4]].map(field).join(',')).join('\n')}\n`],
  ['empty', () => ''],
  ['garbage', () => '\u0000\u0001\u00ff,,,\n"unterminated\n'],
];

export function publishedCases(dir: string, seed: number, count: number): FuzzCase[] {
  const r = stream(seed);
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const d = join(dir, `published-${i}`);
    mkdirSync(d);
    const rows = Array.from({ length: 1 + r.int(8) }, () => [...r.pick(ROWS)]);
    const unique = [...new Map(rows.map((x) => [x.slice(0, 4).join('\u0000'), x])).values()];
    const hostile = r.next() < 0.5 ? r.pick(HOSTILE) : undefined;
    let text: string;
    let written: string[][] = unique;
    if (hostile) text = hostile[1](unique);
    else {
      // Many decimals are still a plain decimal: 0.6 written with up to 60 decimals.
      written = unique.map((x) => (r.next() < 0.3 && x[4].includes('.') ? [...x.slice(0, 4), x[4] + '0'.repeat(1 + r.int(55))] : x));
      const eol = r.next() < 0.3 ? '\r\n' : '\n';
      const prov = r.next() < 0.5;
      text = [`table,model,game,statistic,published${prov ? ',source' : ''}`, ...written.map((x) => [...x, ...(prov ? ['p. 3'] : [])].map(field).join(','))].join(eol) + eol;
    }
    const file = join(d, 'published.csv');
    writeFileSync(file, text);
    const out = join(d, 'out');
    cases.push({
      name: `report --expect (${hostile ? hostile[0] : 'benign'}) #${i}`,
      argv: ['report', '--expect', file, '--out', out, '--reps', '20', '-q'],
      outputs: [out],
      accepted: hostile ? undefined : () => {
        const got = parsePublished(text, file).rows.map((x) => [x.table, x.model, x.game, x.statistic, x.published.text].join('|'));
        const want = written.map((x) => x.join('|'));
        return JSON.stringify(got) === JSON.stringify(want) ? [] : [`read ${JSON.stringify(got)}, wrote ${JSON.stringify(want)}`];
      },
    });
  }
  return cases;
}
