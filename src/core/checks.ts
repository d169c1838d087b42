/** A named check with the value it saw (Same Game, Different Story Appendix C): the shape every verifier returns. */
export interface Check {
  readonly name: string;
  readonly description: string;
  readonly passed: boolean;
  /** What the check saw, printable. */
  readonly value: string;
  /** Offending items when it failed. */
  readonly failures?: readonly string[];
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

/** Build a check from a list of failures: it passes when the list is empty. */
export function check(name: string, description: string, value: string, failures: string[]): Check {
  return failures.length
    ? { name, description, passed: false, value, failures }
    : { name, description, passed: true, value };
}
