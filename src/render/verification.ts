import { jsonText } from '../core/format.js';
import { checkStatus, type VerificationReport } from '../core/checks.js';
import { inertMarkdown, mdCell as esc } from './markdown.js';

/** Markdown rendering of a verification report: one row per named check, then degenerate cells. */
export function verificationMarkdown(r: VerificationReport, title = 'Verification (Appendix C checks)'): string {
  const warned = r.checks.filter((c) => checkStatus(c) === 'warn');
  const lines = [`# ${title}`, '',
    (`Overall: **${r.passed ? 'PASSED' : 'FAILED'}** ` +
      `(${r.checks.filter((c) => c.passed).length}/${r.checks.length} checks${warned.length ? `, ${warned.length} with warnings` : ''})`), '',
    '| check | result | value | description |', '|---|---|---|---|'];
  const shown = { pass: 'pass', warn: 'warn', fail: 'FAIL' } as const;
  for (const c of r.checks) lines.push(`| ${c.name} | ${shown[checkStatus(c)]} | ${esc(c.value)} | ${esc(c.description)} |`);
  for (const c of warned) {
    lines.push('', `## ${c.name}: warnings`, '');
    for (const w of c.warnings ?? []) lines.push(`- ${esc(w)}`);
  }
  const failed = r.checks.filter((c) => !c.passed);
  for (const c of failed) {
    lines.push('', `## ${c.name} failed`, '');
    for (const f of c.failures ?? []) lines.push(`- ${esc(f)}`);
  }
  lines.push('', '## Degenerate cells', '');
  if (r.degenerate.length === 0) lines.push('None.');
  else {
    lines.push('| cell | count | note |', '|---|---|---|');
    for (const d of r.degenerate) lines.push(`| ${esc(d.cell)} | ${d.x}/${d.n} | ${esc(d.note)} |`);
  }
  return inertMarkdown(lines.join('\n') + '\n');
}

export function verificationJson(r: VerificationReport): string {
  return jsonText(r, 2) + '\n';
}
