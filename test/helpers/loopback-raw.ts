/**
 * A loopback HTTP server (127.0.0.1) that answers every request with what the test says, byte for
 * byte: a status, headers and a body — a string, or `bytes` bytes streamed in 1 MiB pieces of a
 * JSON string (so a 100 MB answer never sits in the test's memory). For the wire formats'
 * answers a vendor's own loopback server does not write (bad candidates, absurd retry hints,
 * oversized bodies). Counts the requests per trial (x-samegame-trial).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawAnswer {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Instead of body: a JSON object `{"<field>": "xxxx…"}` of this many bytes, streamed. */
  readonly bytes?: number;
  readonly field?: string;
}

export interface RawLoopback { readonly url: string; readonly requests: Map<string, number>; close(): Promise<void> }

export async function startRawLoopback(answer: (key: string, n: number, path: string, body: string) => RawAnswer): Promise<RawLoopback> {
  const requests = new Map<string, number>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const key = decodeURIComponent(String(req.headers['x-samegame-trial'] ?? ''));
      const n = (requests.get(key) ?? 0) + 1;
      requests.set(key, n);
      const a = answer(key, n, req.url ?? '', Buffer.concat(parts).toString('utf8'));
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...(a.headers ?? {}) });
      if (a.bytes === undefined) { res.end(a.body ?? ''); return; }
      const head = `{"${a.field ?? 'pad'}":"`;
      let left = a.bytes - head.length - 2;
      res.write(head);
      const piece = 'x'.repeat(2 ** 20);
      const more = () => {
        while (left > 0) {
          const s = left >= piece.length ? piece : piece.slice(0, left);
          left -= s.length;
          if (!res.write(s)) { res.once('drain', more); return; }
        }
        res.end('"}');
      };
      res.on('error', () => {});
      more();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
