import { Worker } from 'node:worker_threads';
import type { TopLevelSpec } from 'vega-lite';

/**
 * Vega-Lite → SVG on a worker thread, so that two figures are drawn at once on a two-core
 * machine (Vega's parse, dataflow and SVG serialization are most of a figure's time). The worker
 * imports the built render module itself and calls the same `renderSvg`, so a figure's SVG is the
 * same whichever thread drew it (each render restarts Vega's id counters). Only available from
 * the built JavaScript (dist/): under the TypeScript sources the caller draws on its own thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const ready = import(workerData.module);
parentPort.on('message', async (m) => {
  try {
    const { renderSvg } = await ready;
    const warnings = [];
    const svg = await renderSvg(m.spec, warnings);
    parentPort.postMessage({ id: m.id, svg, warnings });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String((e && e.stack) || e) });
  }
});
`;

export interface SvgResult { readonly svg: string; readonly warnings: readonly string[] }

export class SvgWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (r: SvgResult) => void; reject: (e: Error) => void }>();
  private next = 0;

  /** Undefined when the render module is not built JavaScript (tests running the sources). */
  static start(renderModuleUrl: string): SvgWorker | undefined {
    return renderModuleUrl.endsWith('.js') ? new SvgWorker(renderModuleUrl) : undefined;
  }

  private constructor(module: string) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module } });
    this.worker.on('message', (m: { id: number; svg?: string; warnings?: string[]; error?: string }) => {
      const p = this.pending.get(m.id)!;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(`SVG rendering failed: ${m.error}`));
      else p.resolve({ svg: m.svg!, warnings: m.warnings ?? [] });
    });
    this.worker.on('error', (e) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    });
  }

  render(spec: TopLevelSpec): Promise<SvgResult> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, spec });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
