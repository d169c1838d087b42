import { beforeAll, describe, expect, it } from 'vitest';
import { auditCompute, type AuditResult } from '../../../src/commands/audit.js';
import { auditMarkdown } from '../../../src/analyses/audit/markdown.js';
import { auditJson } from '../../../src/analyses/audit/json.js';
import { auditReportDoc } from '../../../src/analyses/audit/outputs.js';
import { renderReportHtml } from '../../../src/render/html.js';
import { POOLED, stat } from '../../../src/core/names.js';
import { MemoryLogger } from '../../../src/core/logger.js';
import { rerun, withCounts } from './helpers.js';

let r: Omit<AuditResult, 'files'>;
beforeAll(() => { r = auditCompute({ logger: new MemoryLogger() }); });

describe('audit of the shipped Same Game, Different Story data', () => {
  it('finds every conclusion holding and an overturning table for each', () => {
    expect(r.tipping.map((t) => t.id)).toEqual([
      'shift-excludes-0[Pooled]', 'shift-excludes-0[GPT-3.5]', 'shift-excludes-0[GPT-4]', 'shift-excludes-0[LLaMa-2]', 'order-by-R', 'R-excludes-1[Pooled]']);
    for (const t of r.tipping) {
      expect(t.holds).toBe(true);
      expect(t.changes).toBeGreaterThan(0);
    }
  });

  it('tipping points are verified by applying the changes and re-running the estimands', () => {
    const table = r.input.table;
    const s = r.analysis.settings;
    for (const t of r.tipping) {
      const counts = table.cells.map((c) => (c.obs as { x: number }).x);
      for (const c of t.cells) counts[c.index] = c.to;
      expect(counts.reduce((sum, x, i) => sum + Math.abs(x - (table.cells[i].obs as { x: number }).x), 0)).toBe(t.changes);
      const b = rerun(withCounts(table, counts), s);
      if (t.kind === 'shift-excludes-0') {
        const g = t.id.slice('shift-excludes-0['.length, -1);
        const v = b.get(stat('shift', g));
        expect(v.lo > 0 || v.hi < 0).toBe(false);
      } else if (t.kind === 'R-excludes-1') {
        expect(b.get(stat('R', POOLED)).hi).toBe(1);
      } else {
        const R = (m: string) => b.get(stat('R', m)).point;
        const before = ['GPT-3.5', 'LLaMa-2', 'GPT-4']; // the observed order, from Table 3: 0.967 > 0.731 > 0.651
        const after = [...before].sort((x, y) => R(y) - R(x));
        expect(after).not.toEqual(before);
      }
      expect(t.verified).toBe(true);
    }
  });

  it('reading error ±1 cannot overturn any conclusion on the shipped data', () => {
    for (const t of r.tipping) {
      expect(t.readingError.overturned).toBe(false);
      expect(t.changes!).toBeGreaterThan(t.readingError.budget);
    }
  });

  it('lists the six degenerate cells of the shipped data', () => {
    expect(r.degenerate.map((d) => `${d.cell} ${d.x}/${d.n}`)).toEqual([
      "GPT-4 / Prisoner's Dilemma / business 0/300",
      'GPT-4 / Snowdrift / Chicken / business 0/300',
      "GPT-4 / Prisoner's Delight / Harmony / business 300/300",
      "GPT-4 / Prisoner's Delight / Harmony / friend-sharing 300/300",
      'LLaMa-2 / Stag Hunt / friend-sharing 300/300',
      "LLaMa-2 / Prisoner's Delight / Harmony / friend-sharing 300/300",
    ]);
  });

  it('writes a readable audit.md and a complete audit.json', () => {
    const md = auditMarkdown(r);
    for (const h of ['## Summary', '## 1. Consistency', '## 2. Reading error', '## 3. Tipping points', '## 4. Attenuation sweep',
      '## 5. Influence', '## 6. Monte Carlo error', '## 7. Degenerate cells']) expect(md).toContain(h);
    expect(md).not.toMatch(/undefined|NaN|\[object/);
    expect(md).toContain('Camerer et al. 2016');
    expect(md).toContain('upper bound');
    // Every Markdown table row has as many cells as its header.
    const lines = md.split('\n');
    let cols = 0;
    for (const l of lines) {
      if (!l.startsWith('|')) { cols = 0; continue; }
      const n = l.replace(/\\\|/g, '').split('|').length;
      if (cols === 0) cols = n; else expect(n).toBe(cols);
    }
    const json = JSON.parse(auditJson(r));
    expect(Object.keys(json)).toEqual(['tool', 'settings', 'framing_test', 'command', 'input', 'consistency', 'reading_error', 'tipping_points', 'attenuation', 'influence', 'monte_carlo_error', 'degenerate']);
    expect(json.command).toBe('samegame audit --data data/lore-heydari-2024/rates.csv --seed 20240818 --reps 10000 --search-reps 2000 --reading-error 1 --attenuation 0.7 --base business --alt friend-sharing');
    expect(json.tipping_points[0].upper_bound_only).toBe(true);
    expect(json.tipping_points[4].method).toBe('exact-dp');
    expect(auditJson(r)).toBe(auditJson(auditCompute({})));
  }, 60_000);
});

describe('audit figures', () => {
  it('the attenuation sweep has a legend naming every model and the pooled line', async () => {
    const { auditFigures } = await import('../../../src/analyses/audit/figures.js');
    const { renderSvg } = await import('../../../src/render/render.js');
    const fig = auditFigures(r.attenuation, r.tipping, r.readingError.K, r.analysis).find((f) => f.id === 'audit-attenuation')!;
    const svg = await renderSvg(fig.spec);
    for (const name of ['GPT-3.5', 'GPT-4', 'LLaMa-2', 'Pooled']) expect(svg).toContain(`>${name}<`);
    expect(fig.caption).toContain('with 95 % percentile-bootstrap intervals (bands)');
  });

  it('audit.html carries the influence, Monte Carlo error and Clopper–Pearson tables of audit.md, the regenerate command and file links', () => {
    const html = renderReportHtml(auditReportDoc(r, [], '/out'), { vega: '', vegaLite: '', vegaEmbed: '' });
    for (const id of ['influence-table', 'mc-error-table', 'clopper-pearson-table']) expect(html).toContain(`id="${id}"`);
    // Exact 95 % Clopper–Pearson bound at 0/300: 1 − 0.025^(1/300) = 0.012221… (closed form).
    expect((1 - 0.025 ** (1 / 300)).toFixed(4)).toBe('0.0122');
    expect(html).toContain('<td class="num">[0.0000, 0.0122]</td>');
    expect(html).toContain('<td class="num">[0.9878, 1.0000]</td>');
    const md = auditMarkdown(r);
    const gpt4pd = r.influence.pairs.find((p) => p.model === 'GPT-4' && p.game === "Prisoner's Dilemma")!;
    const d = gpt4pd.pooled.R.delta.point;
    const shown = `${d > 0 ? '+' : ''}${d.toFixed(4)}`;
    expect(md).toContain(shown);
    expect(html).toContain(`<td class="num">${shown}</td>`);
    expect(html).toContain('samegame audit \\\n  --data data/lore-heydari-2024/rates.csv \\\n  --seed 20240818');
    expect(html).toContain('<a href="audit.md">audit.md</a>');
    expect(html).toContain('<a href="audit.json">audit.json</a>');
  });
});

