/**
 * Child process of bench/figures.ts: what drawing the five reproduce figures costs in a fresh
 * thread — loading the renderer, Vega's SVG of each figure twice (the first pass warms the JIT),
 * and resvg's PNG of each. Reads the committed specs under figures/ and the compiled renderer in
 * dist/; prints one JSON object of milliseconds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2];
const ids = ['table2-dumbbell', 'table3-forest', 'cell-r2', 'bootstrap-pooled', 'reproduction'];
const t0 = performance.now();
const { prepareRenderer, renderSvg, svgToPng } = await import(join(root, 'dist', 'render', 'render.js'));
prepareRenderer();
const load = performance.now() - t0;
const specs = ids.map((id) => JSON.parse(readFileSync(join(root, 'figures', `${id}.vl.json`), 'utf8')));
const pass = async () => {
  const ms = [];
  const svgs = [];
  for (const s of specs) { const a = performance.now(); svgs.push(await renderSvg(s)); ms.push(performance.now() - a); }
  return { ms, svgs };
};
const first = await pass();
const second = await pass();
const png = first.svgs.map((svg) => { const a = performance.now(); svgToPng(svg); return performance.now() - a; });
process.stdout.write(JSON.stringify({ ids, load, firstSvg: first.ms, secondSvg: second.ms, png }));
