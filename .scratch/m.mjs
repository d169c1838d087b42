import { DuckDBInstance } from '@duckdb/node-api';
import { cpSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { exportTrials } from '../dist/index.js';
import { readInput } from '../dist/sources/input.js';
const store = '/tmp/rpt/os.sqlite';
rmSync('/tmp/rpt/m', { recursive: true, force: true }); (await import('node:fs')).mkdirSync('/tmp/rpt/m');
await exportTrials({ store: '/tmp/rpt/os.sqlite', format: 'parquet', out: '/tmp/rpt/m/good' });
const files = (d) => readdirSync(d, { recursive: true }).filter((f) => f.endsWith('.parquet')).sort().map((f) => join(d, f));
for (const [name, sel] of [['status', "SELECT * EXCLUDE (file_row_number) REPLACE (CASE WHEN file_row_number = 2 THEN 'maybe' ELSE status END AS status) FROM t"],
  ['type', 'SELECT * EXCLUDE (file_row_number) REPLACE (CAST(rep AS VARCHAR) AS rep) FROM t'], ['drop', 'SELECT * EXCLUDE (file_row_number, action) FROM t']]) {
  const d = `/tmp/rpt/m/${name}`; cpSync('/tmp/rpt/m/good', d, { recursive: true });
  const f = files(d)[1];
  const db = await DuckDBInstance.create(':memory:'); const c = await db.connect();
  await c.run(`CREATE VIEW t AS SELECT * FROM read_parquet('${f}', file_row_number = true, hive_partitioning = false)`);
  await c.run(`COPY (${sel} ORDER BY file_row_number) TO '${f}.new' (FORMAT parquet)`); renameSync(`${f}.new`, f);
  try { readInput({ trials: d }); console.log(name, 'read?!'); } catch (e) { console.log(e.exitCode, e.message); }
}
