/**
 * The audit's summary, the same in audit.md and audit.html: one headline sentence (the html's
 * opening), then a line on consistency, the most fragile conclusion, and one line per conclusion.
 */
import type { AuditResult } from './audit.js';
import { fixed } from '../../core/format.js';
import { framingTestText, hasFramingTests } from '../two-framing/index.js';

type Result = Omit<AuditResult, 'files'>;
/** "reading error ±K can/cannot overturn it", or that the counts were given. */
export function readingVerdict(r: Pick<Result, 'readingError'>, overturned: boolean, can = 'can'): string {
  return r.readingError.given ? 'counts given, no reading error' : `reading error ${r.readingError.label} ${overturned ? can : 'cannot'} overturn it`;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const bound = (t: Result['tipping'][number]) => (t.method === 'greedy' || t.method === 'constructive' ? 'at most ' : '');

/** The conclusion that falls with the fewest changes per cell behind it, if any was overturned. */
function mostFragile(r: Result): Result['tipping'][number] | undefined {
  const found = r.tipping.filter((t) => t.changes !== undefined);
  return found.length ? found.reduce((a, b) => (b.changes! / b.scopeCells < a.changes! / a.scopeCells ? b : a)) : undefined;
}

/** The R = 1 test (whether framing changes behaviour) and its tipping point, exact on the counts (docs/methods.md §10.3). */
function framingLine(r: Result, can: string): string[] {
  if (!hasFramingTests(r.analysis)) return [];
  const t = r.framingTipping;
  const found = t?.changes === undefined ? (t?.note ?? 'no overturning table found')
    : `overturned by ${t.atMost ? 'at most' : 'exactly'} ${t.changes} count change${t.changes === 1 ? '' : 's'} (${t.test === 'exact'
      ? 'the test as the rows print it, with the exact conditional p where a pair is sparse, no longer below 0.05'
      : `ΣG at or below χ²(${t.df}, 0.95) = ${fixed(t.critical, 2)}`})`;
  const tipping = !t ||
    !t.holds ? '' : (` It is ${found}; reading error ${r.readingError.label} lowers ΣG to at least ${fixed(t.readingError.minG, 2)}, so ` +
      `it ${t.readingError.overturned ? can : 'cannot'} overturn it.`);
  return [(`${framingTestText(r.analysis)} (Whether framing changes behaviour is read from this test, not from an interval excluding 1; per model: ` +
    `audit.json framing_test.)${tipping}`)];
}

/** The summary's lines (without list markers); `can` is how "can overturn" is written (bold in Markdown). */
export function summaryItems(r: Result, can = 'can'): string[] {
  const flags = r.consistency.filter((c) => c.status === 'impossible-rate' || c.status === 'count-mismatch').length;
  const t = mostFragile(r);
  const fragile = t ? [
    `Most fragile: ${t.statement} — ${bound(t)}${t.changes} changes, ${(t.changes! / t.scopeCells).toFixed(1)} counts per cell behind it on average`
    + (r.readingError.given ? ' (counts given: no reading error)'
      : `, against a reading error of ${r.readingError.label}${r.readingError.perCell ? '' : ' per cell'}`) + '.'] : [];
  return [
    `Consistency: ${flags === 0 ? 'no reported rate is impossible at its n' : `${flags} cell(s) flagged`}.`,
    ...fragile,
    ...framingLine(r, can),
    ...r.tipping.map((x) =>
      `${cap(x.statement)}: ${x.holds ? (x.changes === undefined ? 'no overturning table found' : `overturned by ${bound(
        x)}${x.changes} count change${x.changes === 1 ? '' : 's'}`) : 'does not hold'}; ${readingVerdict(r, x.readingError.overturned, can)}.`),
  ];
}

/** One sentence: how many conclusions hold, whether the reading error can overturn any, and the most fragile. */
export function auditHeadline(r: Result): string {
  const held = r.tipping.filter((t) => t.holds);
  const overturnable = held.filter((t) => t.readingError.overturned).length;
  const t = mostFragile(r);
  const reading = r.readingError.given ? 'the counts were given, so no reading error is set against them'
    : overturnable === 0 ? `a reading error of ${r.readingError.label} can overturn none of them`
      : `a reading error of ${r.readingError.label} can overturn ${overturnable} of them`;
  const fragile = t ? `; the most fragile, ${t.statement}, falls with ${bound(t)}${t.changes} single-count changes` : '';
  return `${held.length} of the ${r.tipping.length} conclusions tested hold on the data as reported, and ${reading}${fragile}.`;
}
