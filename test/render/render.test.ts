import { jsonText } from '../../src/core/format.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { reproduceTables } from '../../src/commands/reproduce.js';
import { twoFramingFigures } from '../../src/analyses/two-framing/figures.js';
import { defineFigure } from '../../src/render/figure.js';
import { PNG_SCALE, renderSvg, svgToPng } from '../../src/render/render.js';
import { FigurePool, figureFiles, figureMemo } from '../../src/render/figure-files.js';
import { dejaVuMetrics, fontFiles } from '../../src/render/font-metrics.js';
import { loadVega } from '../../src/render/vega-runtime.js';
import { roundFloats } from './round-floats.js';

const require = createRequire(import.meta.url);
const { Resvg } = require('@resvg/resvg-js') as typeof import('@resvg/resvg-js');

/**
 * Independent measure of an advance width: resvg shapes the text with the font file itself;
 * the ink box of k+1 copies of a glyph minus that of one copy is k advances (side bearings cancel).
 */
function resvgAdvance(ch: string, size: number, bold = false): number {
  const f = fontFiles();
  const box = (text: string) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="200"><text x="10" y="150" font-family="DejaVu Sans" font-weight="${bold ? 'bold' : 'normal'}" font-size="${size}">${text}</text></svg>`;
    return new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: [f.regular, f.bold], defaultFontFamily: 'DejaVu Sans' } }).getBBox()!.width;
  };
  return (box(ch.repeat(11)) - box(ch)) / 10;
}

/** Width of a PNG from its IHDR chunk. */
const pngWidth = (png: Uint8Array) => Buffer.from(png).readUInt32BE(16);
const svgWidth = (svg: string) => Number(/<svg[^>]* width="([\d.]+)"/.exec(svg)![1]);

describe('font metrics (DejaVu Sans advance widths from the TTF)', () => {
  it.each(['M', 'i', 'W', '0', 'a'])('%s at 100 px matches the advance resvg draws with', (ch) => {
    expect(dejaVuMetrics().regular.width(ch, 100)).toBeCloseTo(resvgAdvance(ch, 100), 0);
  });
  it('bold is wider than regular, and matches resvg too', () => {
    const m = dejaVuMetrics();
    expect(m.bold.width('m', 100)).toBeGreaterThan(m.regular.width('m', 100));
    expect(m.bold.width('m', 100)).toBeCloseTo(resvgAdvance('m', 100, true), 0);
  });
  it('a string is the sum of its characters; empty text has width 0', () => {
    const m = dejaVuMetrics().regular;
    expect(m.width('Mi', 11)).toBeCloseTo(m.width('M', 11) + m.width('i', 11), 12);
    expect(m.width('', 11)).toBe(0);
  });
  it('vega measures text with these widths once a figure has been rendered (not 0.8 em per character)', async () => {
    await renderSvg(defineFigure('x', 't', 'c', { data: { values: [{ a: 1 }] }, mark: 'point', encoding: { x: { field: 'a', type: 'quantitative' } } }).spec);
    const tm = (loadVega().vega as unknown as { textMetrics: { width: (i: object, t: string) => number } }).textMetrics;
    const want = 10 * resvgAdvance('i', 100) / 100 * 4;
    expect(tm.width({ fontSize: 10 }, 'iiii')).toBeCloseTo(want, 1);
    expect(tm.width({ fontSize: 10 }, 'iiii')).not.toBeCloseTo(0.8 * 10 * 4, 0);
  });
});

describe('rendering the two-framing figures', () => {
  const res = reproduceTables({});
  const figs = twoFramingFigures(res.analysis);

  it.each(figs.map((f) => [f.id, f] as const))('SVG snapshot %s (floats rounded)', async (id, f) => {
    const warnings: string[] = [];
    const svg = await renderSvg(f.spec, warnings);
    expect(warnings).toEqual([]);
    expect(svg).toMatch(/^<svg /);
    expect(svg).toContain('font-family="DejaVu Sans, Verdana, sans-serif"');
    await expect(roundFloats(svg)).toMatchFileSnapshot(`__snapshots__/figures/${id}.svg`);
  });

  it('SVG output does not depend on what was drawn before (clip ids restart)', async () => {
    const a = await renderSvg(figs[2].spec);
    await renderSvg(figs[0].spec);
    await renderSvg(figs[3].spec);
    expect(await renderSvg(figs[2].spec)).toBe(a);
  });

  it('PNG: twice the SVG size, the same bytes on every call', async () => {
    const svg = await renderSvg(figs[1].spec);
    const png = svgToPng(svg);
    expect(Buffer.from(png.subarray(0, 8)).toString('hex')).toBe('89504e470d0a1a0a');
    expect(pngWidth(png)).toBe(Math.round(svgWidth(svg) * PNG_SCALE));
    expect(Buffer.from(svgToPng(svg)).equals(Buffer.from(png))).toBe(true);
  });

  it('figure files: the same bytes whichever thread draws a figure (worker and calling thread, or calling thread only)', async () => {
    // Without the process's memo of drawn figures: each pool draws every figure itself.
    const both = new FigurePool(true, false);
    const alone = new FigurePool(false, false);
    both.prefetch(figs[0]); // drawn by the worker while the rest are queued
    const a = await both.files(figs, '/out');
    const b = await alone.files(figs, '/out');
    expect(a.map((f) => f.path)).toEqual(figs.flatMap((f) => ['vl.json', 'svg', 'png'].map((e) => `/out/figures/${f.id}.${e}`)));
    for (let i = 0; i < a.length; i++) expect(Buffer.from(a[i].content).equals(Buffer.from(b[i].content))).toBe(true);
    expect(a[1].content).toBe(`${await renderSvg(figs[0].spec)}\n`);
  });

  it('figure files: a figure drawn before in this process comes from the memo, the same bytes; the memo keeps to its budget', async () => {
    const fig = { ...figs[1], spec: { ...figs[1].spec, title: 'memo probe' } } as typeof figs[1];
    const before = figureMemo.entries();
    const first = await new FigurePool().files([fig], '/out');
    expect(figureMemo.entries()).toBe(before + 1);
    const again = await new FigurePool(false).files([{ ...fig, id: 'renamed' }], '/out');
    expect(figureMemo.entries()).toBe(before + 1); // a hit: nothing new drawn or kept
    for (let i = 0; i < 3; i++) expect(Buffer.from(again[i].content).equals(Buffer.from(first[i].content))).toBe(true);
    const limit = figureMemo.limit;
    try {
      figureMemo.limit = 0; // every later figure pushes out all the others, and then itself
      await new FigurePool(false).files([{ ...fig, spec: { ...fig.spec, title: 'memo probe 2' } } as typeof fig], '/out');
      expect(figureMemo.entries()).toBe(0);
      expect(figureMemo.bytes()).toBe(0);
    } finally {
      figureMemo.limit = limit;
    }
  });

  it('figure files: abandoning a pool gives up the figures not yet drawn (a command that failed after prefetching)', async () => {
    const pool = new FigurePool(false, false);
    pool.prefetch(figs[0]);
    pool.prefetch(figs[1]);
    pool.abandon();
    await expect(pool.files([figs[0]], '/out')).rejects.toThrow(/^figure .*: abandoned$/);
    // Other pools are not affected.
    expect((await new FigurePool(false, false).files([figs[0]], '/out')).map((f) => f.path)).toHaveLength(3);
  });

  it('figure files: a figure that fails to draw rejects with its id, whichever thread drew it', async () => {
    const pool = new FigurePool();
    const bad = { ...figs[0], id: 'broken', spec: { mark: 'bar', data: { values: [] }, encoding: { x: { field: 'a', type: 'nosuchtype' } } } } as unknown as typeof figs[0];
    pool.prefetch(bad);
    await expect(pool.files([bad], '/out')).rejects.toThrow(/^figure broken: rendering failed: /);
    await expect(new FigurePool(false).files([bad], '/out')).rejects.toThrow(/^figure broken: rendering failed: /);
  });

  it('PNG text is drawn with the shipped font although system fonts are off', () => {
    const page = (text: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><rect width="200" height="40" fill="white"/><text x="5" y="28" font-family="DejaVu Sans, Verdana, sans-serif" font-size="20">${text}</text></svg>`;
    const dark = (svg: string) => {
      const img = new Resvg(svg, { font: { loadSystemFonts: false, fontFiles: [fontFiles().regular], defaultFontFamily: 'DejaVu Sans' } }).render();
      const px = img.pixels;
      let n = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i] < 128) n++;
      return n;
    };
    expect(dark(page(''))).toBe(0);
    expect(dark(page('Cooperation'))).toBeGreaterThan(100);
    expect(Buffer.from(svgToPng(page('Cooperation'))).equals(Buffer.from(svgToPng(page(''))))).toBe(false);
  });

  it('figureFiles: spec, SVG and PNG of each figure under figures/, in figure order', async () => {
    const out = mkdtempSync(join(tmpdir(), 'samegame-fig-'));
    const files = await figureFiles(figs.slice(0, 2), out);
    expect(files.map((f) => f.path.slice(out.length + 1))).toEqual([
      'figures/table2-dumbbell.vl.json', 'figures/table2-dumbbell.svg', 'figures/table2-dumbbell.png',
      'figures/table3-forest.vl.json', 'figures/table3-forest.svg', 'figures/table3-forest.png',
    ]);
    // the spec as written: numbers by the files' rule (12 significant digits, core/format.ts)
    expect(JSON.parse(files[0].content as string)).toEqual(JSON.parse(jsonText(figs[0].spec)));
    await expect(figureFiles([figs[0], figs[0]], out)).rejects.toThrow(/share the id/);
  });
});
