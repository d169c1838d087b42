/** The provenance audit: what other analyses and the commands use of it. */
export { AUDIT_DEFAULTS, auditInput, auditSettings, type AuditResult, type AuditSettings, type EndpointMcError } from './audit.js';
export { auditFiles } from './outputs.js';
export { checkConsistency, consistencyFlags, type CellConsistency } from './consistency.js';
export { ReplicateState, type HeadlineKind } from './replicate-state.js';
export { mcErrorOfQuantile, defaultBatches, type McError } from './mc-error.js';
