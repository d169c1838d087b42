import { join, resolve } from 'node:path';
import { readRates } from '../sources/rates-csv.js';
import { writeFilesAtomic } from '../core/atomic.js';
import { silentLogger, type Logger } from '../core/logger.js';
import { packageRoot, SHIPPED_RATES } from '../core/paths.js';
import type { VerificationReport } from '../core/checks.js';
import { verifyRates } from './reproduce.js';
import { auditFiles, auditInput, auditSettings, type AuditResult, type AuditSettings } from '../analyses/audit/index.js';

export interface AuditOptions extends Partial<AuditSettings> {
  data?: string;
  out?: string;
  logger?: Logger;
  dryRun?: boolean;
}

/**
 * The audit computation without writing: rates file → AuditResult. Input errors are the same as
 * `reproduce`'s (one reader) and are thrown before any work.
 */
export function auditCompute(opts: AuditOptions = {}): Omit<AuditResult, 'files'> {
  const logger = opts.logger ?? silentLogger;
  const settings = auditSettings(opts);
  const displayPath = opts.data ?? SHIPPED_RATES;
  const path = opts.data ? resolve(opts.data) : join(packageRoot, SHIPPED_RATES);
  const input = readRates(path, { base: settings.base, alt: settings.alt, displayPath });
  return auditInput(input, settings, logger);
}

/**
 * `samegame audit`: compute, then write reports/audit.md, audit.json, audit.html and the audit
 * figures as one atomic set (nothing is written when the input is bad or a step fails).
 */
export async function audit(opts: AuditOptions = {}): Promise<AuditResult & { verification: VerificationReport }> {
  const res = auditCompute(opts);
  const files = await auditFiles(res, opts.out ?? '.', opts.logger);
  if (!opts.dryRun) writeFilesAtomic(files);
  // The same Appendix C checks as reproduce (same analysis): a failed check exits 3 in both.
  const { verification } = verifyRates(res.input, res.analysis, join(resolve(opts.out ?? '.'), 'reports'));
  return { ...res, files, verification };
}

export { AUDIT_DEFAULTS, auditSettings, type AuditResult, type AuditSettings } from '../analyses/audit/index.js';
