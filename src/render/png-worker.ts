import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SVG → PNG on a worker thread. resvg loads its fonts and encodes the PNG on the calling
 * thread (~45 ms a figure); on a worker that work overlaps with Vega drawing the next SVG on the
 * main thread. The worker is a few lines of plain JavaScript evaluated from a string, so it runs
 * the same from dist/ and from the TypeScript sources under test.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Resvg } = require(workerData.resvg);
parentPort.on('message', (m) => {
  try {
    const png = new Resvg(m.svg, workerData.options).render().asPng();
    parentPort.postMessage({ id: m.id, png });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String(e && e.stack || e) });
  }
});
`;

export interface PngOptions {
  readonly fitTo: { readonly mode: 'zoom'; readonly value: number };
  readonly font: { readonly loadSystemFonts: false; readonly fontFiles: readonly string[]; readonly defaultFontFamily: string };
}

export class PngWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  private next = 0;

  constructor(options: PngOptions) {
    const resvg = createRequire(import.meta.url).resolve('@resvg/resvg-js');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { resvg, options } });
    this.worker.on('message', (m: { id: number; png?: Uint8Array; error?: string }) => {
      const p = this.pending.get(m.id)!;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(`PNG rendering failed: ${m.error}`));
      else p.resolve(new Uint8Array(m.png!.buffer, m.png!.byteOffset, m.png!.byteLength));
    });
    this.worker.on('error', (e) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    });
  }

  render(svg: string): Promise<Uint8Array> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, svg });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
