/**
 * The repeated-play .tex tables print rates, differences and interval ends at the report's three
 * decimals and counts whole; the CSVs keep 12 significant digits. Each number of cells.tex and
 * endgame.tex is checked against its CSV, rounded here by hand (half away from zero, as toFixed
 * does for these values).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Papa from 'papaparse';
import { analyze } from '../../../src/index.js';
import { ROOT } from '../../helpers/cli.js';
import { intervalParts, parseLatexTable } from '../../helpers/latex.js';

const round3 = (s: string) => (s === '' ? '' : (Math.round(Number(s) * 1000) / 1000).toFixed(3).replace(/^-0\.000$/, '0.000'));
const unTex = (s: string) => s.replaceAll('$-$', '-');

describe('repeated-play LaTeX numbers', async () => {
  const res = await analyze({ trials: [join(ROOT, 'data/akata-2023/experiment_pd.csv')], format: 'akata', out: '/tmp/never-written', dryRun: true, figures: false, reps: 200 });
  const file = (name: string) => res.files.find((f) => f.path.endsWith(`reports/${name}`))!.content as string;
  const csv = (name: string) => Papa.parse<Record<string, string>>(file(name), { header: true, skipEmptyLines: true }).data;

  it('cells.tex: cooperation and its interval at three decimals, matches and decisions whole', () => {
    const tex = parseLatexTable(file('cells.tex')), rows = csv('cells.csv');
    expect(tex.rows.length).toBe(rows.length);
    const at = (h: string) => tex.header.indexOf(h);
    rows.forEach((r, i) => {
      const t = tex.rows[i].map(unTex);
      expect(t[at('Matches')]).toBe(r.matches);
      expect(t[at('Decisions')]).toBe(r.decisions);
      expect(intervalParts(t[at('Cooperation')])).toEqual([round3(r.cooperation), round3(r.lo), round3(r.hi)]);
    });
    expect(tex.rows.flat().some((c) => /\d\.\d{4,}/.test(c))).toBe(false);
  });

  it('endgame.tex: the drop and its interval at three decimals', () => {
    const tex = parseLatexTable(file('endgame.tex')), rows = csv('endgame.csv');
    const at = (h: string) => tex.header.indexOf(h);
    rows.forEach((r, i) => expect(intervalParts(unTex(tex.rows[i][at('Drop')]))).toEqual([round3(r.drop), round3(r.lo), round3(r.hi)]));
  });
});
