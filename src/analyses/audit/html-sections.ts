import { statLabel } from '../../core/names.js';
import { fixed, interval, signed } from '../../core/format.js';
import { regenerateCommand, wrappedCommand } from '../../core/command-line.js';
import { AUDIT_DEFAULTS } from './audit.js';
import { num, type Block, type Section } from '../../render/html.js';
import type { AuditResult } from './audit.js';
import { influenceCells, influenceFull, influenceHeaders } from './influence.js';

/**
 * The audit page's sections beyond the summary: influence, Monte Carlo error, the exact
 * Clopper–Pearson intervals of degenerate cells and the settings with the regenerate command —
 * the same numbers as audit.md's sections 5–7, rounded the same way.
 */
type Result = Omit<AuditResult, 'files'>;

/** The command line that regenerates the audit's files. */
export function auditCommand(r: Result): string {
  const s = r.settings;
  return regenerateCommand('audit', [], {
    ...(s.readingRanges ? s.readingRanges.input : { data: r.input.path }), seed: s.seed, reps: s.reps, searchReps: s.searchReps,
    readingError: s.readingRanges ? undefined : s.readingError,
    attenuation: s.attenuation, base: s.base, alt: s.alt,
    maxCells: s.maxCells === AUDIT_DEFAULTS.maxCells ? undefined : s.maxCells,
  });
}

export function influenceSection(r: Result): Section {
  const inf = r.influence;
  return { id: 'influence', heading: 'Influence of each model–game pair', blocks: [
    { kind: 'text', text: (`Change of the pooled values when one model–game pair is left out (unweighted mean of the remaining pairs, same replicates); ` +
      `leaving out either framing cell removes the pair. Full table: ${influenceFull(inf)}.`) },
    { kind: 'table', id: 'influence-table',
      columns: ['Pair left out', ...influenceHeaders(inf).map(num)],
      rows: inf.pairs.map((p) => [`${p.model} / ${p.game}`, ...influenceCells(inf, p, (x) => signed(x)).map(num)]) },
  ] };
}

export function mcErrorSection(r: Result): Section {
  const t = r.settings.mcTarget;
  const b = r.mcError[0]?.lo.batches ?? 0;
  return { id: 'monte-carlo-error', heading: 'Monte Carlo error of the interval endpoints', blocks: [
    { kind: 'text', text: (`The ${r.settings.reps} replicates are split into ${b} batches; an endpoint's Monte Carlo standard error is sd(batch ` +
      `endpoints)/√${b}. Replicates needed for an error under ${t}: B·(se/${t})² (an extrapolation).`) },
    { kind: 'table', id: 'mc-error-table',
      columns: ['Statistic', num('Lower end'), num('MC error'), num('Upper end'), num('MC error'), num(`Replicates for error < ${t}`)],
      rows: r.mcError.map((m) => [statLabel(m.kind, m.group), num(fixed(m.lo.estimate, 4)), num(fixed(m.lo.se, 5)), num(fixed(m.hi.estimate, 4)),
        num(fixed(m.hi.se, 5)),
        num(String(Math.max(m.lo.repsNeeded, m.hi.repsNeeded)) + (Math.max(m.lo.se, m.hi.se) < t ? ' (met)' : ''))]) },
  ] };
}

export function degenerateSection(r: Result): Section {
  const blocks: Block[] = [{ kind: 'text',
    text: ('The bootstrap redraws a cell as Binomial(n, x/n), which cannot move at 0/n or n/n, so its interval collapses to a point. Beside it, the exact ' +
      'Clopper–Pearson 95 % interval ([0, 1 − 0.025^(1/n)] for 0/n, [0.025^(1/n), 1] for n/n), and the pair\'s R2 and shift with the cell moved to the far ' +
      'end of that interval.') }];
  blocks.push(r.degenerate.length === 0 ? { kind: 'text', text: 'No degenerate cell.' } : {
    kind: 'table', id: 'clopper-pearson-table',
    columns: ['Cell', num('Count'), num('Bootstrap interval'), num('Exact 95 % (Clopper–Pearson)'), num('Pair R2, shift observed'), num('At the exact bound')],
    rows: r.degenerate.map((d) => [d.cell, num(`${d.x}/${d.n}`), num(interval(d.bootstrap.lo, d.bootstrap.hi, 4)), num(interval(d.exact.lo, d.exact.hi, 4)),
      num(`${fixed(d.pairAtExactBound.R2Observed, 4)}, ${fixed(d.pairAtExactBound.shiftObserved, 4)}`),
      num(`${fixed(d.pairAtExactBound.R2, 4)}, ${fixed(d.pairAtExactBound.shift, 4)}`)]),
  });
  return { id: 'degenerate-cells', heading: 'Degenerate cells: exact intervals', blocks };
}

export function auditSettingsSection(r: Result): Section {
  const s = r.settings;
  return { id: 'settings', heading: 'Settings', blocks: [
    { kind: 'facts', items: [
      ['Input', `${r.input.path} (sha256 ${r.input.sha256})`], ['Seed', String(s.seed)], ['Replicates', String(s.reps)],
      ['Search replicates', String(s.searchReps)], ['Reading error', r.readingError.label], ['Attenuation', String(s.attenuation)],
      ['Planned pair', `${s.base} → ${s.alt}`], ['Monte Carlo target', String(s.mcTarget)],
    ] },
    { kind: 'text', text: 'Regenerate with:' },
    { kind: 'code', text: wrappedCommand(auditCommand(r)) },
  ] };
}
