/** The provenance audit: what other analyses and the commands use of it. */
export { AUDIT_DEFAULTS, auditFinish, auditInput, auditPlan, auditSettings, auditStart, type AuditResult, type AuditPlan, type AuditSettings, type AuditStage,
  type EndpointMcError } from './audit.js';
export { SearchWorkspace, takeTasks, type SearchJob, type SearchTask, type SearchTaskResult } from './search-tasks.js';
export { auditFiles } from './outputs.js';
export { checkConsistency, consistencyFlags, type CellConsistency } from './consistency.js';
export { ReplicateState, type HeadlineKind } from './replicate-state.js';
export type { ReadingRanges } from './reading-error.js';

import { auditInput, auditSettings, AUDIT_DEFAULTS } from './audit.js';
import { auditFiles } from './outputs.js';
import { auditFigures } from './figures.js';
import { auditMarkdown } from './markdown.js';
import { auditJson } from './json.js';

/** The provenance audit as one object: its computation, figures and report files, composed by `samegame audit`. */
export const audit = {
  defaults: AUDIT_DEFAULTS, settings: auditSettings, run: auditInput,
  figures: auditFigures, report: { markdown: auditMarkdown, json: auditJson, files: auditFiles },
} as const;
