import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export interface ProcessRun { seconds: number; peakRssMb: number; code: number | null; stderr: string }

/** `samegame ARGS` as a fresh node process (cold start included), with its peak RSS. */
export function timeCli(args: string[], cwd = process.cwd()): ProcessRun {
  const rss = join(mkdtempSync(join(tmpdir(), 'samegame-bench-')), 'rss');
  const t = performance.now();
  const r = spawnSync(process.execPath, ['bench/cli-rss.mjs', ...args], {
    cwd, encoding: 'utf8', env: { ...process.env, BENCH_RSS_FILE: rss }, maxBuffer: 64 << 20,
  });
  const seconds = (performance.now() - t) / 1000;
  let peakRssMb = NaN;
  try { peakRssMb = Number(readFileSync(rss, 'utf8')); } catch { /* the process died before exit */ }
  return { seconds, peakRssMb, code: r.status, stderr: r.stderr };
}

/** A plain cold node process that does nothing: the floor under every CLI time. */
export function timeNodeBaseline(): number {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0']);
  return (performance.now() - t) / 1000;
}

/** As timeCli, without blocking this process's event loop (for servers that live in it). */
export function timeCliAsync(args: string[], cwd = process.cwd()): Promise<ProcessRun> {
  const rss = join(mkdtempSync(join(tmpdir(), 'samegame-bench-')), 'rss');
  const t = performance.now();
  const child = spawn(process.execPath, ['bench/cli-rss.mjs', ...args], { cwd, env: { ...process.env, BENCH_RSS_FILE: rss }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString('utf8'); });
  return new Promise((resolve) => child.on('close', (code) => {
    let peakRssMb = NaN;
    try { peakRssMb = Number(readFileSync(rss, 'utf8')); } catch { /* died before exit */ }
    resolve({ seconds: (performance.now() - t) / 1000, peakRssMb, code, stderr });
  }));
}
