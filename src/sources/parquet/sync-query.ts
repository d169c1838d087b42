/**
 * The query engine for the synchronous readers (a per-trial file is read synchronously by every
 * command, `reproduce --trials` included): DuckDB run in a child process that this one waits for,
 * with the engine's settings (engine/engine.ts: the memory limit, a spill folder of its own). The
 * statements run in order on one in-memory database; the rows of each come back as plain values.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../core/errors.js';
import { engineSettings } from '../engine/engine.js';
import { parquetMsg } from './messages.js';

export type Row = Readonly<Record<string, unknown>>;

/** The child: statements on standard input (JSON), the rows of each on standard output (JSON, BIGINT as number), a failure on standard error. */
const CHILD = `
const { DuckDBInstance } = require(process.env.SAMEGAME_DUCKDB);
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
(async () => {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const out = [];
  for (const s of input) out.push((await c.runAndReadAll(s)).getRowObjectsJS());
  c.closeSync();
  db.closeSync();
  process.stdout.write(JSON.stringify(out, (k, v) => (typeof v === 'bigint' ? Number(v) : v)));
})().catch((e) => { process.stderr.write(String(e && e.message || e)); process.exitCode = 3; });
`;

/** How long the engine may take by default: far beyond any export this reads (a stuck child is ended, not waited on forever). */
const QUERY_TIMEOUT_MS = 60 * 60 * 1000;

/** Results larger than this are not what these readers ask for (they write large results to files). */
const MAX_OUTPUT = 256 * 1024 * 1024;

/**
 * Run `statements` in one DuckDB database, waiting for them: the rows of each; a failure is a UserError naming `files`. With `cwd`
 * the engine runs there, and the statements name files relative to it (a literal path's [, * or ? above it is then never a pattern).
 */
export function querySync(files: string, statements: readonly string[], o: { cwd?: string; timeoutMs?: number } = {}): Row[][] {
  const spill = mkdtempSync(join(tmpdir(), 'samegame-duckdb-'));
  try {
    const r = spawnSync(process.execPath, ['-e', CHILD], {
      input: JSON.stringify([...engineSettings(spill), ...statements]), maxBuffer: MAX_OUTPUT, encoding: 'utf8', cwd: o.cwd,
      timeout: o.timeoutMs ?? QUERY_TIMEOUT_MS, killSignal: 'SIGKILL',
      env: { ...process.env, SAMEGAME_DUCKDB: createRequire(import.meta.url).resolve('@duckdb/node-api') },
    });
    const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
    if (timedOut) throw new UserError(parquetMsg.engineTimedOut(files, (o.timeoutMs ?? QUERY_TIMEOUT_MS) / 1000));
    if (r.error) throw new UserError(parquetMsg.engineFailed(files, r.error.message));
    if (r.status !== 0) throw new UserError(parquetMsg.engineFailed(files, r.stderr || `exit ${r.status ?? r.signal}`));
    return (JSON.parse(r.stdout) as Row[][]).slice(engineSettings(spill).length);
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
}
