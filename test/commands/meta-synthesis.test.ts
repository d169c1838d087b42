import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMeta } from '../../src/commands/meta.js';

/** What a manifest says about its studies that the effects do not: direct runs (no small-study tests) and mixed attenuations (a note). */
const manifest = (studies: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'meta-synthesis-'));
  const path = join(dir, 'm.yaml');
  writeFileSync(path, `effect: shift\npool_synthetic: true\nstudies:\n${studies}`);
  return path;
};
const at = (p: string) => resolve('data/meta', p);
const trials = (id: string, file: string) => `  - id: ${id}\n    trials: ${at(file)}\n    base: business\n    alt: friend-sharing\n`;

describe('meta on a manifest: direct runs and attenuations', () => {
  it('every study a direct run: the small-study tests are not applicable (said in the notes and meta.json)', () => {
    const res = runMeta({ manifest: manifest(trials('a', 'same-game-sim-trials.csv') + trials('b', 'same-game-sim-b-trials.csv')) });
    expect(res.analysis.smallStudy.status).toBe('not applicable');
    expect(res.analysis.notes.join('\n')).toContain('small-study tests: not applicable');
    expect(JSON.parse(String(res.files.find((f) => f.path.endsWith('meta.json'))!.content)).small_study).toBe('not applicable');
  });

  it('the shipped manifest mixes a = 0.7 (rates) with a = 1 (direct runs): a note names both groups', () => {
    const res = runMeta({ manifest: 'data/meta/lore-heydari.yaml' });
    expect(res.analysis.notes.join('\n')).toContain('attenuation differs between studies — a = 0.7: lore-heydari-2024; a = 1: same-game-sim, same-game-sim-b');
    expect(res.analysis.smallStudy.status).toBe('run');
  });

  it('one attenuation for all: no note', () => {
    const res = runMeta({ manifest: manifest(trials('a', 'same-game-sim-trials.csv') + trials('b', 'same-game-sim-b-trials.csv')) });
    expect(res.analysis.notes.join('\n')).not.toContain('attenuation differs');
  });
});
