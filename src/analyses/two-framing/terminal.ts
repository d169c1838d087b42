import type { Table3Row } from './tables.js';
import { fixed, interval } from '../../core/format.js';
import { allTable3Variants, table3Columns, type Table3Variant } from '../../stats/table3.js';
import { STAT_DECIMALS, statText } from './numbers.js';
import { bandConstantsText } from './simultaneous.js';

/** Plain-text columns, left-aligned, two spaces apart. */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: readonly string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** An interval, or — where there is none (a clustered cell of fewer than 3 matches). */
const iv = (lo: number, hi: number) => (Number.isNaN(lo) && Number.isNaN(hi) ? '— (< 3 matches)' : interval(lo, hi, STAT_DECIMALS));

/** Table 3 as the seed prints it: R̂, 95 % CI, action shift, 95 % CI, three decimals. */
export function table3Text(rows: readonly Table3Row[], attenuation: number, method: 'percentile' | 'bca' = 'percentile',
  simultaneous?: Readonly<Record<string, number>>): string {
  const title = (attenuation === 1
    ? 'Table 3: robustness and action shift (no attenuation)'
    : `Table 3: conservative estimates (attenuation ${attenuation})`) + (method === 'bca' ? '; 95 % BCa intervals' : '')
    + (simultaneous ? `; per-model rows: simultaneous 95 % sup-t bands (c = ${bandConstantsText(simultaneous, (x) => fixed(x, 2))}), Pooled pointwise` : '');
  const cols = table3Columns();
  const variants = allTable3Variants().filter((v) => rows.length > 0 && `${v.column}_lo` in rows[0]);
  const variantHeader = (v: Table3Variant) => [...(v.point ? [v.label] : []), v.header];
  const variantCells = (r: Table3Row, v: Table3Variant) =>
    [...(v.point ? [statText(r[v.column] as number)] : []), iv(r[`${v.column}_lo`] as number, r[`${v.column}_hi`] as number)];
  return `${title}\n${textTable(['Model', ...cols.flatMap((c) => [c.label, '95% CI']), ...variants.flatMap(variantHeader)],
    rows.map((r) => [r.model, ...cols.flatMap((c) => [statText(r[c.column] as number), iv(r[`${c.column}_lo`] as number, r[`${c.column}_hi`] as number)]),
      ...variants.flatMap((v) => variantCells(r, v))]))}`;
}
