import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * The README is a landing page (at most 200 lines, the two set-up commands first), and every
 * relative link of the README and of docs/ leads to a file or folder that exists, and to a heading
 * of it when it names one (#anchor, GitHub's slugs). CITATION.cff parses and agrees with package.json.
 */
const markdown = ['README.md', ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.md')).map((f) => join('docs', f))].sort();

/** GitHub's heading anchor: lower case, punctuation other than - and _ dropped, spaces to -. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[`*]/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const s = slug(m[1]);
    const n = seen.get(s) ?? 0;
    seen.set(s, n + 1);
    out.add(n === 0 ? s : `${s}-${n}`);
  }
  return out;
}

/** [text](target) links outside code blocks and code spans, with their line. */
function links(file: string): { target: string; line: number }[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: { target: string; line: number }[] = [];
  let fence = false;
  lines.forEach((l, i) => {
    if (/^\s*(```|~~~)/.test(l)) { fence = !fence; return; }
    if (fence) return;
    for (const m of l.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push({ target: m[1], line: i + 1 });
  });
  return out;
}

describe('every relative link of the README and docs/ resolves', () => {
  it.each(markdown)('%s', (rel) => {
    const file = join(ROOT, rel);
    const broken: string[] = [];
    for (const { target, line } of links(file)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http(s), mailto: not checked (no network)
      const [path, anchor] = target.split('#');
      const dest = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(dest)) { broken.push(`${rel}:${line}: ${target} (no ${relative(ROOT, dest)})`); continue; }
      if (anchor && statSync(dest).isFile() && dest.endsWith('.md') && !anchors(dest).has(anchor)) broken.push(`${rel}:${line}: ${target} (no heading #${anchor})`);
    }
    expect(broken).toEqual([]);
  });

  it('a broken link and a missing heading are caught', () => {
    expect(links(join(ROOT, 'README.md')).length).toBeGreaterThan(10);
    expect(anchors(join(ROOT, 'docs/guides/run-your-own-study.md')).has('7-how-many-trials-plan-and-coverage')).toBe(true);
    expect(anchors(join(ROOT, 'docs/guides/run-your-own-study.md')).has('7-how-many-trials')).toBe(false);
    expect(existsSync(join(ROOT, 'docs/guides/no-such-guide.md'))).toBe(false);
  });
});

describe('the README is a landing page', () => {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  it('is at most 200 lines', () => { expect(text.split('\n').length - 1).toBeLessThanOrEqual(200); });
  it('starts with the two set-up commands', () => {
    const lines = text.split('\n');
    expect(lines.slice(0, 6)).toEqual(['# samegame', '', '```sh', 'npm ci && npx samegame reproduce', 'npm test', '```']);
  });
  it('links a guide for each of the four uses and the reference', () => {
    for (const g of ['reproduce-a-paper', 'audit-secondary-data', 'run-your-own-study', 'reanalyse-a-published-log']) expect(text).toContain(`(docs/guides/${g}.md)`);
    expect(text).toContain('(docs/reference/README.md)');
  });
});

describe('CITATION.cff', () => {
  it('parses, and its version and licence are the package\'s', () => {
    const cff = parse(readFileSync(join(ROOT, 'CITATION.cff'), 'utf8')) as Record<string, unknown>;
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; license: string };
    expect(cff['cff-version']).toBe('1.2.0');
    expect(cff.version).toBe(pkg.version);
    expect(cff.license).toBe(pkg.license);
    expect((cff.authors as unknown[]).length).toBeGreaterThan(0);
    expect(typeof cff.title).toBe('string');
  });
});
