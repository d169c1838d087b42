import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { framingPair } from '../../src/sources/framing-pair.js';
import { sidecarPath, trialsOrigin } from '../../src/sources/origin.js';
import { labelSynthetic, type Origin } from '../../src/core/provenance.js';

const dir = mkdtempSync(join(tmpdir(), 'samegame-origin-'));

describe('framingPair: the pair when --base/--alt are not given', () => {
  it.each([
    [['business', 'friend-sharing', 'abstract'], undefined, undefined, ['business', 'friend-sharing']],
    [['neighbours', 'strangers'], undefined, undefined, ['neighbours', 'strangers']],
    [['abstract', 'business'], undefined, undefined, ['business', 'abstract']],
    [['a', 'b', 'c'], 'b', undefined, ['b', 'a']],
    [['a', 'b', 'c'], undefined, 'c', ['a', 'c']],
    [[], undefined, undefined, ['business', 'friend-sharing']],
  ] as const)('%j base %s alt %s → %j', (framings, base, alt, want) => {
    const p = framingPair(framings, base, alt);
    expect([p.base, p.alt]).toEqual(want);
  });
});

describe('trialsOrigin: a per-trial file and the sidecar export wrote beside it', () => {
  const file = join(dir, 't.csv');
  writeFileSync(file, 'x');
  const sidecar = (o: Record<string, unknown>, sha = 'abc') =>
    writeFileSync(sidecarPath(file), JSON.stringify({ samegame_export: 1, file_sha256: sha, store: { path: 's', sha256: 'd' }, origin: o }));

  it('restores the synthetic flag, the run and the names when the hash matches', () => {
    sidecar({ synthetic: true, synthetic_why: ['the design says synthetic: true'], run: { id: 2, design: 'd', design_hash: 'h' }, names: { A: 'Alpha' } });
    const { origin, notes } = trialsOrigin(file, 't.csv', 'abc', []);
    expect(notes).toEqual([]);
    expect(origin).toMatchObject({ synthetic: true, run: { id: 2, design: 'd', designHash: 'h' }, source: { path: 't.csv', sha256: 'abc' } });
    expect({ ...origin.names }).toEqual({ A: 'Alpha' });
  });

  it('leaves a sidecar of other bytes out, with a note; the file\'s own synthetic column still counts', () => {
    sidecar({ synthetic: false, names: { A: 'Alpha' } }, 'other');
    const { origin, notes } = trialsOrigin(file, 't.csv', 'abc', [{ name: 'synthetic', values: [{ value: 'true', rows: 3 }] }]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('t.csv.provenance.json was written for other bytes than t.csv');
    expect(origin.synthetic).toBe(true);
    expect(origin.names).toBeUndefined();
  });

  it('a FIFO or a folder named like the sidecar is not waited on: left out with a note', () => {
    for (const [name, make] of [['f.csv', (p: string) => execFileSync('mkfifo', [p])], ['g.csv', (p: string) => mkdirSync(p)]] as const) {
      const f = join(dir, name);
      writeFileSync(f, 'x');
      make(sidecarPath(f));
      const { origin, notes } = trialsOrigin(f, name, 'abc', []);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toContain(sidecarPath(name));
      expect(origin.synthetic).toBe(false);
    }
  });

  it('any bytes in the sidecar: never throws; what is not a sidecar is left out with a note (property)', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
      writeFileSync(sidecarPath(file), text);
      const { origin, notes } = trialsOrigin(file, 't.csv', 'abc', []);
      expect(origin.source).toEqual({ path: 't.csv', sha256: 'abc' });
      expect(notes.length <= 1).toBe(true);
      expect(typeof origin.synthetic).toBe('boolean');
    }), { numRuns: 200 });
  });
});

describe('labelSynthetic', () => {
  const files = [
    { path: '/o/reports/table3.csv', content: 'model,R\nA,0.9\n' },
    { path: '/o/reports/table3.tex', content: '\\begin{table}\n\\caption{Robustness R.}\n\\end{table}\n' },
    { path: '/o/figures/captions.md', content: '# Figure captions\n\n## f\n\n**Title.** Caption.\n' },
    { path: '/o/reports/other.csv', content: 'a\n1\n' },
  ];
  const synthetic: Origin = { synthetic: true, source: { path: 's', sha256: 'h' }, syntheticModels: ['Sim'] };

  it('adds the synthetic column, the caption notice and the captions line; leaves other files', () => {
    const [csv, tex, md, other] = labelSynthetic(files, synthetic).map((f) => f.content as string);
    expect(csv).toBe('model,R,synthetic\nA,0.9,true\n');
    expect(tex).toContain('\\caption{\\textbf{Synthetic data: Sim answered through the simulated provider; these numbers say nothing about any real model.} Robustness R.}');
    expect(tex.startsWith('% Synthetic data')).toBe(true);
    expect(md.split('\n').slice(0, 3)).toEqual(['# Figure captions', '', '**Synthetic data: Sim answered through the simulated provider; these numbers say nothing about any real model.**']);
    expect(md).toContain('**Title.** Caption. Synthetic data');
    expect(other).toBe('a\n1\n');
  });

  it('real data: the files as they are', () => {
    expect(labelSynthetic(files, { ...synthetic, synthetic: false })).toEqual(files);
  });
});
