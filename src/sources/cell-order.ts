/**
 * Cells in a stable order, whatever the order of a file's rows (docs/methods.md §26): by the design's order of models, games
 * and framings where the input carries one (the sidecar of an export), the levels it does not list after the listed ones;
 * else, and for every further factor, by plain text order. A store lists its cells in its design's order (sources/store.ts).
 */
import { byText } from '../core/aggregates.js';
import type { ExportOrder } from './export-layout.js';

export function inStableOrder<T>(items: readonly T[], key: (item: T) => Readonly<Record<string, string>>, factors: readonly string[],
  order?: ExportOrder): T[] {
  const lists: Readonly<Record<string, readonly string[]>> = order ? { model: order.models, game: order.games, framing: order.framings } : {};
  const rank = (factor: string, level: string) => {
    const list = lists[factor] ?? [];
    const i = list.indexOf(level);
    return i < 0 ? list.length : i;
  };
  return [...items].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (const f of factors) {
      const [x, y] = [ka[f] ?? '', kb[f] ?? ''];
      const d = rank(f, x) - rank(f, y) || byText(x, y);
      if (d !== 0) return d;
    }
    return 0;
  });
}

