import { readFileSync } from 'node:fs';
import Papa from 'papaparse';

/** The metafor reference (test/reference/meta/make-reference.R) and its effect tables. */
export const reference = JSON.parse(readFileSync(new URL('../../reference/meta/reference.json', import.meta.url), 'utf8'));

export type Row = Record<string, string>;
export function table(name: string): Row[] {
  const text = readFileSync(new URL(`../../reference/meta/tables/${name}.csv`, import.meta.url), 'utf8');
  return Papa.parse<Row>(text.trim(), { header: true }).data;
}
/** A held-out table of make-reference-intervals.R and its reference values. */
export const heldOut = (name: string): Row[] =>
  Papa.parse<Row>(readFileSync(new URL(`../../reference/meta/held-out/${name}.csv`, import.meta.url), 'utf8').trim(), { header: true }).data;
export const intervalsReference = JSON.parse(readFileSync(new URL('../../reference/meta/reference-intervals.json', import.meta.url), 'utf8'));

export const column = (rows: Row[], name: string) => Float64Array.from(rows, (r) => Number(r[name]));

/** |a − b| ≤ rel·|b| + abs (abs for values at 0, such as τ² on the boundary). */
export function close(a: number, b: number | null, rel: number, abs = 1e-10): boolean {
  if (b === null) return Number.isNaN(a);
  return Math.abs(a - b) <= rel * Math.abs(b) + abs;
}
/** The reference of make-reference-synthesis.R: heterogeneity intervals, influence, small-study tests, three-level regression. */
export const synthesisReference = JSON.parse(readFileSync(new URL('../../reference/meta/reference-synthesis.json', import.meta.url), 'utf8'));
/** A held-out table of make-reference-synthesis.R, or one of tables/ (make-reference.R). */
export const anyTable = (name: string): Row[] => (['konstantopoulos', 'shipped', 'bcg', 'homogeneous'].includes(name) ? table(name) : heldOut(name));
