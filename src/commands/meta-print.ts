import { relative } from 'node:path';
import type { Logger } from '../core/logger.js';
import { msg } from '../core/messages/common.js';
import { fixed, interval } from '../core/format.js';
import { meta } from '../analyses/meta/index.js';
import type { MetaResult } from './meta.js';

/** What `samegame meta` prints: the pooled table (with -q, the overall line alone), the notes, the files. */
export function printMeta(res: MetaResult, logger: Logger, quiet = false): void {
  const a = res.analysis;
  const overall = a.multilevel ?? a.pooled.find((p) => p.scope === 'overall');
  if (!quiet) process.stdout.write(`${meta.text(a)}\n`);
  else if (overall) process.stdout.write(`overall ${a.settings.effect}: ${fixed(overall.estimate)} ${interval(overall.ci_lo, overall.ci_hi)}${a.multilevel ? ' (three-level)' : ''}, k = ${overall.k}\n`);
  for (const n of a.notes) logger.warn(n);
  for (const f of res.files) logger.info(msg.wrote(relative(process.cwd(), f.path) || f.path));
}
