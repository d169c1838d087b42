import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Advance widths of the figure font, read from the TrueType file itself (tables head, hhea, hmtx
 * and cmap format 4; Apple TrueType Reference Manual / OpenType spec). Vega's own estimate for
 * text without a canvas is 0.8·em per character, which makes axis gutters and legends too wide
 * for narrow letters and too narrow for wide ones; measuring with the font the PNG renderer draws
 * with keeps labels, gutters and legends in the places Vega computed. Kerning is ignored (a few
 * tenths of a pixel per label).
 */
export interface FontMetrics {
  /** Width in px of `text` at `size` px. */
  width(text: string, size: number): number;
}

const require = createRequire(import.meta.url);

/** The font files shipped by the dejavu-fonts-ttf package (regular and bold): DejaVu Sans, or DejaVu Serif (`--figure-font serif`). */
export function fontFiles(family: 'sans' | 'serif' = 'sans'): { regular: string; bold: string } {
  const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  const stem = family === 'serif' ? 'DejaVuSerif' : 'DejaVuSans';
  return { regular: join(dir, `${stem}.ttf`), bold: join(dir, `${stem}-Bold.ttf`) };
}

interface Tables { [tag: string]: { offset: number; length: number } }

function tableDirectory(buf: Buffer): Tables {
  const numTables = buf.readUInt16BE(4);
  const tables: Tables = {};
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + 16 * i;
    tables[buf.toString('latin1', rec, rec + 4)] = { offset: buf.readUInt32BE(rec + 8), length: buf.readUInt32BE(rec + 12) };
  }
  for (const tag of ['head', 'hhea', 'hmtx', 'cmap']) {
    if (!tables[tag]) throw new Error(`font lacks the ${tag} table`);
  }
  return tables;
}

/** Glyph index lookup from the Windows Unicode BMP (3,1) cmap subtable, format 4. */
function cmapFormat4(buf: Buffer, cmap: number): (code: number) => number {
  const n = buf.readUInt16BE(cmap + 2);
  let sub = -1;
  for (let i = 0; i < n; i++) {
    const rec = cmap + 4 + 8 * i;
    const platform = buf.readUInt16BE(rec);
    const encoding = buf.readUInt16BE(rec + 2);
    const off = cmap + buf.readUInt32BE(rec + 4);
    if (((platform === 3 && encoding === 1) || platform === 0) && buf.readUInt16BE(off) === 4) { sub = off; break; }
  }
  if (sub < 0) throw new Error('font lacks a format 4 Unicode cmap');
  const segX2 = buf.readUInt16BE(sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const rangeOffsets = deltas + segX2;
  return (code) => {
    if (code > 0xffff) return 0;
    for (let s = 0; s < segX2; s += 2) {
      if (code > buf.readUInt16BE(ends + s)) continue;
      const start = buf.readUInt16BE(starts + s);
      if (code < start) return 0;
      const delta = buf.readInt16BE(deltas + s);
      const ro = buf.readUInt16BE(rangeOffsets + s);
      if (ro === 0) return (code + delta) & 0xffff;
      const g = buf.readUInt16BE(rangeOffsets + s + ro + 2 * (code - start));
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
  };
}

/** Metrics of one TrueType font file. */
export function readFontMetrics(file: string): FontMetrics {
  const buf = readFileSync(file);
  const t = tableDirectory(buf);
  const unitsPerEm = buf.readUInt16BE(t.head.offset + 18);
  const numberOfHMetrics = buf.readUInt16BE(t.hhea.offset + 34);
  const glyphOf = cmapFormat4(buf, t.cmap.offset);
  const advance = (glyph: number) =>
    buf.readUInt16BE(t.hmtx.offset + 4 * Math.min(glyph, numberOfHMetrics - 1));
  const cache = new Map<number, number>();
  const units = (code: number) => {
    let w = cache.get(code);
    if (w === undefined) { w = advance(glyphOf(code)); cache.set(code, w); }
    return w;
  };
  return {
    width(text, size) {
      let sum = 0;
      for (const ch of text) sum += units(ch.codePointAt(0)!);
      return (sum * size) / unitsPerEm;
    },
  };
}

const cached: { sans?: { regular: FontMetrics; bold: FontMetrics }; serif?: { regular: FontMetrics; bold: FontMetrics } } = {};

/** DejaVu Sans (or Serif) regular and bold metrics, read once per process. */
export function dejaVuMetrics(family: 'sans' | 'serif' = 'sans'): { regular: FontMetrics; bold: FontMetrics } {
  let m = cached[family];
  if (!m) {
    const f = fontFiles(family);
    m = { regular: readFontMetrics(f.regular), bold: readFontMetrics(f.bold) };
    cached[family] = m;
  }
  return m;
}
