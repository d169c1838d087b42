/**
 * Statistic names shared by the estimands, the emitters and the verification: one place decides
 * how a statistic is named so that no two modules spell it differently.
 */
export const POOLED = 'Pooled';
const SEP = ' | ';

/** e.g. stat('R2', 'GPT-4', 'Stag Hunt') → "R2[GPT-4 | Stag Hunt]" */
export function stat(kind: string, ...parts: string[]): string {
  return `${kind}[${parts.join(SEP)}]`;
}
