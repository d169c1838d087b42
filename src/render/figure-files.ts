import { captionsFile, styled, type FigureStyle } from './paper-style.js';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OutputFile } from '../core/atomic.js';
import type { Logger } from '../core/logger.js';
import { compiledModule } from '../core/paths.js';
import { assertUniqueIds, type Figure } from './figure.js';
import { drawFigure, specJson, type Drawn } from './render.js';
import { renderMsg } from './messages.js';

/**
 * Figures → figures/<id>.vl.json, .svg and .png, drawn on two threads at once: a worker thread
 * and the calling thread each take whole figures (Vega → SVG → PNG) from one queue. Drawing is
 * most of a short command's time and the machine has at least two cores. A figure's files do
 * not depend on the thread that drew it (Vega's clip and gradient ids restart per figure).
 *
 * A command may start the pool before its computation and hand it figures as soon as they are
 * known (`prefetch`), so that they are drawn while the computation runs.
 *
 * The worker is plain JavaScript evaluated from a string that imports the compiled renderer
 * (dist/render/render.js, also when running from the TypeScript sources). Without it,
 * every figure is drawn on the calling thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const renderer = import(workerData.module);
renderer.then((r) => r.prepareRenderer(), () => undefined);
let chain = Promise.resolve();
parentPort.on('message', (m) => {
  chain = chain.then(async () => {
    // The calling thread may have claimed this figure first (it draws from the other end).
    if (Atomics.compareExchange(new Int32Array(m.claim), 0, 0, 1) !== 0) { parentPort.postMessage({ id: m.id, skipped: true }); return; }
    try {
      const { svg, png, warnings } = await (await renderer).drawFigure(m.spec);
      parentPort.postMessage({ id: m.id, svg, png, warnings }, [png.buffer]);
    } catch (e) {
      parentPort.postMessage({ id: m.id, error: String((e && e.stack) || e) });
    }
  });
});
`;


/**
 * Figures this process drew, by spec (the spec's JSON; the renderer is fixed for the process), the
 * most recently used last, up to MEMO_BYTES of keys, SVGs and PNGs: a process that draws the same
 * figure again — a library caller re-running an analysis, a test run — gets the same bytes and
 * warnings without drawing. A command draws each figure once, so it never hits.
 */
export const MEMO_BYTES = 64 * 2 ** 20;
const memo = new Map<string, Drawn>();
let memoBytes = 0;
/** The memo's budget (MEMO_BYTES) and what it holds now. */
export const figureMemo = {
  limit: MEMO_BYTES,
  entries: (): number => memo.size,
  bytes: (): number => memoBytes,
};
const drawnSize = (key: string, d: Drawn) => 2 * key.length + 2 * d.svg.length + d.png.byteLength;

function remember(key: string, d: Drawn): void {
  if (memo.has(key)) return;
  memo.set(key, d);
  memoBytes += drawnSize(key, d);
  for (const [k, old] of memo) {
    if (memoBytes <= figureMemo.limit) break;
    memo.delete(k);
    memoBytes -= drawnSize(k, old);
  }
}

function recalled(key: string): Drawn | undefined {
  const d = memo.get(key);
  if (d) { memo.delete(key); memo.set(key, d); }
  return d;
}
interface Job {
  readonly figure: Figure;
  /** 0 while unclaimed; 1 when the worker draws it, 2 when the calling thread does (Atomics, shared with the worker). */
  readonly claim: Int32Array;
  readonly resolve: (d: Drawn) => void; readonly reject: (e: Error) => void; readonly result: Promise<Drawn>;
}

/**
 * One worker per process, started on first use and kept, so a process that draws several output
 * sets loads Vega on it once; it holds the process open only while it has jobs. Pools share it.
 */
interface Shared { readonly worker: Worker; readonly sent: Map<number, Job>; nextId: number }
let shared: Shared | null | undefined;

function sharedWorker(): Shared | undefined {
  if (shared !== undefined) return shared ?? undefined;
  const module = compiledModule('render/render.js');
  if (module === undefined) { shared = null; return undefined; }
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module } });
  const s: Shared = { worker, sent: new Map(), nextId: 0 };
  worker.on('message', (m: { id: number; skipped?: boolean; svg?: string; png?: Uint8Array; warnings?: string[]; error?: string }) => {
    const job = s.sent.get(m.id)!;
    s.sent.delete(m.id);
    if (m.error !== undefined) job.reject(new Error(`figure ${job.figure.id}: rendering failed: ${m.error}`));
    else if (!m.skipped) job.resolve({ svg: m.svg!, png: new Uint8Array(m.png!.buffer, m.png!.byteOffset, m.png!.byteLength), warnings: m.warnings! });
    if (s.sent.size === 0) worker.unref(); // idle: it must not hold the process open
  });
  worker.on('error', (e) => {
    // Figures the worker had claimed fail; those it had not are drawn on the calling thread.
    for (const job of s.sent.values()) {
      if (Atomics.compareExchange(job.claim, 0, 0, 2) === 0) void drawHere(job);
      else if (Atomics.load(job.claim, 0) === 1) job.reject(e);
    }
    s.sent.clear();
    shared = undefined; // the next pool starts a new one
  });
  // Unreferenced after the listeners are attached (attaching one references it again): an idle
  // worker never holds the process open, also when a command fails before drawing anything.
  worker.unref();
  shared = s;
  return s;
}

/** Figures drawn on the calling thread by this process (its Vega is warm once one is). */
let drawnHere = 0;

/** Draw a figure on the calling thread and settle its job. */
async function drawHere(job: Job): Promise<void> {
  drawnHere++;
  try {
    job.resolve(await drawFigure(job.figure.spec));
  } catch (e) {
    job.reject(new Error(`figure ${job.figure.id}: rendering failed: ${e instanceof Error ? e.message : String(e)}`));
  }
}

export class FigurePool {
  private readonly worker: Shared | undefined;
  private readonly jobs = new Map<string, Job>();
  private readonly queue: Job[] = [];

  /**
   * Starts (or reuses) the process's worker; `useWorker = false` draws every figure on the calling
   * thread; `useMemo = false` draws every figure even when this process drew it before.
   */
  constructor(useWorker = true, private readonly useMemo = true) {
    this.worker = useWorker ? sharedWorker() : undefined;
  }

  /** Queue a figure and hand it to the worker, which starts on it when it is free. */
  prefetch(figure: Figure): void {
    const before = this.jobs.get(figure.id);
    // The same figure again is the job already queued; a figure of that id drawn another way (its paper style) is a new job.
    if (before && (before.figure.spec === figure.spec || JSON.stringify(before.figure.spec) === JSON.stringify(figure.spec))) return;
    const key = this.useMemo ? JSON.stringify(figure.spec) : undefined;
    let resolve!: (d: Drawn) => void, reject!: (e: Error) => void;
    const result = new Promise<Drawn>((res, rej) => {
      resolve = (d) => { if (key !== undefined) remember(key, d); res(d); };
      reject = rej;
    });
    result.catch(() => undefined); // awaited in files(); a failure there, not as an unhandled rejection
    const job = { figure, claim: new Int32Array(new SharedArrayBuffer(4)), resolve, reject, result };
    this.jobs.set(figure.id, job);
    const known = key === undefined ? undefined : recalled(key);
    if (known) {
      Atomics.store(job.claim, 0, 2);
      resolve(known);
      return;
    }
    this.queue.push(job);
    const w = this.worker;
    if (w) {
      const id = w.nextId++;
      w.sent.set(id, job);
      w.worker.ref(); // busy: the process waits for its answers
      w.worker.postMessage({ id, spec: figure.spec, claim: job.claim.buffer });
    }
  }

  /**
   * Give up the figures not yet drawn (the command failed after prefetching them): the worker
   * skips them instead of drawing figures nobody will write, and the process need not wait for it.
   */
  abandon(): void {
    for (const job of this.queue) {
      if (Atomics.compareExchange(job.claim, 0, 0, 2) === 0) job.reject(new Error(`figure ${job.figure.id}: abandoned`));
    }
    this.queue.length = 0;
  }

  /** Draw every figure (those prefetched included) and return its three files, in figure order. */
  async files(figures: readonly Figure[], outDir: string, logger?: Logger): Promise<OutputFile[]> {
    assertUniqueIds(figures);
    for (const f of figures) this.prefetch(f);
    // The calling thread draws from the back of the queue while the worker takes from the front;
    // each figure is drawn by whichever claims it first. Until the calling thread has drawn a
    // figure, the last unclaimed one is left to a live worker: its Vega is warm, while the calling
    // thread's first figure pays for loading it. Once warm, the calling thread takes it too.
    const live = () => this.worker !== undefined && shared === this.worker;
    for (let job = this.queue.pop(); job !== undefined; job = this.queue.pop()) {
      if (drawnHere === 0 && live() && this.queue.every((j) => Atomics.load(j.claim, 0) !== 0)) break;
      if (Atomics.compareExchange(job.claim, 0, 0, 2) === 0) await drawHere(job);
    }
    const dir = join(outDir, 'figures');
    const out: OutputFile[] = [];
    for (const f of figures) {
      const d = await this.jobs.get(f.id)!.result;
      for (const w of d.warnings) logger?.warn(renderMsg.figureWarning(f.id, w));
      out.push(
        { path: join(dir, `${f.id}.vl.json`), content: specJson(f) },
        { path: join(dir, `${f.id}.svg`), content: d.svg.endsWith('\n') ? d.svg : `${d.svg}\n` },
        { path: join(dir, `${f.id}.png`), content: d.png },
      );
    }
    return out;
  }

}

/**
 * figures/<id>.vl.json, .svg and .png for each figure, under `outDir` (drawn on two threads; on the
 * caller's pool when given, where figures may have been prefetched).
 */
export async function figureFiles(figures: readonly Figure[], outDir: string, logger?: Logger, pool?: FigurePool, style?: FigureStyle): Promise<OutputFile[]> {
  if (figures.length === 0) return [];
  const files = await (pool ?? new FigurePool()).files(figures.map((f) => styled(f, style)), outDir, logger);
  return style?.style === 'paper' ? [...files, captionsFile(figures, outDir)] : files;
}
