/**
 * Benchmark: the cost of `--expect` — comparing 10,000 published numbers (Table 2, Table 3 and
 * family robustness; 2,000+ of them interval endpoints, each read against its replicates) with
 * the reproduce they belong to: `reproduce` (the library call: bootstrap, tables, checks and the
 * comparison, no figures) on 60 models × 20 games × 3 framings at n = 300 and 10,000 replicates,
 * beside `compareWithPublished` alone on its result, in the same run. Target: ≤ 5 %.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { reproduceTables, type ReproduceResult } from '../src/commands/reproduce.js';
import { compareWithPublished } from '../src/analyses/reproduction/index.js';
import { readPublished } from '../src/sources/published.js';
import { twoFraming } from '../src/analyses/two-framing/index.js';
import { streamFor } from '../src/stats/rng.js';
import { median, type BenchRow } from './util.js';

const MODELS = 60, GAMES = 20, N = 300, REPS = 10_000, NUMBERS = 10_000;
const FRAMINGS = ['business', 'friend-sharing', 'abstract'];

function ratesCsv(): string {
  const rows = ['model,game,framing,n,cooperate'];
  for (let m = 0; m < MODELS; m++) for (let g = 0; g < GAMES; g++) for (const f of FRAMINGS) {
    const rng = streamFor(7, `${m}|${g}|${f}`);
    rows.push(`model-${m},game-${g},${f},${N},${Math.floor(rng.next() * (N + 1))}`);
  }
  return `${rows.join('\n')}\n`;
}

/** Every number of the tables at 3 decimals (counts whole), the first NUMBERS of them: a correct publication. */
function publishedCsv(res: ReproduceResult): string {
  const t = twoFraming.tables;
  const three = (x: number) => x.toFixed(3);
  const rows: string[] = [];
  for (const r of t.table2(res.analysis)) {
    rows.push(`table2,${r.model},${r.game},base_rate,${three(r.base_rate)}`, `table2,${r.model},${r.game},base_count,${r.base_count}`,
      `table2,${r.model},${r.game},alt_rate,${three(r.alt_rate)}`, `table2,${r.model},${r.game},alt_count,${r.alt_count}`,
      `table2,${r.model},${r.game},difference,${three(r.difference)}`);
  }
  for (const r of t.table3(res.analysis)) for (const s of ['R', 'R_lo', 'R_hi', 'shift', 'shift_lo', 'shift_hi'] as const) rows.push(`table3,${r.model},,${s},${three(r[s])}`);
  for (const r of t.family(res.analysis)) for (const s of ['R', 'R_lo', 'R_hi'] as const) rows.push(`family,${r.model},${r.game},${s},${three(r[s])}`);
  // Endpoints first among the family and Table 3 rows, so the 10,000 include all of them.
  const ordered = [...rows.filter((r) => /_(lo|hi),/.test(r)), ...rows.filter((r) => !/_(lo|hi),/.test(r))].slice(0, NUMBERS);
  return `table,model,game,statistic,published,reps\n${ordered.map((r) => `${r},${REPS}`).join('\n')}\n`;
}

export function benchReproduction(runs = 3): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-bench-reproduction-'));
  const data = join(dir, 'rates.csv');
  writeFileSync(data, ratesCsv());
  const first = reproduceTables({ data, base: 'business', alt: 'friend-sharing', reps: REPS });
  const file = join(dir, 'published.csv');
  writeFileSync(file, publishedCsv(first));
  const published = readPublished(file);
  // Wall time, and the CPU time of this process (less sensitive to other load on a shared machine).
  const whole: number[] = [], compare: number[] = [], wholeCpu: number[] = [], compareCpu: number[] = [];
  const cpu = (since: NodeJS.CpuUsage) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1e6; };
  let res = first;
  for (let i = 0; i < runs; i++) {
    let t = performance.now(), c = process.cpuUsage();
    res = reproduceTables({ data, base: 'business', alt: 'friend-sharing', reps: REPS, expect: file });
    whole.push((performance.now() - t) / 1000); wholeCpu.push(cpu(c));
    t = performance.now(); c = process.cpuUsage();
    compareWithPublished(res, published);
    compare.push((performance.now() - t) / 1000); compareCpu.push(cpu(c));
  }
  const rep = res.reproduction!;
  if (rep.rows.length !== NUMBERS || rep.counts.missing > 0) throw new Error(`bench: ${rep.rows.length} numbers compared, ${rep.counts.missing} missing`);
  rmSync(dir, { recursive: true, force: true });
  const what = `compare ${NUMBERS.toLocaleString('en-US')} published numbers (${rep.rule.k.toLocaleString('en-US')} endpoints; ${MODELS * GAMES * FRAMINGS.length} cells, ${REPS.toLocaleString('en-US')} reps), median of ${runs}`;
  const note = `verdicts: ${rep.counts.exact} exact, ${rep.counts['within-mc']} within-mc, ${rep.counts.differs} differ`;
  return [
    { name: `${what}, wall time`, value: median(compare), unit: 's', baseline: median(whole), baselineName: 'the reproduce it belongs to (library call, comparison included)', target: '≤ 0.05', note },
    { name: `${what}, CPU time`, value: median(compareCpu), unit: 's', baseline: median(wholeCpu), baselineName: 'the same reproduce, CPU time', target: '≤ 0.05', note },
  ];
}
