/**
 * Benchmark: the cost of drawing the five reproduce figures on one fresh thread (a child process,
 * bench/figure-stages.mjs): loading Vega and resvg, Vega's SVG of each figure on a cold and then a
 * warm JIT, and resvg's PNG of each. What bounds `reproduce` from below: the drawing alone, split
 * over two threads, is a multiple of the process-start floor.
 */
import { spawnSync } from 'node:child_process';
import { timeNodeBaseline } from './process.js';
import { type BenchRow } from './util.js';

export function benchFigures(): BenchRow[] {
  const floor = timeNodeBaseline();
  const r = spawnSync(process.execPath, ['bench/figure-stages.mjs', process.cwd()], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`figure stages failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout) as { load: number; firstSvg: number[]; secondSvg: number[]; png: number[] };
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / 1000;
  const drawing = (sum(m.secondSvg) + sum(m.png)) / 2 + m.load / 1000;
  return [
    { name: 'figures: loading Vega and resvg on a fresh thread', value: m.load / 1000, unit: 's', baseline: floor, baselineName: 'node -e 0 (process start floor)' },
    { name: 'figures: Vega SVG of the five reproduce figures, warm JIT (second pass) vs cold (first pass)', value: sum(m.secondSvg), unit: 's', baseline: sum(m.firstSvg), baselineName: 'first pass' },
    { name: 'figures: resvg PNG of the five reproduce figures (2× scale)', value: sum(m.png), unit: 's', baseline: floor, baselineName: 'node -e 0 (process start floor)' },
    {
      name: 'figures: the least drawing time of reproduce on two threads (load + half of warm SVG and PNG)', value: drawing, unit: 's', baseline: floor,
      baselineName: 'node -e 0 (process start floor)', note: 'before start-up (~0.2 s) and computation (~0.25 s)',
    },
  ];
}
