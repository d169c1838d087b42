/**
 * Which published numbers a computation with other settings can still be compared with. The
 * shipped publication's tables were computed with the paper's settings (attenuation 0.70, 10,000
 * replicates, percentile intervals, business vs friend-sharing); a run that changes one of them
 * explores the setting, it does not reproduce the paper, so only the numbers that do not depend on
 * it are compared:
 *
 * - the attenuation a enters Table 3 (R_c = 1 − a(1 − R2), shift_c = a·Δ), not Table 2 or the
 *   family table (unattenuated);
 * - the replicates and the interval method enter the interval endpoints (`*_lo`, `*_hi`) only;
 * - the framings compared (base, alt) enter Tables 2 and 3; the family table uses every framing.
 *
 * The `within-mc` band allows for B_c ≠ B_p (docs/methods.md §16), but its normal approximation
 * fails with few replicates (at --reps 50 a correct table's endpoints are called `differs`): a run
 * with other replicates is an exploration, and `--expect FILE` compares its endpoints on request.
 */
import type { PublishedRow, PublishedTable } from '../../sources/published.js';
import { TABLE_NAMES } from './table-names.js';

export type ComparedSetting = 'attenuation' | 'reps' | 'interval' | 'framings';

/** Whether a published number depends on a setting. */
const DEPENDS: Record<ComparedSetting, (table: PublishedTable, statistic: string) => boolean> = {
  attenuation: (table) => table === 'table3',
  reps: (_table, statistic) => /_(?:lo|hi)$/.test(statistic),
  interval: (_table, statistic) => /_(?:lo|hi)$/.test(statistic),
  framings: (table) => table === 'table2' || table === 'table3',
};

export interface SettingChange {
  readonly setting: ComparedSetting;
  /** As the user writes it: `--attenuation 0.5`. */
  readonly given: string;
  /** The publication's value, as text. */
  readonly published: string;
}

export interface PublicationSettings {
  readonly attenuation: number;
  readonly reps: number;
  readonly interval: string;
  readonly base: string;
  readonly alt: string;
}

/** The settings that differ from the publication's. */
export function settingChanges(used: PublicationSettings, paper: PublicationSettings): SettingChange[] {
  const out: SettingChange[] = [];
  if (used.attenuation !== paper.attenuation) out.push({ setting: 'attenuation', given: `--attenuation ${used.attenuation}`,
    published: paper.attenuation.toFixed(2) });
  if (used.reps !== paper.reps) out.push({ setting: 'reps', given: `--reps ${used.reps}`, published: String(paper.reps) });
  if (used.interval !== paper.interval) out.push({ setting: 'interval', given: `--interval ${used.interval}`, published: paper.interval });
  if (used.base !== paper.base || used.alt !== paper.alt) {
    out.push({ setting: 'framings', given: `--base ${used.base} --alt ${used.alt}`, published: `${paper.base} vs ${paper.alt}` });
  }
  return out;
}

/** The published rows that depend on none of the changed settings. */
export function comparableRows<R extends Pick<PublishedRow, 'table' | 'statistic'>>(rows: readonly R[], changes: readonly SettingChange[]): R[] {
  return rows.filter((r) => !changes.some((c) => DEPENDS[c.setting](r.table, r.statistic)));
}

/** "Table 2, Table 3's points": what of each table the kept rows cover. */
export function describeTables<R extends Pick<PublishedRow, 'table' | 'statistic'>>(all: readonly R[], kept: readonly R[]): string {
  const tables = [...new Set(all.map((r) => r.table))];
  const parts = tables.flatMap((t) => {
    const n = kept.filter((r) => r.table === t).length;
    if (n === 0) return [];
    if (n === all.filter((r) => r.table === t).length) return [TABLE_NAMES[t].inSentence];
    return [`${TABLE_NAMES[t].inSentence}'s points (not its interval endpoints)`];
  });
  return parts.length ? parts.join(' and ') : 'no table';
}
