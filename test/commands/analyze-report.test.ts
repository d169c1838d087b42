import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTables, type AnalyzeResult } from '../../src/commands/analyze.js';
import { analyzePresentationFiles } from '../../src/commands/pipeline/direct-run-report.js';
import { SHIPPED_RATES } from '../../src/core/paths.js';
import { counts, writeStore, type CellSpec } from '../helpers/store.js';

/**
 * The analyze report of a direct run: the synthetic-data banner and summary note, λ̂ and V_λ,
 * the compare headline table, games by name, a Table 3 caption that reads correctly at a = 1.
 */
const tmp = () => mkdtempSync(join(tmpdir(), 'samegame-analyze-report-'));

async function reportOf(simulated: boolean, compare: boolean): Promise<string> {
  const dir = tmp();
  const design = { name: 'small', models: [{ id: 'M', provider: simulated ? 'simulated' : 'openai-chat' }], games: ['prisoners-dilemma', 'stag-hunt'], framings: ['business', 'friend-sharing'] };
  const cells: CellSpec[] = [
    { model: 'M', game: 'prisoners-dilemma', framing: 'business', actions: counts(3, 20) },
    { model: 'M', game: 'prisoners-dilemma', framing: 'friend-sharing', actions: counts(15, 20) },
    { model: 'M', game: 'stag-hunt', framing: 'business', actions: counts(10, 20) },
    { model: 'M', game: 'stag-hunt', framing: 'friend-sharing', actions: counts(19, 20) },
  ];
  writeStore(join(dir, 's.sqlite'), design, cells);
  const res = analyzeTables({ store: join(dir, 's.sqlite'), reps: 200, ...(compare ? { compare: SHIPPED_RATES, modelMap: { M: 'GPT-4' } } : {}) }) as AnalyzeResult;
  const files = await analyzePresentationFiles(res);
  return files.find((f) => f.path.endsWith('report.html'))!.content as string;
}

describe('the analyze report', () => {
  it('a run with simulated models: a banner under the title and a note in the summary', async () => {
    const html = await reportOf(true, false);
    const banner = 'Synthetic data: M answered through the simulated provider; these numbers say nothing about any real model.';
    expect(html).toMatch(new RegExp(`</h1>\\n<p class="subtitle">[^\\n]*</p>\\n<p class="banner" role="note">${banner.replace(/[.;]/g, '\\$&')}</p>`));
    expect(html).toMatch(/<section id="summary">\n<h2>Summary<\/h2>\n<p>[^<]*Synthetic data: M answered/);
  });

  it('a run of real models has no banner', async () => {
    expect(await reportOf(false, false)).not.toContain('class="banner"');
  });

  it('λ̂ and V_λ: Prisoner\'s Dilemma, business, 3/20 → λ̂ = logit(3.5/21)/(−0.375) = 4.292', async () => {
    const html = await reportOf(true, false);
    // By hand: p̃ = (3 + 0.5)/(20 + 1) = 1/6, logit = −ln 5 = −1.6094; Δu(q = 0.5) = −0.375 (docs/methods.md §14).
    const lb = Math.log(1 / 6 / (5 / 6)) / -0.375;
    expect(lb.toFixed(3)).toBe('4.292');
    expect(html).toContain('<table id="lambda-table">');
    expect(html).toContain(`<td>M</td><td>Prisoner&#39;s Dilemma</td><td class="num">-0.375</td><td class="num">${lb.toFixed(3)}</td>`);
  });

  it('games by name; the Table 3 caption at a = 1 reads "without attenuation"', async () => {
    const html = await reportOf(true, false);
    expect(html).toContain('<dt>Games</dt><dd>Prisoner&#39;s Dilemma, Stag Hunt</dd>');
    expect(html).not.toContain('<td>prisoners-dilemma</td>');
    expect(html).toContain('pooled (mean over all model–game values), without attenuation (a = 1); 95 % percentile-bootstrap intervals; beside them R corrected with its test-inversion (each end a one-sided 95 % bound) interval '
      + 'and the action shift&#39;s 95 % MOVER-Wilson interval (methods.md §8.5).');
    expect(html).not.toContain('after the no attenuation');
  });

  it('with --compare: the headline table of both sources and the cells, and the flags in Settings', async () => {
    const html = await reportOf(true, true);
    expect(html).toContain('<table id="compare-headline">');
    expect(html).toMatch(/<tr><td>direct<\/td><td>M<\/td>[\s\S]*<tr><td>reconstructed<\/td><td>GPT-4<\/td>/);
    expect(html).toContain('<table id="compare-cells">');
    expect(html).toContain(`<dt>compare</dt><dd>${SHIPPED_RATES} (sha256 `);
    expect(html).toContain('<dt>map-model</dt><dd>M=GPT-4</dd>');
    expect(html).toContain(`--compare ${SHIPPED_RATES} \\\n  --map-model M=GPT-4</code></pre>`);
  });
});
