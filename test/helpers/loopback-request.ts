import type { IncomingMessage } from 'node:http';

/** A loopback server's view of a request: its body as text, its path and query, and the trial key header the tests send. */
export async function readRequest(req: IncomingMessage): Promise<{ text: string; path: string; query: string | undefined; key: string }> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const [path, query] = (req.url ?? '').split('?');
  return { text: Buffer.concat(chunks).toString('utf8'), path, query, key: decodeURIComponent(String(req.headers['x-samegame-trial'] ?? '')) };
}
