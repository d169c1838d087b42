/**
 * Benchmark: the JSONL line reader on one long line. The per-trial reader (readTrials, with its
 * key and depth scan) beside the line reader it replaced — which joined the unfinished line to
 * each new 64 KiB chunk and split the whole of it again, so its time grew with the square of the
 * line's length — followed by JSON.parse, the same work for that line. Rounds alternate the two
 * sides; each side is reported by its median round. A second row gives the growth from a 4 MiB to
 * a 16 MiB line (≈ 4 when linear).
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { readTrials } from '../src/sources/trials.js';
import { median, type BenchRow } from './util.js';

/** The line reader readTrials used before (concatenate, split, keep the rest), then JSON.parse of each line. */
function previousReader(path: string): number {
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(1 << 16);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let objects = 0;
  try {
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got === 0) break;
      const parts = (rest + decoder.write(buf.subarray(0, got))).split('\n');
      rest = parts.pop()!;
      for (const t of parts) if (t.trim() !== '') { JSON.parse(t); objects++; }
    }
  } finally { closeSync(fd); }
  return objects;
}

function fileWithLine(dir: string, chars: number): string {
  const path = join(dir, `line-${chars}.jsonl`);
  writeFileSync(path, `{"model":"A","game":"G","framing":"business","action":"C","x":"${'y'.repeat(chars)}"}\n`
    + '{"model":"A","game":"G","framing":"friend-sharing","action":"C"}\n');
  return path;
}

const seconds = (f: () => unknown) => { const t = performance.now(); f(); return (performance.now() - t) / 1000; };

export function benchReader(rounds = 5): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'samegame-bench-reader-'));
  try {
    const big = fileWithLine(dir, 16 * 2 ** 20 - 200);
    const small = fileWithLine(dir, 4 * 2 ** 20 - 200);
    const now: number[] = [], before: number[] = [], four: number[] = [];
    for (let r = 0; r < rounds; r++) {
      now.push(seconds(() => readTrials(big)));
      before.push(seconds(() => previousReader(big)));
      four.push(seconds(() => readTrials(small)));
    }
    const t16 = median(now), t4 = median(four);
    return [
      { name: `JSONL reader, one 16 MiB line (median of ${rounds}, alternating)`, value: t16, unit: 's', baseline: median(before),
        baselineName: 'the line reader it replaced, + JSON.parse', target: '≤ 1.0 (ratio)' },
      { name: 'JSONL reader: time of a 16 MiB line / a 4 MiB line (median rounds)', value: t16 / t4, unit: '', target: '≈ 4 (linear)' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
