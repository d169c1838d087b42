import { POOLED, statLabel } from '../../core/names.js';
import { fixed, interval, signed } from '../../core/format.js';
import type { AuditResult } from './audit.js';
import { CAMERER_2016_RATIO } from './attenuation.js';
import { DEFAULT_ATTENUATION } from '../../sources/input.js';
import type { TippingResult } from './tipping.js';
import { inertMarkdown, mdCell as esc } from '../../render/markdown.js';
import { bcaHeadline } from './json.js';
import { summaryItems } from './summary.js';
import { influenceCells, influenceFull, influenceHeaders, influenceKinds } from './influence.js';
import { andList, inConclusionOrder, noun, table3Column } from '../../stats/table3.js';

type Result = Omit<AuditResult, 'files'>;
/** The audited Table 3 columns of a result (those its influence analysis covers). */
const headline = (r: Result) => influenceKinds(r.influence).map(table3Column);


function table(columns: string[], rows: string[][]): string[] {
  return [`| ${columns.join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)];
}

const METHOD: Record<TippingResult['method'], string> = {
  'exact': 'exact (exhaustive)',
  'exact-dp': 'exact (dynamic programming)',
  'dp-grid': 'upper bound (dynamic programming on a grid of counts)',
  'greedy': 'greedy: upper bound',
  'constructive': 'constructive plan, pruned: upper bound',
  'not-found': 'not found',
  'not-held': 'conclusion does not hold',
};

function consistencySection(r: Result): string[] {
  const flags = r.consistency.filter((c) => c.status === 'impossible-rate' || c.status === 'count-mismatch');
  const nd = r.consistency.filter((c) => c.status === 'not-discriminating');
  const out = ['## 1. Consistency of the reported rates (GRIM-style)', '',
    'A rate reported at d decimals from n trials must equal round(k/n, d) for some whole count k (the GRIM test, Brown & Heathers 2017). ' +
    'Rates are read as text, so trailing zeros count as decimals. When n ≥ 10^d every rate at d decimals has such a count and the test cannot discriminate.',
      '',
    flags.length === 0 ? `**No cell flagged**: every reported rate is possible at its n (${r.consistency.length} cells).`
      : `**${flags.length} cell${flags.length > 1 ? 's' : ''} flagged**: ${flags.map((f) => `${f.cell} (line ${f.line})`).join('; ')}.`, ''];
  if (nd.length) out.push(`${nd.length} cell(s) cannot be tested (n ≥ 10^d).`, '');
  out.push(...table(['line', 'cell', 'n', 'rate', 'counts that give the rate', 'count used', 'status'], r.consistency.map((c) => [
    String(c.line), c.cell, String(c.n), c.rate ?? '—',
    c.consistent ? (c.consistent.size === 1 ? String(c.consistent.min) : `${c.consistent.min}–${c.consistent.max}`)
      : c.nearby ? `none; nearest ${c.nearby.map((x) => `${x.count} (→ ${x.rate})`).join(', ')}` : '—',
    `${c.count}${c.countGiven ? ' (given)' : ''}`, c.status,
  ])));
  return out;
}

function readingSection(r: Result): string[] {
  const K = r.readingError.K;
  if (r.readingError.given) {
    return ['## 2. Reading error', '',
      `The counts were given (${r.input.kind}), not read off a figure: there is no reading error to analyse, and none is assumed.`];
  }
  const fixedCells = r.input.rows.length - r.readingError.reconstructedCells;
  const L = r.readingError.label;
  const perCell = r.readingError.perCell !== undefined;
  const out = [perCell ? `## 2. Reading error of ${L}` : `## 2. Reading error of ±${K} count${K === 1 ? '' : 's'} per reconstructed cell`, '',
    ...(fixedCells ? [`Only the ${r.readingError.reconstructedCells} counts reconstructed from rates may be off; the ${fixedCells} given counts stay fixed.`,
      ''] : []),
    perCell
      ? (`Every count was read from a click on the digitized figure; each may be off by its own range: the counts at ±${K} px of its click along the value ` +
        `axis (count_lo to count_hi in reports/digitization.csv). `) +
        'The range of each headline statistic over all tables within those ranges (counts kept in [0, n]):'
      : `Every count may be off by up to ±${K} (with n = 300 one count is 1/300 of the bar height: about one pixel on a 300-pixel axis). ` +
        'The range of each headline statistic over all tables within that distance (counts kept in [0, n]):', '',
    (`- **point estimates, exact**: the shift is linear in the counts, so moving every ` +
      `cell ${perCell ? 'to the same end of its range' : 'by ±K the same way'} is the extreme; R is a mean of pair terms that each depend on their own two ` +
      `cells, so its extreme is the mean of per-pair extremes, each found by enumerating the ` +
      `pair's ${perCell ? 'neighbours within their ranges' : '(2K+1)² neighbours'}.`),
    (`- **interval endpoints, search**: a coordinate search from the point-extremal table, one cell at a time within ${perCell ? 'its range' : '±K'}, on ` +
      `the same seed. The range it reports is attained by real tables, so the true range is at least this wide (an inner bound).`), ''];
  if (r.readingError.notes?.length) out.push(...r.readingError.notes.map((n) => `- ${n}`), '');
  out.push(...table(['statistic', 'end', 'observed', `min within ${L}`, `max within ${L}`, 'width', 'how found'], r.readingError.ranges.map((x) => [
    statLabel(x.kind, x.group), x.which, fixed(x.observed, 4), fixed(x.min, 4), fixed(x.max, 4), fixed(x.max - x.min, 4),
      x.exact ? 'exact' : 'search (inner bound)',
  ])));
  return out;
}

function tippingSection(r: Result): string[] {
  const K = r.readingError.K;
  const out = ['## 3. Tipping points', '',
    'For each conclusion, the fewest single-count changes (summed over cells, |Δcount|) that overturn it — a fragility index. ' +
    'Interval conclusions use the bootstrap at the same seed: a greedy search at ' +
      `${r.settings.searchReps} replicates, then the found table is re-checked, extended if needed and pruned at the full ${r.settings.reps}; ` +
    ('when all smaller tables can be enumerated the minimum is exact (for this seed), otherwise the count is an **upper bound**: this many changes overturn ' +
      'the conclusion, fewer might. ') +
    ('The model ordering is a comparison of point estimates and is solved exactly. Every found table is verified by re-running the whole two-framing ' +
      'pipeline on it.'), '',
    r.readingError.given ? 'The counts were given, so no reading error is set against them.'
      : r.readingError.perCell ? (`Reading error ${r.readingError.label} allows at most the sum of the cells' ranges (the larger side of each) over the ` +
        `reconstructed cells that move the statistic, and no more than its own range in any one cell.`)
        : `Reading error ±${K} allows at most K × (reconstructed cells that move the statistic) changes, and no more than ${K} in any one cell.`, '',
    '≤ marks an upper bound: in the last column, “≤ N changes” is the most count changes the reading error allows for that conclusion.', ''];
  out.push(...table(['conclusion', 'observed', 'changes to overturn', 'method', 'largest change in one cell', 'after the changes (re-run)',
    `reading error ${r.readingError.label}`], r.tipping.map((t) => [
    t.statement, t.observed, t.changes === undefined ? '—' : String(t.changes), METHOD[t.method],
    t.maxPerCell === undefined ? '—' : String(t.maxPerCell),
    t.after === undefined ? '—' : `${t.after}${t.verified ? ' (overturned)' : ' (NOT overturned)'}`,
    r.readingError.given ? 'counts given'
      : `${t.readingError.overturned ? '**can overturn**' : 'cannot overturn'} (≤ ${t.readingError.budget} changes; ${t.readingError.worstCase})`,
  ])));
  for (const t of r.tipping) {
    if (!t.cells.length) continue;
    out.push('', `### ${t.statement}: ${t.changes} change${t.changes === 1 ? '' : 's'} in ${t.cells.length} cell${t.cells.length === 1 ? '' : 's'}`, '');
    out.push(...table(['cell', 'count', 'changed to', 'Δ'], t.cells.map((c) => [c.cell, String(c.from), String(c.to), signed(c.to - c.from, 0)])));
  }
  return out;
}

function attenuationSection(r: Result): string[] {
  const groups = [...r.analysis.layout.models, POOLED];
  const out = ['## 4. Attenuation sweep', '',
    (`Headline statistics with the conservative transform ${inConclusionOrder(headline(r)).map((c) => c.text.formula).join(', ')} for a from 0.50 to 1.00 ` +
      `(a = 1: no attenuation). `) +
    (`**${DEFAULT_ATTENUATION.reconstructed.toFixed(2)}** is the default; **${CAMERER_2016_RATIO.toFixed(2)}** is the average replication ratio of effect ` +
      `sizes in Camerer et al. 2016 (Science 351:1433), a reference line. `) +
    ('The transform is affine and increasing, so the intervals are the transformed raw intervals of the same replicates, and no conclusion above (interval ' +
      'excludes 0 or 1, model ordering) changes with a > 0: attenuation rescales magnitudes only.'), ''];
  const atts = [...new Set(r.attenuation.map((x) => x.attenuation))];
  const kinds = Object.keys(r.attenuation[0]?.values ?? {});
  out.push(...table(['a', 'mark', ...groups.flatMap((g) => kinds.map((k) => `${k} ${g}`))], atts.map((a) => {
    const rows = r.attenuation.filter((x) => x.attenuation === a);
    return [a.toFixed(2), rows[0].marks.join(', ') || '', ...groups.flatMap((g) => {
      const x = rows.find((y) => y.group === g)!;
      return kinds.map((k) => `${fixed(x.values[k].point)} ${interval(x.values[k].lo, x.values[k].hi)}`);
    })];
  })));
  return out;
}

function influenceSection(r: Result): string[] {
  const inf = r.influence;
  const out = ['## 5. Influence of each model–game pair', '',
    'The change of the pooled values when one model–game pair is left out (pooled = unweighted mean of the remaining pairs, same replicates). ' +
    'R2 and the shift are contrasts of a pair\'s two framing cells, so leaving out either cell removes the pair: a cell\'s influence is its pair\'s.', '',
    `Full table: ${influenceFull(inf)}.`, ''];
  out.push(...table(['pair left out', ...influenceHeaders(inf)], inf.pairs.map((p) => [`${p.model} / ${p.game}`, ...influenceCells(inf, p,
    (x) => signed(x))])));
  return out;
}

function mcSection(r: Result): string[] {
  const t = r.settings.mcTarget;
  const b = r.mcError[0]?.lo.batches ?? 0;
  const out = ['## 6. Monte Carlo error of the interval endpoints', '',
    (`The ${r.settings.reps} replicates are split into ${b} batches of ${Math.floor(r.settings.reps / Math.max(1, b))}; the endpoint is computed in each ` +
      `batch, and its Monte Carlo standard error is sd(batch endpoints)/√${b}. `) +
    `The error falls as 1/√B, so the replicates needed for an error under ${t} are B·(se/${t})² (an extrapolation).`, ''];
  out.push(...table(['statistic', 'lower end', 'MC error', 'upper end', 'MC error', `replicates for error < ${t}`], r.mcError.map((m) => [
    statLabel(m.kind, m.group), fixed(m.lo.estimate, 4), fixed(m.lo.se, 5), fixed(m.hi.estimate, 4), fixed(m.hi.se, 5),
    String(Math.max(m.lo.repsNeeded, m.hi.repsNeeded)) + (Math.max(m.lo.se, m.hi.se) < t ? ' (met)' : ''),
  ])));
  return out;
}

function degenerateSection(r: Result): string[] {
  const out = ['## 7. Degenerate cells (0/n and n/n)', '',
    'The bootstrap redraws a cell as Binomial(n, x/n), which cannot move at 0/n or n/n: its interval collapses to a point. ' +
    'Beside it, the exact Clopper–Pearson 95 % interval, in closed form at the boundary: [0, 1 − 0.025^(1/n)] for 0/n and [0.025^(1/n), 1] for n/n. ' +
    'The last column recomputes the pair\'s R2 and shift with this cell moved to the far end of its exact interval.', ''];
  if (!r.degenerate.length) return [...out, 'None.'];
  out.push(...table(['cell', 'count', 'bootstrap interval', 'exact 95 % (Clopper–Pearson)', 'pair R2, shift observed', 'at the exact bound'],
    r.degenerate.map((d) => [
    d.cell, `${d.x}/${d.n}`, interval(d.bootstrap.lo, d.bootstrap.hi, 4), interval(d.exact.lo, d.exact.hi, 4),
    `${fixed(d.pairAtExactBound.R2Observed, 4)}, ${fixed(d.pairAtExactBound.shiftObserved, 4)}`,
    `${fixed(d.pairAtExactBound.R2, 4)}, ${fixed(d.pairAtExactBound.shift, 4)}`,
  ])));
  return out;
}

/** reports/audit.md: the provenance audit of a rates file, readable on its own. */
export function auditMarkdown(r: Result): string {
  const s = r.settings;
  const lines = [`# Provenance audit of ${r.input.path}`, '',
    (`Input sha256 ${r.input.sha256}; ${r.input.rows.length} cells (${r.input.kind}). Bootstrap: seed ${s.seed}, ${s.reps} replicates, 95 % percentile ` +
      `intervals${s.interval === 'bca' ? ' in sections 2–6 (their searches are defined on percentile ends; BCa headline intervals below)' : ''}; `) +
    `attenuation ${s.attenuation}; planned pair ${s.base} → ${s.alt}; reading error ${r.readingError.label}. ` +
    `Headline statistics are the conservative per-model and pooled ${andList(headline(r).map(noun))} of Table 3.`, '',
    ...(s.interval === 'bca' ? ['BCa headline intervals (same replicates): ' + bcaHeadline(r).map((h) =>
      `${h.statistic} ${h.group} ${fixed(h.point)} ${interval(h.lo, h.hi)}`).join('; ') + '.', ''] : []),
    '## Summary', '',
    ...summaryItems(r, '**can**').map((line) => `- ${line}`),
    '',
    ...consistencySection(r), '', ...readingSection(r), '', ...tippingSection(r), '', ...attenuationSection(r), '',
    ...influenceSection(r), '', ...mcSection(r), '', ...degenerateSection(r), ''];
  return inertMarkdown(lines.join('\n'));
}
