/**
 * Statistic names shared by the estimands, the emitters and the verification: one place decides
 * how a statistic is named so that no two modules spell it differently.
 */
export const POOLED = 'Pooled';
/** The game label of per-model and pooled rows in the family table. */
export const ALL_GAMES = 'All';

/**
 * e.g. stat('R2', 'GPT-4', 'Stag Hunt') → 'R2["GPT-4","Stag Hunt"]'. The parts are JSON-encoded,
 * so no level name, whatever characters it holds, can make two statistics share a name. (A model
 * literally named "Pooled" would still meet the pooled group: input readers reject that name.)
 */
export function stat(kind: string, ...parts: string[]): string {
  return `${kind}${JSON.stringify(parts)}`;
}

/** Level names the tables use for their own rows, refused as model or game names in inputs. */
export const RESERVED_LEVELS = { model: [POOLED], game: [ALL_GAMES] } as const;

/** How a statistic is shown to people: R[GPT-4], R2[GPT-4 | Stag Hunt]. For display only, never a key. */
export function statLabel(kind: string, ...parts: string[]): string {
  return `${kind}[${parts.join(' | ')}]`;
}
