/**
 * The figures of `audit`, `meta` and `analyze` on a context-enrichment run as drawn, read off the
 * Vega scenegraph (test/helpers/scenegraph.ts) in both figure styles (default and
 * `--figure-style paper`): no data mark outside its plot area, no two tick labels of an axis
 * overlapping, and, where a names file gives display names, no raw id in any text the figure
 * draws or in its title and caption (also on reproduce's figures of the shipped data with a names
 * file). Inputs: the audit of the shipped data, the meta example (data/meta/lore-heydari.yaml)
 * and the enrichment starter (`init --kind enrichment`, run on its simulated model).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { auditCompute } from '../../src/commands/audit.js';
import { auditFigures } from '../../src/analyses/audit/figures.js';
import { runMeta } from '../../src/commands/meta.js';
import { meta as metaAnalysis } from '../../src/analyses/meta/index.js';
import { namedMeta } from '../../src/analyses/meta/named.js';
import type { SelectiveAnalysis } from '../../src/analyses/selective/index.js';
import { MemoryLogger } from '../../src/core/logger.js';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { reproduceFigures } from '../../src/commands/reproduce-outputs.js';
import { styled } from '../../src/render/paper-style.js';
import type { Figure } from '../../src/render/figure.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { figureFlaws, figureTexts, type Flaw } from '../helpers/scenegraph.js';

const STYLES = [undefined, { style: 'paper' as const }];

async function flawsOf(name: string, figures: readonly Figure[]): Promise<Flaw[]> {
  const out: Flaw[] = [];
  for (const style of STYLES) {
    for (const f of figures) out.push(...await figureFlaws(`${name}/${f.id}${style ? ' (paper)' : ''}`, styled(f, style).spec));
  }
  return out;
}

/** Each raw id found in a figure's drawn texts, title or caption (an id as a whole name: not inside a longer name, "a-b" in "a-b-c"). */
async function rawIds(figures: readonly Figure[], ids: readonly string[]): Promise<string[]> {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const found: string[] = [];
  for (const style of STYLES) {
    for (const f of figures) {
      const texts = [...await figureTexts(styled(f, style).spec), f.title, f.caption];
      for (const id of ids) {
        const hit = texts.find((t) => new RegExp(`(?<![\\w-])${escape(id)}(?![\\w-])`).test(t));
        if (hit !== undefined) found.push(`${f.id}${style ? ' (paper)' : ''}: "${id}" in "${hit}"`);
      }
    }
  }
  return found;
}

const META_NAMES = { 'lore-heydari-2024': 'Lorè and Heydari (2024)', 'same-game-sim': 'Simulation A', 'same-game-sim-b': 'Simulation B',
  'GPT-3.5': 'Model three', 'GPT-4': 'Model four', 'LLaMa-2': 'Model two' };

describe('audit, meta and selective figures without clipped marks, overlapping tick labels or raw ids (from the Vega scenegraph)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-flaws-commands-'));
  const r = auditCompute({ reps: 100, searchReps: 50, logger: new MemoryLogger() });
  const audit = auditFigures(r.attenuation, r.tipping, r.readingError.K, r.analysis, r.readingError.perCell ? r.readingError.label : undefined);
  const metaNames = join(dir, 'meta-names.csv');
  writeFileSync(metaNames, `id,name\n${Object.entries(META_NAMES).map(([k, v]) => `${k},${v}`).join('\n')}\n`);
  const m = runMeta({ manifest: join(ROOT, 'data/meta/lore-heydari.yaml'), namesFile: metaNames, logger: new MemoryLogger() });
  const meta = metaAnalysis.figures(namedMeta(m.analysis, m.names));
  for (const args of [['init', 'study', '--kind', 'enrichment'], ['run', 'study.yaml', '-q']]) {
    const res = await runCli(args, { cwd: dir });
    if (res.code !== 0) throw new Error(res.stderr);
  }
  const selNames = join(dir, 'names.csv');
  writeFileSync(selNames, 'id,name\nSim,Garden model (seeded)\n');
  const selective = (await analyze({ store: join(dir, 'runs/study.sqlite'), namesFile: selNames, dryRun: true, figures: false, reps: 100,
    logger: new MemoryLogger() }) as SelectiveAnalysis).figures;

  it('the figures tried: every figure each command writes on these inputs', () => {
    expect(audit.map((f) => f.id)).toEqual(['audit-attenuation', 'audit-tipping-points']);
    expect(meta.map((f) => f.id)).toEqual(['meta-forest', 'meta-funnel', 'meta-baujat']);
    expect(selective.map((f) => f.id)).toEqual(['selective-plane']);
  });

  it.each([['the audit of the shipped data', () => audit], ['the meta example', () => meta], ['the enrichment starter', () => selective]] as const)(
    '%s: no mark outside its plot area, no overlapping tick labels, in either style', async (name, figures) => {
      expect(await flawsOf(name, figures())).toEqual([]);
    }, 60_000);

  const shippedNames = join(dir, 'shipped-names.csv');
  writeFileSync(shippedNames, 'id,name\nGPT-3.5,OpenAI Turbo\nGPT-4,OpenAI Four\nLLaMa-2,Meta Llama two\n');
  const shipped = reproduceFigures(reproduceTables({ namesFile: shippedNames, logger: new MemoryLogger() }));

  it('with display names given, no raw id is drawn or written in a title or caption (reproduce and meta: models and studies; selective: models)', async () => {
    // reproduce on the shipped data, every figure (the reproduction's included): the models by name
    expect(shipped.map((f) => f.id)).toEqual(['table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled', 'reproduction']);
    expect(await rawIds(shipped, ['GPT-3.5', 'GPT-4', 'LLaMa-2'])).toEqual([]);
    expect(await rawIds(meta, Object.keys(META_NAMES))).toEqual([]);
    expect(await rawIds(selective, ['Sim'])).toEqual([]);
    // Without the names the ids are drawn, and found.
    expect((await rawIds(metaAnalysis.figures(m.analysis), ['same-game-sim'])).length).toBeGreaterThan(0);
    // The names are drawn, so the check looks where they are.
    expect((await figureTexts(meta[0].spec)).some((t) => t.includes('Simulation B'))).toBe(true);
    expect((await figureTexts(selective[0].spec)).some((t) => t.includes('Garden model (seeded)'))).toBe(true);
  }, 60_000);

  it('a line is drawn whole when it ends at the plot\'s edge along it, not when it runs along the edge', async () => {
    const line = (points: { x: number; y: number }[]) => ({ width: 100, height: 60, data: { values: points },
      mark: { type: 'line', strokeWidth: 4, clip: false },
      encoding: { x: { field: 'x', type: 'quantitative', scale: { domain: [0, 1], nice: false } },
        y: { field: 'y', type: 'quantitative', scale: { domain: [0, 1], nice: false } } } }) as Parameters<typeof figureFlaws>[1];
    expect(await figureFlaws('vertical', line([{ x: 0.5, y: 0 }, { x: 0.5, y: 1 }]))).toEqual([]);
    const along = (await figureFlaws('along the top', line([{ x: 0.2, y: 1 }, { x: 0.8, y: 1 }]))).map((f) => f.what);
    expect(along.length, along.join('\n')).toBeGreaterThan(0);
    expect(along[0]).toMatch(/^a line mark .* leaves the 100 × 60 plot area$/);
  });
});
