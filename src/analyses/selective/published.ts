/**
 * The published selective-robustness metrics of the context-enrichment paper (data/greiche-2026/published-metrics.csv,
 * percentage points as printed) as plane rows in fractions, so they draw with the same figure
 * function as a run (src/analyses/selective/figure.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { UserError } from '../../core/errors.js';
import { packageRoot } from '../../core/paths.js';
import type { PlaneRow } from './figure.js';
import { analysesSelectiveMsg } from './messages.js';

/** Shipped published tables by the id a design names in `published_reference`. */
export const PUBLISHED = {
  'greiche-2026': {
    path: 'data/greiche-2026/published-metrics.csv',
    label: 'Published: Greiche et al. 2026',
  },
} as const;
export type PublishedId = keyof typeof PUBLISHED;

const COLUMNS = ['model', 'condition', 'surface_sensitivity', 'ss_lo', 'ss_hi', 'world_responsiveness', 'wr_lo', 'wr_hi'] as const;

/** The published table as plane rows (fractions: the printed points / 100). */
export function publishedPlaneRows(id: PublishedId = 'greiche-2026', file = join(packageRoot, PUBLISHED[id].path)): PlaneRow[] {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) { throw new UserError(analysesSelectiveMsg.publishedUnreadable(file,
    (e as NodeJS.ErrnoException).code ?? String(e))); }
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  const missing = COLUMNS.filter((c) => !(parsed.meta.fields ?? []).includes(c));
  if (parsed.errors.length > 0 || missing.length > 0) {
    throw new UserError(analysesSelectiveMsg.publishedUnreadable(file, parsed.errors[0]?.message ?? `missing columns ${missing.join(', ')}`));
  }
  return parsed.data.map((r, i) => {
    const n = (c: (typeof COLUMNS)[number]) => {
      const v = Number(r[c]);
      if (r[c] === undefined || r[c].trim() === '' || !Number.isFinite(v)) throw new UserError(analysesSelectiveMsg.publishedUnreadable(file,
        `line ${i + 2}: ${c} is not a number`));
      // Percentage points to fractions; rounding keeps 34.1 → 0.341 exact in print.
      return Number((v / 100).toPrecision(12));
    };
    return {
      source: PUBLISHED[id].label, model: r.model, condition: r.condition,
      ss: n('surface_sensitivity'), ssLo: n('ss_lo'), ssHi: n('ss_hi'), wr: n('world_responsiveness'), wrLo: n('wr_lo'), wrHi: n('wr_hi'),
    };
  });
}
