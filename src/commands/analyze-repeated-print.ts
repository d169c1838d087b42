import { relative } from 'node:path';
import type { Logger } from '../core/logger.js';
import { msg } from '../core/messages/common.js';
import { UserError } from '../core/errors.js';
import { repeated } from '../analyses/repeated/index.js';
import { shown } from '../core/display-names.js';
import { table3Text } from '../analyses/two-framing/terminal.js';
import type { RepeatedResult } from './analyze-repeated.js';

/** What `samegame analyze` prints for repeated play: cooperation per cell, Table 3 with two framings, the files; exit 3 when a check fails. */
export function printRepeated(res: RepeatedResult, logger: Logger): void {
  process.stdout.write(`${repeated.terminal.cells(repeated.tables.cells(res.analysis), res.analysis.settings.factors, res.analysis.settings.names, res.analysis.settings.interval === 'cluster-bootstrap')}\n`);
  const t = res.twoFraming;
  const names = res.analysis.settings.names;
  if (t) process.stdout.write(`${table3Text(t.table3.map((r) => ({ ...r, model: shown(names, r.model) })), t.analysis.settings.attenuation, t.analysis.boot.method, t.analysis.bands?.c)}\n`);
  for (const n of t?.analysis.boot.notes ?? []) logger.warn(n);
  for (const f of res.files) logger.info(msg.wrote(relative(process.cwd(), f.path) || f.path));
  for (const n of res.input.notes ?? []) logger.warn(n);
  if (t && !t.verification.passed) throw new UserError(msg.checksFailed(t.verification.checks.filter((c) => !c.passed).map((c) => c.name)), 3);
}
