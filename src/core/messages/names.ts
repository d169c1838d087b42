/** Messages of the display-names file (--names FILE: CSV id,name). */
import { at } from './common.js';

const q = (s: string) => JSON.stringify(s);

export const namesMsg = {
  header: (file: string, got: string) => at(file, 1, undefined, `the header must be id,name (got ${q(got)})`),
  fields: (file: string, line: number, n: number) => at(file, line, undefined, `a row has 2 fields, id and name (got ${n})`),
  empty: (file: string, line: number, field: 'id' | 'name') => at(file, line, field, 'is empty'),
  duplicate: (file: string, line: number, id: string, first: number) => at(file, line, 'id', `${q(id)} is named twice (first on line ${first})`),
  fault: (file: string, line: number, field: 'id' | 'name', what: string) => at(file, line, field, what),
  syntax: (file: string, line: number, what: string) => at(file, line, undefined, `not CSV (${what})`),
  clash: (file: string, id: string, name: string, other: string) => `${file}: ${q(id)} would be shown as ${q(name)}, ${other === name ? 'which names another level already' : `as ${q(other)} is`}: display names must keep the levels apart`,
  oneShotStore: (store: string) => `${store}: --names applies to repeated play (a repeated store, or logs with --trials) and to reproduce; this store holds a one-shot run`,
};
