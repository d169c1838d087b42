/**
 * Digitizing a figure without a person: samegame draws a bar chart of known rates
 * (src/render/charts/rate-bars.ts → SVG → PNG), the bar tops and the axis are located in the
 * PNG's pixel space from the SVG geometry the PNG was rasterised from, and a WebPlotDigitizer
 * project (format 4.2) of the PNG is written with every bar-top click jittered by less than
 * half a pixel, as a careful person clicks. Also a ustar writer for project .tar files (and
 * hostile ones). Used by the closed-loop tests and to write data/examples/digitized/.
 *
 * Why the SVG geometry and not an edge detector on the PNG: the SVG is the exact drawing the PNG
 * was rasterised from (resvg, zoom PNG_SCALE), so its bar rectangles give the true top edges in
 * PNG pixels to floating point; an edge detector would add its own antialiasing error to the
 * jitter being tested. The PNG pixels are checked against that geometry (pngPixel).
 */
import { inflateSync } from 'node:zlib';
import { rateBarsFigure, type RateBar } from '../../src/render/charts/rate-bars.js';
import { drawFigure, PNG_SCALE } from '../../src/render/render.js';

export interface Pixel { x: number; y: number }
export interface DrawnBar { readonly label: string; readonly top: Pixel; readonly rate: number }
export interface DrawnChart {
  readonly svg: string;
  readonly png: Buffer;
  readonly bars: readonly DrawnBar[];
  /** The value axis in PNG pixels: the pixel of 0 and of 1. */
  readonly zero: Pixel;
  readonly one: Pixel;
  /** PNG pixels per count for n trials: axis length / n. */
  readonly pxPerUnit: number;
}

/** Each `<path d="Mx,yhWvHh-WZ">` bar of a Vega SVG with the sum of its enclosing groups' translates. */
function svgBars(svg: string): { x: number; y: number; w: number; h: number; fill: string }[] {
  const out: { x: number; y: number; w: number; h: number; fill: string }[] = [];
  const stack: Pixel[] = [{ x: 0, y: 0 }];
  for (const m of svg.matchAll(/<(\/?)(g|path)\b([^>]*?)(\/?)>/g)) {
    const [, close, tag, attrs, selfClose] = m;
    if (tag === 'g') {
      if (close) { stack.pop(); continue; }
      const t = /transform="translate\(([-\d.e]+),([-\d.e]+)\)"/.exec(attrs);
      const top = stack[stack.length - 1];
      if (!selfClose) stack.push(t ? { x: top.x + Number(t[1]), y: top.y + Number(t[2]) } : top);
      continue;
    }
    if (!/aria-roledescription="bar"/.test(attrs)) continue;
    const d = /d="M([-\d.e]+),([-\d.e]+)h([-\d.e]+)v([-\d.e]+)h[-\d.e]+Z"/.exec(attrs);
    if (!d) throw new Error(`unexpected bar path: ${attrs}`);
    const o = stack[stack.length - 1];
    out.push({ x: o.x + Number(d[1]), y: o.y + Number(d[2]), w: Number(d[3]), h: Number(d[4]), fill: /fill="([^"]+)"/.exec(attrs)![1] });
  }
  return out;
}

/** Draw known rates as bars on an axis `height` SVG px tall (PNG: PNG_SCALE times that). */
export async function drawRateBars(bars: readonly RateBar[], height: number, framings: readonly [string, string]): Promise<DrawnChart> {
  const fig = rateBarsFigure('digitized-example', bars, { height, title: 'Cooperation rate by cell', framings });
  const drawn = await drawFigure(fig.spec);
  const rects = svgBars(drawn.svg);
  if (rects.length !== bars.length) throw new Error(`found ${rects.length} bars, drew ${bars.length}`);
  const s = PNG_SCALE;
  const baseline = rects[0].y + rects[0].h;
  const left = Math.min(...rects.map((r) => r.x)) - 4;
  return {
    svg: drawn.svg, png: Buffer.from(drawn.png),
    bars: rects.map((r, i) => ({ label: bars[i].label, rate: bars[i].rate, top: { x: s * (r.x + r.w / 2), y: s * r.y } })),
    zero: { x: s * left, y: s * baseline }, one: { x: s * left, y: s * (baseline - height) }, pxPerUnit: s * height,
  };
}

export { uniforms } from './uniforms.js';

/** A WPD 4.2 project of a drawn chart: BarAxes calibrated on 0 and 1, one dataset of clicks at the bar tops jittered by `jitter()` px each way. */
export function wpdProject(chart: DrawnChart, jitter: () => number, dataset = 'Rates', axes = 'Bar'): object {
  const cp = (p: Pixel, v: string) => ({ px: p.x, py: p.y, dx: '0', dy: v, dz: null });
  return {
    version: [4, 2],
    axesColl: [{ name: axes, type: 'BarAxes', isLog: false, isRotated: false, calibrationPoints: [cp(chart.zero, '0'), cp(chart.one, '1')] }],
    datasetColl: [{
      name: dataset, axesName: axes, colorRGB: [200, 0, 0, 255], metadataKeys: ['label'],
      // `value` as WPD would store it is deliberately wrong here: the reader must recompute it.
      data: chart.bars.map((b, i) => ({ x: b.top.x + jitter(), y: b.top.y + jitter(), value: [-1], metadata: { label: `Bar${i}` } })),
      autoDetectionData: null,
    }],
    measurementColl: [],
  };
}

export interface TarEntry { name: string; data?: Buffer | string; type?: string; size?: number; linkname?: string }

/** A ustar archive of the entries (type "0" files by default; `size` may claim more than `data` holds). */
export function tarBytes(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data ?? Buffer.alloc(0);
    const h = Buffer.alloc(512);
    h.write(e.name.slice(0, 100), 0, 'utf8');
    h.write('0000644\0', 100); h.write('0000000\0', 108); h.write('0000000\0', 116);
    h.write(`${(e.size ?? data.length).toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write('        ', 148);
    h.write(e.type ?? '0', 156);
    if (e.linkname) h.write(e.linkname, 157);
    h.write('ustar\0', 257); h.write('00', 263);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** A project .tar as WPD saves it: a folder with info.json, wpd.json and the image. */
export function projectTar(folder: string, wpd: object | string, image: Buffer, imageName = 'figure.png'): Buffer {
  return tarBytes([
    { name: `${folder}/`, type: '5' },
    { name: `${folder}/info.json`, data: JSON.stringify({ version: [4, 2], json: 'wpd.json', images: [imageName] }) },
    { name: `${folder}/wpd.json`, data: typeof wpd === 'string' ? wpd : JSON.stringify(wpd) },
    { name: `${folder}/${imageName}`, data: image },
  ]);
}

/** The RGBA of one pixel of an 8-bit RGBA or RGB PNG (non-interlaced), decoded here. */
export function pngPixel(png: Buffer, x: number, y: number): [number, number, number, number] {
  const width = png.readUInt32BE(16), height = png.readUInt32BE(20), depth = png[24], colour = png[25];
  if (depth !== 8 || (colour !== 6 && colour !== 2)) throw new Error(`PNG depth ${depth} colour ${colour}`);
  const bpp = colour === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let i = 8; i < png.length;) {
    const len = png.readUInt32BE(i), type = png.toString('latin1', i + 4, i + 8);
    if (type === 'IDAT') idat.push(png.subarray(i + 8, i + 8 + len));
    i += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const rows: Buffer[] = [];
  for (let r = 0; r <= Math.min(y, height - 1); r++) {
    const f = raw[r * (stride + 1)], line = Buffer.from(raw.subarray(r * (stride + 1) + 1, (r + 1) * (stride + 1)));
    const prev = rows[r - 1] ?? Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : f === 4 ? (pa <= pb && pa <= pc ? a : pb <= pc ? b : c) : 0;
      line[i] = (line[i] + pred) & 255;
    }
    rows.push(line);
  }
  const px = rows[y].subarray(x * bpp, x * bpp + bpp);
  return [px[0], px[1], px[2], bpp === 4 ? px[3] : 255];
}
