/**
 * The figures as drawn, read off the Vega scenegraph (test/helpers/scenegraph.ts), not by eye: no
 * data mark outside its plot area (a point at R = 1 or a rate of 1 drawn whole, not cut at the
 * axis) and no two tick labels of an axis overlapping, in both figure styles (default and
 * `--figure-style paper`), on the figures of `reproduce` on the shipped data, of the repeated
 * starter (`init --kind repeated`, run on its simulated model) and of the Akata log. A figure
 * built with both flaws shows that the check finds them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { reproduceFigures } from '../../src/commands/reproduce-outputs.js';
import { repeatedFigureList } from '../../src/commands/pipeline/repeated-report.js';
import type { RepeatedResult } from '../../src/commands/pipeline/repeated.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { styled } from '../../src/render/paper-style.js';
import type { Figure } from '../../src/render/figure.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { figureFlaws, type Flaw } from '../helpers/scenegraph.js';

async function flawsOf(name: string, figures: readonly Figure[]): Promise<Flaw[]> {
  const out: Flaw[] = [];
  for (const paper of [false, true]) {
    for (const f of figures) {
      out.push(...await figureFlaws(`${name}/${f.id}${paper ? ' (paper)' : ''}`, styled(f, paper ? { style: 'paper' } : undefined).spec));
    }
  }
  return out;
}

describe('figures without clipped marks or overlapping tick labels (from the Vega scenegraph)', async () => {
  const shipped = reproduceFigures(reproduceTables({ logger: new MemoryLogger() }));
  const akata = repeatedFigureList(await analyze({ trials: [join(ROOT, 'data/akata-2023/experiment_pd.csv')], format: 'akata', out: '/tmp/never-written',
    dryRun: true, figures: false, reps: 100 }) as RepeatedResult);
  const dir = mkdtempSync(join(tmpdir(), 'samegame-flaws-'));
  for (const args of [['init', 'study', '--kind', 'repeated'], ['run', 'study.yaml', '-q']]) {
    const r = await runCli(args, { cwd: dir });
    if (r.code !== 0) throw new Error(r.stderr);
  }
  const starter = repeatedFigureList(await analyze({ store: join(dir, 'runs/study.sqlite'), dryRun: true, figures: false, reps: 100 }) as RepeatedResult);

  it('the figures tried', () => {
    expect(shipped.map((f) => f.id)).toEqual(['table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled', 'reproduction']);
    expect(akata.map((f) => f.id)).toEqual(['repeated-rounds', 'repeated-reactions']);
    expect(starter.map((f) => f.id)).toEqual(['repeated-rounds', 'repeated-reactions', 'table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled']);
  });

  it.each([['the shipped data (reproduce)', () => shipped], ['the Akata log', () => akata], ['the repeated starter', () => starter]] as const)(
    '%s: none, in either style', async (name, figures) => {
      expect(await flawsOf(name, figures())).toEqual([]);
    }, 120_000);

  it('a figure with a point cut at the axis and overlapping labels is found out', async () => {
    const spec = {
      width: 100, height: 60, data: { values: [{ x: 1, y: 'a' }, { x: 0.5, y: 'b' }] }, mark: { type: 'point', size: 200, filled: true, clip: false },
      encoding: { x: { field: 'x', type: 'quantitative', scale: { domain: [0, 1] }, axis: { tickCount: 20, labelOverlap: false, format: '.4f' } },
        y: { field: 'y', type: 'nominal' } },
    } as TopLevelSpec;
    const flaws = (await figureFlaws('bad', spec)).map((f) => f.what);
    expect(flaws.some((w) => /^a symbol mark .* leaves the 100 × 60 plot area$/.test(w)), flaws.join('\n')).toBe(true);
    expect(flaws.some((w) => /^tick labels "0\.\d+" and "0\.\d+" overlap$/.test(w)), flaws.join('\n')).toBe(true);
  });
});
