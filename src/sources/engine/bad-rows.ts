/**
 * The first row a log format refuses, found by the engine: for files the row reader does not read (Parquet, JSON lines, globs),
 * named as it names a CSV line — file, row (the n-th record of the file, from 1), field and what is wrong. The scan runs on one
 * thread with the insertion order kept, so rows are numbered in file order; only a reading that already failed pays for it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { LogFormat } from '../logs/schema.js';
import { fieldOf, ident, pairingParts, requiredValues, rowRules, typedSql } from './compile.js';
import { queryRows } from './engine.js';
import { engineMsg } from './messages.js';

/** The message naming the first refused row of the files, or undefined when no single row is at fault. */
export async function firstBadRow(c: DuckDBConnection, files: readonly string[], display: readonly string[], f: LogFormat): Promise<string | undefined> {
  await c.run('SET threads = 1');
  await c.run('SET preserve_insertion_order = true');
  const rules = rowRules(f);
  const rule = `CASE ${rules.map(([r, where]) => `WHEN ${where} THEN '${r}'`).join(' ')} WHEN sg_r1 = round AND sg_s1 = sg_seat THEN 'duplicate_decision' END`;
  const [row] = await queryRows(c, `${typedSql(files, f, display, true)},
lagged AS (SELECT *, lag(round) OVER m AS sg_r1, lag(sg_seat) OVER m AS sg_s1, lag(sg_row) OVER m AS sg_row1 FROM typed
  WINDOW m AS (PARTITION BY match ORDER BY round, sg_seat, sg_n)),
ruled AS (SELECT *, ${rule} AS sg_rule FROM lagged)
SELECT * FROM ruled WHERE sg_rule IS NOT NULL ORDER BY sg_n LIMIT 1`);
  if (row) {
    const text = (k: string) => String(row[k] ?? '');
    const seat = f.seats[Number(row.sg_entry)];
    const file = text('sg_file'), at = Number(row.sg_row);
    switch (text('sg_rule')) {
      case 'missing_field': {
        const empty = requiredValues(f, seat).find(([k]) => text(k) === '');
        return engineMsg.badRow(file, at, empty?.[1] ?? 'match', 'empty');
      }
      case 'bad_round':
        return engineMsg.badRow(file, at, fieldOf(f.round, 'round'), `${JSON.stringify(text('sg_round'))} is not a round (a whole number from 1)`);
      case 'bad_seat': return engineMsg.badRow(file, at, fieldOf(seat.seat, 'seat'), `${JSON.stringify(text('sg_seat'))} is not a seat (1 or 2)`);
      case 'bad_label': {
        const own = Number(row.sg_own) < 0;
        const column = own ? seat.action : f.seats[1 - Number(row.sg_entry)].action;
        const labels = 'labels' in f.actions ? f.actions.labels[text('sg_key')] : undefined;
        const label = own ? text('sg_label') : await otherLabel(c, files, display, f, Number(row.sg_n), column);
        return engineMsg.badRow(file, at, column, labels ? engineMsg.notAnAction(label, text('sg_key'), Object.keys(labels))
          : engineMsg.noLabelMap(text('sg_key'), 'labels' in f.actions ? Object.keys(f.actions.labels) : []));
      }
      default: return engineMsg.badRow(file, at, fieldOf(f.round, 'round'),
        `match ${JSON.stringify(text('sg_match'))}, round ${text('round')}, seat ${text('sg_seat')} is already given on row ${text('sg_row1')}`);
    }
  }
  // a rule of whole matches: the first match at fault, named by its first row
  const sig = pairingParts(f);
  const [m] = await queryRows(c, `${typedSql(files, f, display, true)}
SELECT any_value(sg_file) AS sg_file, min(sg_row) AS sg_row, any_value(sg_match) AS sg_match, max(round) AS last,
  ${sig.map((p) => `count(DISTINCT ${p}) > 1`).join(' OR ')} AS repeats
FROM typed GROUP BY match HAVING repeats OR count(DISTINCT round) <> max(round) ORDER BY min(sg_n) LIMIT 1`);
  if (!m) return undefined;
  const what = m.repeats ? engineMsg.matchRepeats(String(m.sg_match)) : engineMsg.roundMissing(String(m.sg_match), Number(m.last));
  return engineMsg.badRow(String(m.sg_file), Number(m.sg_row), fieldOf(typeof f.match === 'object' ? f.match : undefined, 'match'), what);
}

/** The other seat's label on a row (shape round), as written. */
async function otherLabel(c: DuckDBConnection, files: readonly string[], display: readonly string[], f: LogFormat, n: number, column: string): Promise<string> {
  const [r] = await queryRows(c, `${typedSql(files, f, display, true)}
SELECT coalesce(trim(CAST(${ident(column)} AS VARCHAR)), '') AS v FROM src WHERE sg_n = ${n}`);
  return String(r?.v ?? '');
}
