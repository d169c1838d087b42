import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readBundles } from '../../src/render/vega-runtime.js';
import { ROOT, runCli, spawnCli, type CliResult } from '../helpers/cli.js';

/**
 * Every committed output of every command, regenerated and compared byte for byte:
 *
 * - `reproduce` and `audit` on the shipped data, each run as its own process of the built binary
 *   (the end-to-end run of the suite), write exactly the committed reports/ and figures/ (the same
 *   file set, the same bytes), and reproduce prints Table 3 as in the paper;
 * - `analyze` of the quickstart design and of the hospital-transfer-sim design, each run with the
 *   simulated provider, writes the golden copies under test/golden/<design>/.
 *
 * Normalized, and only in the analyze outputs: a store records when each trial was made, so its
 * SHA-256 differs from run to run; the hash (read from metrics.json / selective.json) is replaced
 * by <store-sha256> wherever it appears. The store path is the same relative path every time
 * (runs/<design>.sqlite, run from a scratch folder), so nothing else needs normalizing. The
 * golden HTML keeps everything but the three vendored library bundles (vega, vega-lite,
 * vega-embed: the same bytes as in the committed reports/report.html), each replaced by a marker;
 * the Content-Security-Policy still carries their hashes, so a changed bundle shows.
 *
 * UPDATE_GOLDEN=1 npx vitest run test/commands/committed-outputs.test.ts rewrites test/golden/.
 */
const GOLDEN = join(ROOT, 'test', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const LONG = 300_000;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile()).sort();
}

const bundles = readBundles();
const BUNDLES: [string, string][] = [['vega', bundles.vega], ['vega-lite', bundles.vegaLite], ['vega-embed', bundles.vegaEmbed]];

/** The normalized bytes of one analyze output (see the header). */
function normalize(file: string, bytes: Buffer, storeSha: string): Buffer {
  if (file.endsWith('.png')) return bytes;
  let text = bytes.toString('utf8').split(storeSha).join('<store-sha256>');
  if (file.endsWith('.html')) for (const [name, b] of BUNDLES) text = text.split(`<script>${b}</script>`).join(`<script>/* ${name} bundle */</script>`);
  return Buffer.from(text, 'utf8');
}

async function ok(args: string[], cwd = ROOT): Promise<void> {
  const r = await runCli(args, { cwd });
  if (r.code !== 0) throw new Error(`samegame ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
}

describe('reproduce and audit regenerate the committed reports/ and figures/', () => {
  const out = mkdtempSync(join(tmpdir(), 'samegame-committed-'));
  let reproduced: CliResult;
  beforeAll(async () => {
    // Two processes at once: they write different files of the same folders.
    const [rep, aud] = await Promise.all([spawnCli(['reproduce', '--out', out]), spawnCli(['audit', '--out', out, '-q'])]);
    for (const [r, what] of [[rep, 'reproduce'], [aud, 'audit']] as const) if (r.code !== 0) throw new Error(`samegame ${what}: exit ${r.code}\n${r.stderr}`);
    reproduced = rep;
  }, LONG);

  it('reproduce prints Table 3 as in the paper and writes the tables with their headers', () => {
    expect(reproduced.stdout).toMatch(/GPT-3\.5\s+0\.967\s+\[0\.95\d, 0\.97\d\]\s+0\.150/);
    expect(reproduced.stdout).toMatch(/Pooled\s+0\.783\s+\[0\.77\d, 0\.79\d\]\s+0\.307/);
    expect(readdirSync(join(out, 'reports'))).toEqual(expect.arrayContaining(['table2.csv', 'table3.csv', 'metrics.json', 'verification.md', 'verification.json']));
    expect(readFileSync(join(out, 'reports', 'table3.csv'), 'utf8').split('\n')[0]).toBe('model,R,R_lo,R_hi,shift,shift_lo,shift_hi,R_corrected,R_corrected_lo,R_corrected_hi,shift_wilson_lo,shift_wilson_hi');
    expect(readFileSync(join(out, 'reports', 'table2.csv'), 'utf8').split('\n')[0]).toBe('model,game,base_rate,base_count,alt_rate,alt_count,difference');
  });

  it('the same set of files, byte for byte', () => {
    for (const dir of ['reports', 'figures']) {
      const committed = filesUnder(join(ROOT, dir));
      expect(filesUnder(join(out, dir)), `${dir}/ file set`).toEqual(committed);
      for (const f of committed) {
        expect(readFileSync(join(out, dir, f)).equals(readFileSync(join(ROOT, dir, f))), `${dir}/${f} differs from the committed file`).toBe(true);
      }
    }
  });
});

/** Run a shipped design with the simulated provider in a scratch folder, analyze it, and compare with test/golden/<name>. */
function goldenCase(name: string, shaFile: string, shaPath: (doc: Record<string, unknown>) => unknown): void {
  describe(`analyze of ${name} (simulated) matches test/golden/${name}`, () => {
    const cwd = mkdtempSync(join(tmpdir(), `samegame-golden-${name}-`));
    const outDir = join(cwd, 'runs', name);
    beforeAll(async () => {
      await ok(['run', join(ROOT, 'data', 'designs', `${name}.yaml`), '--store', `runs/${name}.sqlite`, '-q'], cwd);
      await ok(['analyze', `runs/${name}.sqlite`, '-q'], cwd);
    }, LONG);

    it('the same set of files, byte for byte after normalizing the store hash and the vendored bundles', () => {
      const doc = JSON.parse(readFileSync(join(outDir, 'reports', shaFile), 'utf8')) as Record<string, unknown>;
      const sha = shaPath(doc);
      expect(sha).toMatch(/^[0-9a-f]{64}$/);
      // The hash recorded is the store's as analyzed.
      expect(sha).toBe(createHash('sha256').update(readFileSync(join(cwd, 'runs', `${name}.sqlite`))).digest('hex'));
      const files = filesUnder(outDir);
      const golden = join(GOLDEN, name);
      if (UPDATE) {
        rmSync(golden, { recursive: true, force: true });
        for (const f of files) {
          mkdirSync(dirname(join(golden, f)), { recursive: true });
          writeFileSync(join(golden, f), normalize(f, readFileSync(join(outDir, f)), sha as string));
        }
      }
      expect(files, 'file set').toEqual(filesUnder(golden));
      for (const f of files) {
        const got = normalize(f, readFileSync(join(outDir, f)), sha as string);
        expect(got.equals(readFileSync(join(golden, f))), `${relative(ROOT, join(golden, f))} differs`).toBe(true);
      }
    });
  });
}

goldenCase('quickstart', 'metrics.json', (d) => (d.input as { sha256: string }).sha256);
goldenCase('hospital-transfer-sim', 'selective.json', (d) => (d.input as { sha256: string }).sha256);
