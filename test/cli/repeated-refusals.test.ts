/**
 * What one-shot paths must not do with repeated play, each one line, exit 2, nothing written:
 * a repeated run's export read back as independent trials; a repeated design scored by
 * log-probabilities (its moves would not be chosen actions); --expect and --compare on a
 * repeated store (they compare one-shot tables).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-repeated-refusals-'));
const shipped = readFileSync(join(ROOT, 'data', 'designs', 'akata-pd-sim.yaml'), 'utf8');
const design = join(dir, 'small.yaml');
const store = join(dir, 'small.sqlite');

beforeAll(async () => {
  writeFileSync(design, shipped.replace(/^trials: 10$/m, 'trials: 1'));
  const r = await runCli(['run', design, '--store', store]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

const refused = (r: { code: number | null; stderr: string }, pattern: RegExp) => {
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
};

describe('repeated play on one-shot paths', () => {
  for (const format of ['csv', 'jsonl'] as const) {
    it(`the ${format} export of a repeated run is refused by --trials (its rounds are not independent trials)`, async () => {
      const file = join(dir, `export.${format}`);
      expect((await runCli(['export', store, '--format', format, '--out', file])).code).toBe(0);
      const out = join(dir, `out-${format}`);
      refused(await runCli(['reproduce', '--trials', file, '--out', out]), /export of a repeated run/);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('a repeated design with scoring: logprobs is refused when read, before any call or store', async () => {
    const bad = join(dir, 'logprobs.yaml');
    writeFileSync(bad, shipped.replace(/^scoring: sample$/m, 'scoring: logprobs'));
    const s = join(dir, 'logprobs.sqlite');
    refused(await runCli(['run', bad, '--store', s]), /field "scoring": a repeated game .* needs scoring: sample/);
    expect(existsSync(s)).toBe(false);
  });

  it('--expect and --compare on a repeated store are refused', async () => {
    const out = join(dir, 'cmp');
    refused(await runCli(['analyze', store, '--out', out, '--expect', 'data/lore-heydari-2024/published.csv']), /--expect: .* holds a repeated game/);
    refused(await runCli(['analyze', store, '--out', out, '--compare', 'data/lore-heydari-2024/rates.csv']), /--compare .* repeated game/);
    expect(existsSync(out)).toBe(false);
  });
});
