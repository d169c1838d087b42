/**
 * `--figure-style paper`: figures for a paper. The title is not drawn (it goes, with the caption,
 * to figures/captions.md, for the paper's \caption), the SVG is sized in points (`--figure-width`,
 * the PNG drawn at 300 dpi for that width), the text is DejaVu Serif or Sans (`--figure-font`),
 * and the series colours become a colour-blind-safe palette whose lightness steps apart, so the
 * series stay apart printed in greyscale too. Without it every figure is as before.
 */
import { join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import type { OutputFile } from '../core/atomic.js';
import { COLORS, FONT_FAMILY, type Figure } from './figure.js';

export interface FigureStyle {
  readonly style: 'default' | 'paper';
  /** Width of a paper figure in points (1/72 in); default PAPER_WIDTH_PT. */
  readonly widthPt?: number;
  readonly font?: 'serif' | 'sans';
}

/** The text width of LaTeX's article class at 10 pt, in points. */
export const PAPER_WIDTH_PT = 345;
export const PAPER_DPI = 300;
export const SERIF_FAMILY = 'DejaVu Serif';

/**
 * Viridis at eight lightness steps (colour-blind safe, lightness rising monotonically), taken in
 * an order that puts the first series far apart in lightness: dark, light, then between.
 */
export const PAPER_PALETTE = ['#440154', '#b5de2b', '#31688e', '#6ece58', '#472d7b', '#1f9e89', '#3b528b', '#26828e'];

/**
 * The house's series colours (the order a spec's colours are met in decides their paper colour);
 * the verdict colours (verdict-colors.ts) are colour-blind safe already and keep their meaning, so
 * they are not recoloured.
 */
const SERIES = new Set<string>([...Object.values(COLORS),
  '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac', '#1b3a6b', '#8c4a00', '#8e0c2a', '#00665e', '#2d6a1f', '#7a6200', '#5e3c99',
    '#c51b7d', '#17becf']);

function recolour(v: unknown, map: Map<string, string>): unknown {
  if (typeof v === 'string') {
    const key = v.toLowerCase();
    if (!SERIES.has(key)) return v;
    if (!map.has(key)) map.set(key, PAPER_PALETTE[map.size % PAPER_PALETTE.length]);
    return map.get(key);
  }
  if (Array.isArray(v)) return v.map((x) => recolour(x, map));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, recolour(x, map)]));
  return v;
}

/** A figure in the given style (the same figure for the default style). */
export function styled(f: Figure, s?: FigureStyle): Figure {
  if (!s || s.style !== 'paper') return f;
  const { title: _title, ...rest } = f.spec as TopLevelSpec & { title?: unknown; config?: Record<string, unknown> };
  const spec = recolour(rest, new Map()) as TopLevelSpec & { config?: Record<string, unknown> };
  const serif = (s.font ?? 'serif') === 'serif';
  const font = serif ? `${SERIF_FAMILY}, Georgia, serif` : `${FONT_FAMILY}, Verdana, sans-serif`;
  return {
    ...f,
    spec: { ...spec, config: { ...spec.config, font }, usermeta: { paper: { widthPt: s.widthPt ?? PAPER_WIDTH_PT, serif } } } as TopLevelSpec,
  };
}

/** The paper size a spec asks for (`usermeta.paper`), or undefined for a figure drawn as before. */
export function paperSize(spec: TopLevelSpec): { widthPt: number; serif: boolean } | undefined {
  const p = (spec as { usermeta?: { paper?: { widthPt?: unknown; serif?: unknown } } }).usermeta?.paper;
  return p && typeof p.widthPt === 'number' && p.widthPt > 0 ? { widthPt: p.widthPt, serif: p.serif === true } : undefined;
}

/** The SVG with its width and height in points (the viewBox keeps its pixels), and the PNG scale for PAPER_DPI at that width. */
export function sizedInPoints(svg: string, widthPt: number): { svg: string; pngScale: number } {
  const m = /^<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"/.exec(svg);
  if (!m) return { svg, pngScale: 2 };
  const w = Number(m[1]), h = Number(m[2]);
  const heightPt = Math.round((h * widthPt / w) * 100) / 100;
  const head = svg.slice(0, svg.indexOf('>') + 1);
  const sizedHead = head.replace(/\swidth="[\d.]+"/, ` width="${widthPt}pt"`).replace(/\sheight="[\d.]+"/, ` height="${heightPt}pt"`)
    .replace(/^<svg/, head.includes('viewBox') ? '<svg' : `<svg viewBox="0 0 ${w} ${h}"`);
  return { svg: sizedHead + svg.slice(head.length), pngScale: (widthPt / 72) * PAPER_DPI / w };
}

/**
 * figures/captions.md: each figure's title and caption, for the paper's \caption (the figures
 * carry no title). The subtitle, a phrase that may begin with an id or a lower-case word
 * ("conservative, a = 0.7; …"), follows the title after a dash, so no sentence starts with it.
 */
export function captionsFile(figures: readonly Figure[], outDir: string): OutputFile {
  const lines = ['# Figure captions', '', 'The figures were drawn with --figure-style paper: no title is drawn in them; each one\'s title and caption follow.',
    ''];
  for (const f of figures) {
    const sub = (f.spec as { title?: { subtitle?: unknown } }).title?.subtitle;
    lines.push(`## ${f.id}`, '', `**${f.title}${typeof sub === 'string' && sub ? ` — ${sub}` : ''}.** ${f.caption}`, '');
  }
  return { path: join(outDir, 'figures', 'captions.md'), content: lines.join('\n') };
}
