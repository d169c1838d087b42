/**
 * `samegame export` writes its sidecar where the read-back looks for it, and never leaves it describing other trials: `--out DIR/`
 * is the folder DIR (sidecar DIR.provenance.json, probes DIR.probes.parquet, never DIR/.provenance.json), and when the sidecar
 * and probes cannot be written the sidecar of the trials just replaced is not left beside the new ones.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../src/commands/run.js';
import { exportTrials } from '../../src/commands/export-store.js';
import { UserError } from '../../src/core/errors.js';
import { exportFolderSha256 } from '../../src/sources/parquet/files.js';

const design = (name: string, probes: string) => `name: ${name}
synthetic: true
models:
  - { id: Sim, provider: simulated }
games: [prisoners-dilemma]
framings: [business, friend-sharing]
trials: 2
${probes}decoding: { seed: 5 }
`;
const quiet = { info: () => {}, warn: () => {} };
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

let dir: string;
let withProbes: string;
let without: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-export-set-'));
  writeFileSync(join(dir, 'p.yaml'), design('with-probes', 'probes: 2\n'));
  writeFileSync(join(dir, 'n.yaml'), design('no-probes', ''));
  withProbes = join(dir, 'p.sqlite');
  without = join(dir, 'n.sqlite');
  await run({ design: join(dir, 'p.yaml'), store: withProbes, logger: quiet });
  await run({ design: join(dir, 'n.yaml'), store: without, logger: quiet });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('--format parquet --out DIR/: the sidecar and probes beside the folder, as for --out DIR', async () => {
  const folder = join(dir, 'slash');
  const res = await exportTrials({ store: withProbes, format: 'parquet', out: `${folder}${sep}`, logger: quiet });
  expect(res.sidecar).toBe(`${folder}.provenance.json`);
  expect(existsSync(join(folder, '.provenance.json'))).toBe(false);
  expect(JSON.parse(readFileSync(`${folder}.provenance.json`, 'utf8')).file_sha256).toBe(exportFolderSha256(folder));
  expect(res.probes?.out).toBe(`${folder}.probes.parquet`);
  expect(existsSync(`${folder}.probes.parquet`)).toBe(true);
});

it('a probes file that cannot be written: the earlier sidecar is not left paired with the new trials', async () => {
  const out = join(dir, 'trials.csv');
  const side = `${out}.provenance.json`;
  await exportTrials({ store: without, format: 'csv', out, logger: quiet });
  expect(JSON.parse(readFileSync(side, 'utf8')).file_sha256).toBe(sha256(out));
  // the probes' temporary (core/atomic.ts: PATH.tmp-PID) taken by a folder that is not empty: the probes' write fails
  const blocker = join(dir, `trials.probes.csv.tmp-${process.pid}`);
  mkdirSync(blocker);
  writeFileSync(join(blocker, 'x'), 'x');
  await expect(exportTrials({ store: withProbes, format: 'csv', out, logger: quiet })).rejects.toThrow(UserError);
  rmSync(blocker, { recursive: true });
  expect(existsSync(join(dir, 'trials.probes.csv'))).toBe(false);
  // the new trials are in place (written before the set); the sidecar that described the earlier ones is gone, not left stale
  expect(readFileSync(out, 'utf8')).toContain('with-probes');
  expect(existsSync(side)).toBe(false);
  // and the export done again writes the set
  const again = await exportTrials({ store: withProbes, format: 'csv', out, logger: quiet });
  expect(again.probes).toEqual({ out: join(dir, 'trials.probes.csv'), probes: 4 });
  expect(JSON.parse(readFileSync(side, 'utf8')).file_sha256).toBe(sha256(out));
});
