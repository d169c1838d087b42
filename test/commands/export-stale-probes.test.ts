/**
 * `samegame export` to a path an earlier export wrote: when the runs exported now asked no
 * comprehension probes, the probes' file of the earlier export (trials.probes.csv beside
 * trials.csv; DIR.probes.parquet beside a Parquet folder) is removed once the new trials and
 * sidecar are in place — it described other trials. An export that fails leaves the earlier pair
 * as it was.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { run } from '../../src/commands/run.js';
import { exportTrials } from '../../src/commands/export-store.js';
import { UserError } from '../../src/core/errors.js';
import { MemoryLogger } from '../../src/core/logger.js';

const design = (name: string, probes: string) => `name: ${name}
models:
  - { id: Sim, provider: simulated }
games: [prisoners-dilemma]
framings: [business, friend-sharing]
trials: 2
${probes}decoding: { seed: 5 }
`;
const quiet = { info: () => {}, warn: () => {} };

let dir: string;
let withProbes: string;
let without: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sg-export-stale-'));
  writeFileSync(join(dir, 'p.yaml'), design('with-probes', 'probes: 2\n'));
  writeFileSync(join(dir, 'n.yaml'), design('no-probes', ''));
  withProbes = join(dir, 'p.sqlite');
  without = join(dir, 'n.sqlite');
  await run({ design: join(dir, 'p.yaml'), store: withProbes, logger: quiet });
  await run({ design: join(dir, 'n.yaml'), store: without, logger: quiet });
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('CSV: re-exporting runs without probes to the same file removes the earlier trials.probes.csv; a failed export keeps it', async () => {
  const out = join(dir, 'trials.csv');
  const probes = join(dir, 'trials.probes.csv');
  const first = await exportTrials({ store: withProbes, format: 'csv', out, logger: quiet });
  // By hand: 1 model × 1 game × 2 framings × 2 probes.
  expect(first.probes).toEqual({ out: probes, probes: 4 });
  const before = readFileSync(probes, 'utf8');
  // A failed export (no such run) writes nothing and removes nothing.
  await expect(exportTrials({ store: without, format: 'csv', out, runId: 99, logger: quiet })).rejects.toThrow(UserError);
  expect(readFileSync(probes, 'utf8')).toBe(before);
  const logger = new MemoryLogger();
  const second = await exportTrials({ store: without, format: 'csv', out, logger });
  expect(second.probes).toBeUndefined();
  expect(existsSync(probes)).toBe(false);
  expect(readFileSync(out, 'utf8')).toContain('no-probes');
  expect(JSON.parse(readFileSync(`${out}.provenance.json`, 'utf8')).store.path).toBe(without);
  expect(logger.infos.join('\n')).not.toContain('probes');
});

it('Parquet: a new folder without probes beside an earlier DIR.probes.parquet removes it', async () => {
  const folder = join(dir, 'pq');
  const probes = `${folder}.probes.parquet`;
  const first = await exportTrials({ store: withProbes, format: 'parquet', out: folder, logger: quiet });
  expect(first.probes?.out).toBe(probes);
  expect(existsSync(probes)).toBe(true);
  rmSync(folder, { recursive: true }); // a Parquet export never replaces a folder: the earlier one is moved away, its probes' file left
  await exportTrials({ store: without, format: 'parquet', out: folder, logger: quiet });
  expect(existsSync(folder)).toBe(true);
  expect(existsSync(probes)).toBe(false);
});
