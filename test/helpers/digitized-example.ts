/**
 * data/examples/digitized/: the shipped Same Game, Different Story counts drawn by samegame as a
 * bar chart (count/300 per cell, 2 PNG px per count), a WebPlotDigitizer project of it with
 * every click jittered by less than 0.5 px (seeded), its layout, and the project .tar. Run
 * `npx tsx test/helpers/digitized-example.ts` to write it again (the same bytes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readRates } from '../../src/sources/rates-csv.js';
import { packageRoot, SHIPPED_RATES } from '../../src/core/paths.js';
import { drawRateBars, projectTar, uniforms, wpdProject } from './digitized-figure.js';

export const EXAMPLE_DIR = join(packageRoot, 'data', 'examples', 'digitized');
/** SVG px of the value axis: the PNG has 600 px for 300 counts. */
export const EXAMPLE_HEIGHT = 300;
export const EXAMPLE_SEED = 26;

const csvField = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** The example's files, by name. */
export async function digitizedExample(): Promise<Record<string, Buffer | string>> {
  const rates = readRates(join(packageRoot, SHIPPED_RATES));
  type Key = { model: string; game: string; framing: string };
  const cells = rates.table.cells.map((c) => ({ ...(c.key as Key), n: (c.obs as { n: number }).n, x: (c.obs as { x: number }).x }));
  const chart = await drawRateBars(cells.map((c) => ({ label: `${c.model} / ${c.game} / ${c.framing}`, framing: c.framing, rate: c.x / c.n })),
    EXAMPLE_HEIGHT, ['business', 'friend-sharing']);
  const u = uniforms(EXAMPLE_SEED);
  const wpd = wpdProject(chart, () => 0.98 * (u() - 0.5));
  const layout = ['dataset,point,model,game,framing,n',
    ...cells.map((c, i) => ['Rates', `Bar${i}`, c.model, c.game, c.framing, String(c.n)].map(csvField).join(','))].join('\n') + '\n';
  const truth = ['model,game,framing,n,cooperate', ...cells.map((c) => [c.model, c.game, c.framing, String(c.n), String(c.x)].map(csvField).join(','))].join('\n') + '\n';
  const wpdText = JSON.stringify(wpd, null, 1) + '\n';
  return {
    'figure.png': chart.png,
    'wpd.json': wpdText,
    'project.tar': projectTar('rates-figure', wpdText, chart.png),
    'layout.csv': layout,
    'truth.csv': truth,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  mkdirSync(EXAMPLE_DIR, { recursive: true });
  for (const [name, data] of Object.entries(await digitizedExample())) writeFileSync(join(EXAMPLE_DIR, name), data);
}
