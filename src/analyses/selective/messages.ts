/**
 * The user-facing messages used only in analyses/selective/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */

export const analysesSelectiveMsg = {
  // Analysis.
  noEnrichment: (path: string) =>
    `${path}: the run's design is not a context-enrichment design (it registers no worlds, direction or formats)`,
  incompleteGroups: (missing: readonly string[]) =>
    (`left out of the selective estimands (a world × format cell has no valid ` +
      `calls): ${missing.slice(0, 6).join('; ')}${missing.length > 6 ? ` … (${missing.length} cells)` : ''}`),
  noCompleteGroup: (path: string) => `${path}: no model × condition has valid calls in every world × format cell`,
  imputed: (n: number, total: number) => `${n} of ${total} scored calls lacked one action among the returned candidates (imputed at half the unreturned mass)`,
  publishedUnreadable: (path: string, reason: string) => `${path}: cannot read the published metrics (${reason})`,
};
