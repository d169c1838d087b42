import { jsonText } from '../core/format.js';
import { createRequire } from 'node:module';
import type { TopLevelSpec } from 'vega-lite';
import { FONT_FAMILY, type Figure } from './figure.js';
import { dejaVuMetrics, fontFiles } from './font-metrics.js';
import { paperSize, SERIF_FAMILY, sizedInPoints } from './paper-style.js';
import { loadVega, type Vega } from './vega-runtime.js';

type ResvgRenderOptions = import('@resvg/resvg-js').ResvgRenderOptions;

/**
 * Vega-Lite → Vega → SVG in Node, without node-canvas: a headless View (renderer 'none') whose
 * text widths come from the DejaVu Sans advance widths, then SVG → PNG with resvg using only the
 * DejaVu files shipped by the dejavu-fonts-ttf package (system fonts off), so a PNG has the same
 * pixels, and always its text, on every machine.
 */

/** PNG pixels per SVG px: 2 gives sharp text at the sizes the figures use. */
export const PNG_SCALE = 2;

interface TextItem { fontSize?: number | string; fontWeight?: number | string; font?: string }

function isBold(w: TextItem['fontWeight']): boolean {
  if (w === undefined || w === null) return false;
  if (w === 'bold' || w === 'bolder') return true;
  const n = Number(w);
  return Number.isFinite(n) && n >= 600;
}

let metricsInstalled = false;
/** Replace Vega's 0.8·em width guess by the figure font's advance widths (as vl-convert does). */
function installTextMetrics(vega: Vega): void {
  if (metricsInstalled) return;
  const sans = dejaVuMetrics();
  const tm = (vega as unknown as { textMetrics: { width: (item: TextItem, text: unknown) => number } }).textMetrics;
  tm.width = (item, text) => {
    const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
    const s = text == null ? '' : String(text).trim();
    const fonts = typeof item.font === 'string' && item.font.startsWith(SERIF_FAMILY) ? dejaVuMetrics('serif') : sans;
    return size <= 0 || s === '' ? 0 : (isBold(item.fontWeight) ? fonts.bold : fonts.regular).width(s, size);
  };
  metricsInstalled = true;
}

/** Messages from vega-lite and vega during one render; each becomes one logger warning. */
function collectingLogger(sink: string[]) {
  let level = 2;
  const add = (kind: string) => (...args: unknown[]) => { sink.push(`${kind}: ${args.map(String).join(' ')}`); };
  const self = {
    level(l?: number) { if (l === undefined) return level; level = l; return self; },
    error: add('error'), warn: add('warning'), info() { return self; }, debug() { return self; },
  };
  return self;
}

/** Load Vega, its text metrics and resvg now rather than on the first figure (a worker does this while it waits). */
export function prepareRenderer(): void {
  installTextMetrics(loadVega().vega);
  resvg();
}

/**
 * Numbers smaller in size than this are drawn as 0. Vega's scales and ticks divide by a data
 * extent: one near the smallest double (an attenuation of 1e-320 makes every conservative shift
 * subnormal) overflows to Infinity and the view crashes. No figure resolves such differences:
 * every axis and label shows a few decimals.
 */
export const DRAWN_AS_ZERO = 1e-300;

function flushTiny(v: unknown): unknown {
  if (typeof v === 'number') return v !== 0 && Math.abs(v) < DRAWN_AS_ZERO ? 0 : v;
  if (Array.isArray(v)) return v.map(flushTiny);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, flushTiny(x)]));
  return v;
}

/** The SVG markup of a Vega-Lite spec; vega-lite and vega warnings go to `warnings`. */
export async function renderSvg(spec: TopLevelSpec, warnings: string[] = []): Promise<string> {
  const { vega, vegaLite } = loadVega();
  installTextMetrics(vega);
  const logger = collectingLogger(warnings);
  const vg = vegaLite.compile(flushTiny(spec) as TopLevelSpec, { logger: logger as never }).spec;
  // Clip-path and gradient ids count up per process; restart them so a figure's SVG does not
  // depend on which figures were drawn before it.
  vega.resetSVGDefIds();
  const view = new vega.View(vega.parse(vg), { renderer: 'none', logger: logger as never, logLevel: vega.Warn });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const require = createRequire(import.meta.url);
// Loaded on first use: commands that draw nothing do not pay for the native module.
const resvg = () => require('@resvg/resvg-js') as typeof import('@resvg/resvg-js');

/** resvg's options for the figures: the shipped DejaVu files only, no system fonts. */
export interface PngOptions {
  readonly fitTo: { readonly mode: 'zoom'; readonly value: number };
  readonly font: { readonly loadSystemFonts: false; readonly fontFiles: readonly string[]; readonly defaultFontFamily: string };
}

export function pngOptions(scale = PNG_SCALE, serif = false): PngOptions {
  const f = fontFiles();
  const s = serif ? fontFiles('serif') : undefined;
  return {
    fitTo: { mode: 'zoom', value: scale },
    font: { loadSystemFonts: false, fontFiles: [f.regular, f.bold, ...(s ? [s.regular, s.bold] : [])], defaultFontFamily: FONT_FAMILY },
  };
}

/** PNG of an SVG drawn with the shipped DejaVu fonts only. */
export function svgToPng(svg: string, scale = PNG_SCALE, serif = false): Uint8Array {
  const { Resvg } = resvg();
  return new Uint8Array(new Resvg(svg, pngOptions(scale, serif) as ResvgRenderOptions).render().asPng());
}

/** A figure drawn: its SVG, its PNG and the vega-lite and vega warnings of the drawing. */
export interface Drawn { readonly svg: string; readonly png: Uint8Array; readonly warnings: readonly string[] }

/** Draw a spec: SVG, then PNG of that SVG (the same on the calling thread and on the figure worker). */
export async function drawFigure(spec: TopLevelSpec): Promise<Drawn> {
  const warnings: string[] = [];
  const svg = await renderSvg(spec, warnings);
  const paper = paperSize(spec);
  if (!paper) return { svg, png: svgToPng(svg), warnings };
  // A paper figure (--figure-style paper): its width in points, the PNG at PAPER_DPI for that width.
  const sized = sizedInPoints(svg, paper.widthPt);
  return { svg: sized.svg, png: svgToPng(svg, sized.pngScale, paper.serif), warnings };
}

/** A figure's spec file: two-space JSON with a final newline (stable key order from the builder). */
export function specJson(f: Figure): string {
  return jsonText(f.spec, 2) + '\n';
}
