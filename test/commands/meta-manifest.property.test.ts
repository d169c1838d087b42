import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runMeta } from '../../src/commands/meta.js';
import { UserError } from '../../src/core/errors.js';
import { readEffects } from '../../src/sources/effects-csv.js';
import { meta } from '../../src/analyses/meta/index.js';
import { ROOT } from '../helpers/cli.js';
import { writeOutputs } from '../../src/commands/pipeline/write.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-meta-prop-'));
const RATES = join(ROOT, 'data/lore-heydari-2024/rates.csv');
const VALID = [
  'effect: shift', 'tau2: DL', 'test: z', 'moderators: [source]', 'studies:', '  - id: a', `    data: ${RATES}`,
  '    base: business', '    alt: friend-sharing', '    moderators: { source: x }', '  - id: b', `    data: ${RATES}`,
  '    base: business', '    alt: friend-sharing', '    attenuation: 1', '    moderators: { source: y }',
];

const BAD = ['  - id: a', '    csv: x.csv', '    trials: nowhere.csv', '    base: abstract', '    alt: business', 'pooling: maybe', '    store: x.sqlite', '    run: 0', 'studies: []', '&a [*a, *a]'];

/** The valid manifest with each line kept (mostly), dropped, cut, or replaced by arbitrary or known-bad text. */
const mutated = fc.tuple(...VALID.map((l) => fc.oneof(
  { weight: 20, arbitrary: fc.constant(l) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constant(l.slice(0, Math.max(0, l.length - 3))) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom(...BAD) },
))).map((ls) => ls.join('\n'));

const oneLineAboutTheManifest = (e: unknown, path: string) => {
  expect(e).toBeInstanceOf(UserError);
  const m = (e as UserError).message;
  expect(m.split('\n')).toHaveLength(1);
  expect(m.startsWith(path)).toBe(true);
  expect((e as UserError).exitCode).toBe(2);
};

describe('a manifest of arbitrary text', () => {
  it('is pooled, or refused with one line naming the manifest, and nothing is written', () => {
    let n = 0;
    let ok = 0;
    fc.assert(fc.property(fc.oneof(mutated, fc.string({ maxLength: 200 })), (text) => {
      const d = join(dir, String(n++));
      const path = join(dir, `m${n}.yaml`);
      writeFileSync(path, text);
      try {
        writeOutputs(runMeta({ manifest: path, out: d }).files); ok++;
        expect(existsSync(join(d, 'reports', 'meta.json'))).toBe(true);
      } catch (e) {
        oneLineAboutTheManifest(e, path);
        expect(existsSync(d)).toBe(false);
      }
    }), { numRuns: 300, seed: 30 });
    expect(ok).toBeGreaterThan(0); // some mutations stay valid: both branches are exercised
  });

  it('the valid manifest itself pools', () => {
    const path = join(dir, 'valid.yaml');
    writeFileSync(path, VALID.join('\n'));
    expect(runMeta({ manifest: path }).analysis.pooled.at(-1)!.k).toBe(24);
  });
});

describe('an effect table of arbitrary text', () => {
  const header = 'study,model,game,yi,vi,kind';
  const row = fc.tuple(fc.constantFrom('a', 'b', '', '"x,y"'), fc.constantFrom('m1', 'm2', 'Pooled'), fc.constantFrom('g1', 'g2', 'All'),
    fc.oneof(fc.double().map(String), fc.constantFrom('0.1', '-2', 'x', '')), fc.oneof(fc.double().map(String), fc.constantFrom('0.01', '0', '-1', '1e-3')),
    fc.string({ maxLength: 5 })).map((f) => f.join(','));
  it('is read, or refused with one line naming the file', () => {
    let n = 0;
    fc.assert(fc.property(fc.oneof(fc.array(row, { maxLength: 6 }).map((rs) => [header, ...rs].join('\n')), fc.string({ maxLength: 120 })), (text) => {
      const path = join(dir, `e${n++}.csv`);
      writeFileSync(path, text);
      try {
        const t = readEffects(path);
        for (const r of t.rows) { expect(Number.isFinite(r.yi)).toBe(true); expect(r.vi).toBeGreaterThan(0); }
      } catch (e) {
        oneLineAboutTheManifest(e, path);
      }
    }), { numRuns: 300, seed: 30 });
  });
});

describe('data/meta/manifest.schema.json', () => {
  it('is current (regenerate: npx tsc -p . && node scripts/meta-manifest-schema.mjs)', () => {
    expect(readFileSync(join(ROOT, 'data/meta/manifest.schema.json'), 'utf8')).toBe(`${JSON.stringify(meta.manifestJsonSchema(), null, 2)}\n`);
  });
});
