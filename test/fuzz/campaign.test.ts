/**
 * The hostile-input campaign as generators (test/fuzz/gen/): per-trial files, published files,
 * numeric flags and output paths, damaged stores and misbehaving plug-ins, published-log CSVs,
 * log-format descriptions, WebPlotDigitizer projects and tars, repeated designs, and vendor
 * answers from a loopback server of each wire format, each case run through
 * the CLI in this process. Every case must end within its bound with exit 0, 2 or 3, print no
 * stack trace and leave nothing behind when it refuses; every accepted case's numbers must equal
 * the generator's own count. Seeded: the same cases on every run (SAMEGAME_FUZZ_SEED varies them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { judge, summary, type FuzzCase } from './gen/common.js';
import { trialCases } from './gen/trials.js';
import { publishedCases } from './gen/published.js';
import { flagCases, outputPathCases } from './gen/flags.js';
import { storeCases } from './gen/stores.js';
import { pluginCases } from './gen/plugins.js';
import { logCases } from './gen/logs.js';
import { formatCases } from './gen/formats.js';
import { digitizedCases } from './gen/digitized.js';
import { repeatedCases } from './gen/repeated.js';
import { vendorCases } from './gen/vendors.js';

const SEED = Number(process.env.SAMEGAME_FUZZ_SEED ?? 20_271);
const tmp = mkdtempSync(join(tmpdir(), 'samegame-campaign-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * Contract breaks these generators find in the published-values reader, which is being reworked
 * separately (a value with more than 100 decimals crashes in toFixed): printed, not failed, so the
 * rest of the suite still judges. Delete an entry once its case passes.
 */
const OPEN: readonly RegExp[] = [];

const ERRORS_URL = pathToFileURL(join(ROOT, 'src/live/types.ts')).href;

const SUITES: readonly [string, (dir: string) => FuzzCase[]][] = [
  ['per-trial files', (d) => trialCases(d, SEED, 40)],
  ['published files', (d) => publishedCases(d, SEED + 1, 24)],
  ['flags', (d) => flagCases(d, SEED + 2, 30)],
  ['output paths', (d) => outputPathCases(d)],
  ['stores', (d) => storeCases(d, SEED + 3, 30)],
  ['plug-ins', (d) => pluginCases(d, SEED + 4, 10, ERRORS_URL)],
  ['published logs', (d) => logCases(d, SEED + 5, 24)],
  ['log formats', (d) => formatCases(d, SEED + 6, 24)],
  ['digitized projects', (d) => digitizedCases(d, SEED + 7, 20)],
  ['repeated designs', (d) => repeatedCases(d, SEED + 8, 20)],
];

describe('hostile-input campaign (generated)', () => {
  it.each(SUITES)('%s: exit 0, 2 or 3, no stack trace, nothing left by a refusal, accepted numbers equal the generator\'s count', async (what, make) => {
    const dir = mkdtempSync(join(tmp, `${what.replace(/\W+/g, '-')}-`));
    const cases = make(dir);
    const j = await judge(cases);
    console.log(summary(`fuzz ${what}`, cases.length, j));
    const open = j.problems.filter((p) => OPEN.some((o) => o.test(p)));
    if (open.length > 0) console.warn(`known, not failed:\n${open.join('\n')}`);
    expect(j.problems.filter((p) => !open.includes(p))).toEqual([]);
  }, 600_000);

  it('vendor answers: each wire format\'s loopback server, scripted per attempt; stored trials equal the replay', async () => {
    const dir = mkdtempSync(join(tmp, 'vendors-'));
    process.env.SAMEGAME_FUZZ_KEY = 'fuzz-key-0123456789';
    const { cases, server } = await vendorCases(dir, SEED + 9, 16);
    try {
      const j = await judge(cases);
      console.log(summary('fuzz vendor answers', cases.length, j));
      expect(j.problems).toEqual([]);
    } finally {
      await server.close();
      delete process.env.SAMEGAME_FUZZ_KEY;
    }
  }, 600_000);
});
