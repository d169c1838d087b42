import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditInput, auditSettings } from '../../../src/analyses/audit/index.js';
import { readRates } from '../../../src/sources/rates-csv.js';
import { SHIPPED_RATES } from '../../../src/core/paths.js';
import { auditJson } from '../../../src/analyses/audit/json.js';
import { MemoryLogger } from '../../../src/core/logger.js';
import { ROOT } from '../../helpers/cli.js';

/**
 * audit.json is a fixed function of (input, seed): these golden files were written by the audit
 * before its replicate state became incremental (column cache, R2 lookup tables, selection
 * instead of sorting), so any change of a draw, a summation order or a quantile shows here.
 * They were rewritten once after the input-kind fields (input.kind, reading_error.reconstructed_cells,
 * counts_given, the note) and the regenerate command were added; every number was compared equal first.
 * Rewritten again when every file's numbers went to 12 significant digits (README, "Numbers in the
 * files"): each of the 6,704 numbers was checked equal to the old one rounded to 12 significant digits.
 * Rewritten again when framing_test (the R = 1 G-test) was added: equal to the earlier files with that field removed.
 * Rewritten again when framing_test's interval became two one-sided 95 % bounds and its p exact where a pair is sparse:
 * equal to the earlier files outside framing_test.
 * Rewritten again when the R = 1 tipping point moved to the test the rows print (`test`, `atMost` in framing_test.tipping):
 * equal to the earlier files outside those two fields.
 */
const cases = [
  ['shipped data', SHIPPED_RATES, 'shipped.audit.json'],
  ['planted-error fixture', 'test/fixtures/audit/rates-planted-0088.csv', 'planted.audit.json'],
  ['5-framing fixture', 'test/fixtures/audit/rates-5-framings.csv', 'five-framings.audit.json'],
] as const;

// Three full audits in one file: generous timeouts, so that a busy machine slows the file but does not fail it.
describe('audit.json is byte-identical to the committed golden files', { timeout: 300_000 }, () => {
  it.each(cases)('%s', (_name, data, golden) => {
    const settings = auditSettings({});
    const input = readRates(join(ROOT, data), { base: settings.base, alt: settings.alt, displayPath: data });
    const got = auditJson(auditInput(input, settings, new MemoryLogger()));
    expect(got).toBe(readFileSync(join(ROOT, 'test/fixtures/audit/golden', golden), 'utf8'));
  });
});
