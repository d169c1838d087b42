/** A named check with the value it saw (Same Game, Different Story Appendix C): the shape every verifier returns. */
export interface Check {
  readonly name: string;
  readonly description: string;
  readonly passed: boolean;
  /** What the check saw, printable. */
  readonly value: string;
  /** Offending items when it failed. */
  readonly failures?: readonly string[];
  /**
   * 'warn' when the check passed but found something the reader should know (a statistical
   * property of the data, not a defect); absent for a plain pass or fail. Warnings never change
   * the exit code.
   */
  readonly status?: 'warn';
  /** What the warning is about, each item named with its reason. */
  readonly warnings?: readonly string[];
}

/** pass, warn or fail: how a check is shown. */
export type CheckStatus = 'pass' | 'warn' | 'fail';

export function checkStatus(c: Check): CheckStatus {
  return !c.passed ? 'fail' : c.status === 'warn' ? 'warn' : 'pass';
}

export interface DegenerateCell {
  readonly cell: string;
  readonly x: number;
  readonly n: number;
  readonly note: string;
}

export interface VerificationReport {
  readonly passed: boolean;
  readonly checks: readonly Check[];
  readonly degenerate: readonly DegenerateCell[];
}

export function makeReport(checks: Check[], degenerate: DegenerateCell[]): VerificationReport {
  return { passed: checks.every((c) => c.passed), checks, degenerate };
}

/**
 * Build a check from a list of failures: it passes when the list is empty, with status 'warn'
 * when there are warnings.
 */
export function check(name: string, description: string, value: string, failures: string[], warnings: string[] = []): Check {
  if (failures.length) return { name, description, passed: false, value, failures, ...(warnings.length ? { warnings } : {}) };
  return warnings.length ? { name, description, passed: true, value, status: 'warn', warnings } : { name, description, passed: true, value };
}
