/**
 * Benchmark: `run --dry-run` of a repeated design (akata-pd-sim: 100 matches, 1.4 LLM seats per
 * match) as a cold process, beside the baseline that renders every decision's prompt with its
 * whole history (bench/dry-run-rendered.mjs, the method the dry run used before it counted
 * prompt lengths): peak RSS, ratio = counted / rendered, at play.rounds 200 (where rendering still
 * fits); and the counted dry run alone at the documented limit, 1,000 rounds, where rendering
 * aborted out of memory (4.2 GB after 90 s on the machine of bench/results.md).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { timeCli } from './process.js';
import type { BenchRow } from './util.js';

function rendered(design: string): { seconds: number; peakRssMb: number; inputTokens: number } {
  const rss = join(mkdtempSync(join(tmpdir(), 'samegame-bench-')), 'rss');
  const t = performance.now();
  const r = spawnSync(process.execPath, ['bench/dry-run-rendered.mjs', design], { encoding: 'utf8', env: { ...process.env, BENCH_RSS_FILE: rss } });
  if (r.status !== 0) throw new Error(`the rendered baseline failed: ${r.stderr}`);
  return { seconds: (performance.now() - t) / 1000, peakRssMb: Number(readFileSync(rss, 'utf8')), inputTokens: Number(r.stdout.trim().split(' ')[1]) };
}

export function benchDryRun(): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-dry-run-'));
  const text = readFileSync('data/designs/akata-pd-sim.yaml', 'utf8');
  const at = (rounds: number) => { const f = join(dir, `akata-pd-sim-${rounds}.yaml`); writeFileSync(f, text.replace(/rounds: 10$/m, `rounds: ${rounds}`)); return f; };
  const counted = (rounds: number) => {
    const r = timeCli(['run', at(rounds), '--dry-run', '--store', join(dir, `s${rounds}.sqlite`)]);
    if (r.code !== 0) throw new Error(`run --dry-run failed: ${r.stderr}`);
    return r;
  };
  const base = rendered(at(200));
  const c200 = counted(200);
  const c1000 = counted(1000);
  return [
    { name: 'repeated run --dry-run, akata-pd-sim at play.rounds 200 (28,000 decisions): peak RSS, prompt lengths counted', value: c200.peakRssMb, unit: 'MB',
      baseline: base.peakRssMb, baselineName: 'every prompt rendered', target: '< 0.5', peakRssMb: c200.peakRssMb,
      note: `counted ${c200.seconds.toFixed(1)} s, rendered ${base.seconds.toFixed(1)} s (${base.inputTokens} input tokens either way: test/live/repeated/dry-run.test.ts checks equality)` },
    { name: 'repeated run --dry-run, akata-pd-sim at play.rounds 1000 (140,000 decisions): peak RSS, prompt lengths counted', value: c1000.peakRssMb, unit: 'MB',
      peakRssMb: c1000.peakRssMb, note: `${c1000.seconds.toFixed(1)} s; rendering every prompt aborts out of memory here` },
  ];
}
