import { fixed, jsonText } from '../core/format.js';
import { createHash } from 'node:crypto';
import type { Figure } from './figure.js';
import { DASHED_ID } from './figure.js';
import { readBundles, type VegaBundles } from './vega-runtime.js';
import { placeLabels } from './overlay-labels.js';
import { VERDICT_COLORS } from './verdict-colors.js';
import { MATCH_BROWSER_SCRIPT, MATCH_BROWSER_STYLE, type MatchBrowserBlock } from './match-browser.js';
import { BOOT, STYLE } from './html-assets.js';

/**
 * One self-contained HTML report: vega, vega-lite and vega-embed inlined, the figures' specs as
 * JSON data blocks, no request to anything outside the file, so it opens offline from file://.
 *
 * A report is a document model (sections of text, tables, facts and figures) rendered here in
 * one place, so every string — model names, notes, later raw model outputs — passes through the
 * same escaping. Capabilities add sections; none writes HTML itself. The Content-Security-Policy
 * allows only the inlined scripts (by hash) and no network at all, so even a string that escaped
 * escaping could not run or fetch anything.
 */

export interface TableCell {
  readonly text: string;
  /** Right-aligned, tabular figures. */
  readonly numeric?: boolean;
  /** A hash or other long unbroken code, broken anywhere so that it never widens its table. */
  readonly hash?: boolean;
  readonly status?: 'pass' | 'warn' | 'fail';
  /** A reproduction verdict: the cell in that verdict's colour (render/verdict-colors.ts). */
  readonly verdict?: string;
}
export type CellInput = string | TableCell;
/** A numeric cell: right-aligned, tabular figures; a number is written by fixed (to `digits`). */
export const num = (x: string | number, digits = 3): TableCell => ({ text: typeof x === 'number' ? fixed(x, digits) : x, numeric: true });

export type Block =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'facts'; readonly items: readonly (readonly [string, string])[] }
  | {
    readonly kind: 'table'; readonly id?: string; readonly caption?: string; readonly columns: readonly CellInput[];
      readonly rows: readonly (readonly CellInput[])[];
    /** Further rows, folded under a <details> summary (expandable), in a table of the same columns. */
    readonly folded?: { readonly summary: string; readonly rows: readonly (readonly CellInput[])[] };
  }
  | { readonly kind: 'list'; readonly items: readonly string[] }
  | { readonly kind: 'figure'; readonly figure: Figure }
  | { readonly kind: 'code'; readonly text: string }
  /** Links to the files of the output folder, relative to the report (work from file:// and inside a zip). */
  | { readonly kind: 'links'; readonly items: readonly FileLink[] }
  /** An image (embedded as a data URI) with labelled points and whiskers drawn over it, in the image's pixels. */
  | { readonly kind: 'overlay'; readonly id: string; readonly caption: string; readonly image: OverlayImage; readonly marks: readonly OverlayMark[] }
  /** Matches round by round, a decision's prompt and answer on click (src/render/match-browser.ts). */
  | MatchBrowserBlock;

export interface OverlayImage { readonly mime: 'image/png' | 'image/jpeg' | 'image/gif'; readonly base64: string; readonly width: number;
  readonly height: number }
/** A point of an overlay: `label` names it (hover title), `key` (e.g. its number in a table beside the figure) is the text drawn. */
export interface OverlayMark { readonly x: number; readonly y: number; readonly lo: { readonly x: number; readonly y: number };
  readonly hi: { readonly x: number; readonly y: number }; readonly label: string; readonly key: string }

export interface FileLink {
  /** Relative path from the report's folder, '/'-separated (e.g. table2.csv, ../figures/cell-r2.svg). */
  readonly href: string;
  readonly text: string;
  readonly note?: string;
}

export interface Section {
  /** Anchor id: lowercase letters, digits and dashes. */
  readonly id: string;
  readonly heading: string;
  readonly blocks: readonly Block[];
}

export interface ReportDoc {
  readonly title: string;
  readonly subtitle?: string;
  /** A notice shown under the title (e.g. synthetic data). */
  readonly banner?: string;
  readonly sections: readonly Section[];
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values: the five characters HTML gives meaning to. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]);
}

/**
 * JSON inside a <script type="application/json"> block: `<` escaped so no `</script>` or `<!--`
 * can end or change the block; U+2028/2029 escaped for old parsers.
 */
export function scriptJson(value: unknown): string {
  return jsonText(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function anchor(id: string): string {
  if (!DASHED_ID.test(id)) throw new RangeError(`report anchor must be lowercase words joined by dashes: ${JSON.stringify(id)}`);
  return id;
}

function cell(c: CellInput, tag: 'td' | 'th'): string {
  const v = typeof c === 'string' ? { text: c } : c;
  const tone = v.verdict !== undefined && Object.prototype.hasOwnProperty.call(VERDICT_COLORS, v.verdict) ? `v-${v.verdict}` : '';
  const cls = [v.numeric ? 'num' : '', v.hash ? 'hash' : '', v.status ?? '', tone].filter(Boolean).join(' ');
  // warn is styled inline: the shared stylesheet stays byte-identical for reports without warnings
  const style = v.status === 'warn' ? ' style="color: #8a5a00; font-weight: bold;"' : '';
  return `<${tag}${cls ? ` class="${cls}"` : ''}${style}>${escapeHtml(v.text)}</${tag}>`;
}

/** A relative link target, each path segment percent-encoded; absolute paths and URLs are refused. */
export function relativeHref(href: string): string {
  if (href.startsWith('/') || href.includes('\\') || /^[a-z][a-z0-9+.-]*:/i.test(href)) throw new RangeError(
    `report links must be relative paths: ${JSON.stringify(href)}`);
  return href.split('/').map((seg) => (seg === '..' || seg === '.' ? seg : encodeURIComponent(seg))).join('/');
}

const link = (l: FileLink) => `<a href="${escapeHtml(relativeHref(l.href))}">${escapeHtml(l.text)}</a>`;

const coord = (v: number) => (Number.isFinite(v) ? String(Math.round(v * 1000) / 1000) : '0');

/**
 * An image with its marks as inline SVG: each point a circle, its whisker a line with caps, its key beside it (inside the image, clear of the others where
 * possible).
 */
function overlay(b: Extract<Block, { kind: 'overlay' }>): string {
  const { width: w, height: h } = b.image;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b.image.base64)) throw new RangeError('overlay image is not base64');
  const fs = Math.max(11, Math.round(w / 90));
  const places = placeLabels(b.marks.map((m) => ({ x: m.x, y: m.y, text: m.key })), w, h, fs);
  const marks = b.marks.map((m, i) => {
    const dx = m.hi.x - m.lo.x, dy = m.hi.y - m.lo.y, len = Math.hypot(dx, dy) || 1;
    const cap = (p: { x: number;
      y: number }) => (`<line x1="${coord(p.x - (4 * dy) / len)}" y1="${coord(p.y + (4 * dx) / len)}" x2="${coord(p.x + (4 * dy) / len)}" ` +
        `y2="${coord(p.y - (4 * dx) / len)}"/>`);
    return [`<g class="mark" data-cell="${escapeHtml(m.label)}"><title>${escapeHtml(m.label)}</title>`,
      `<line x1="${coord(m.lo.x)}" y1="${coord(m.lo.y)}" x2="${coord(m.hi.x)}" y2="${coord(m.hi.y)}"/>${cap(m.lo)}${cap(m.hi)}`,
      `<circle cx="${coord(m.x)}" cy="${coord(m.y)}" r="3"/>`,
      (`<text stroke="#ffffff" stroke-width="3" paint-order="stroke" x="${coord(places[i].x)}" y="${coord(places[i].y)}" ` +
        `text-anchor="${places[i].anchor}">${escapeHtml(m.key)}</text></g>`)].join('');
  });
  return [
    `<figure class="figure overlay" id="${anchor(b.id)}">`,
    `<svg viewBox="0 0 ${w} ${h}" width="${w}" style="max-width: 100%; height: auto; overflow: hidden;" role="img" aria-label="${escapeHtml(b.caption)}">`,
    `<image href="data:${b.image.mime};base64,${b.image.base64}" x="0" y="0" width="${w}" height="${h}"/>`,
    `<g stroke="#d62728" stroke-width="1.5" fill="#d62728" font-size="${fs}" font-weight="bold">${marks.join('\n')}</g>`,
    '</svg>',
    `<figcaption>${escapeHtml(b.caption)}</figcaption>`,
    '</figure>',
  ].join('\n');
}

function block(b: Block): string {
  switch (b.kind) {
    case 'overlay': return overlay(b);
    case 'text': return `<p>${escapeHtml(b.text)}</p>`;
    case 'code': return `<pre><code>${escapeHtml(b.text)}</code></pre>`;
    case 'list': return `<ul>${b.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
    case 'links':
      return `<ul class="file-links">${b.items.map((l) => `<li>${link(l)}${l.note ? ` — ${escapeHtml(l.note)}` : ''}</li>`).join('')}</ul>`;
    case 'facts':
      return `<dl class="facts">${b.items.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
    case 'table': {
      const head = `<thead><tr>${b.columns.map((c) => cell(c, 'th')).join('')}</tr></thead>`;
      const body = (rows: readonly (readonly CellInput[])[]) =>
        `<tbody>${rows.map((r) => `<tr>${r.map((c) => cell(c, 'td')).join('')}</tr>`).join('\n')}</tbody>`;
      return [
        `<div class="table-wrap"><table${b.id ? ` id="${anchor(b.id)}"` : ''}>`,
        b.caption ? `<caption>${escapeHtml(b.caption)}</caption>` : '',
        head, body(b.rows), '</table></div>',
        ...(b.folded ? [`<details><summary>${escapeHtml(b.folded.summary)}</summary>`, `<div class="table-wrap"><table>${head}`, body(b.folded.rows),
          '</table></div></details>'] : []),
      ].join('\n');
    }
    case 'match-browser':
      return (`<div class="match-browser" id="${anchor(b.id)}" data-source="matches-${b.id}"></div>\n<script type="application/json" ` +
        `id="matches-${b.id}">${scriptJson(b.cells)}</script>`);
    case 'figure': {
      const id = anchor(b.figure.id);
      return [
        `<figure class="figure" id="figure-${id}" data-figure="${id}">`,
        `<div class="chart"></div>`,
        `<figcaption><strong>${escapeHtml(b.figure.title)}.</strong> ${escapeHtml(b.figure.caption)}`,
        ` <span class="files">Files: ${(['vl.json', 'svg', 'png'] as const).map((ext) => link({ href: `../figures/${b.figure.id}.${ext}`,
          text: `${b.figure.id}.${ext}` })).join(', ')}</span></figcaption>`,
        `<script type="application/json" id="spec-${id}">${scriptJson(b.figure.spec)}</script>`,
        '</figure>',
      ].join('\n');
    }
  }
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Section, table and figure anchors share one id space in the page. */
function assertUniqueAnchors(doc: ReportDoc): void {
  const seen = new Set<string>();
  for (const s of doc.sections) {
    const ids = [s.id, ...s.blocks.flatMap((b) => (b.kind === 'table' && b.id ? [b.id] : b.kind === 'figure' ? [`figure-${b.figure.id}`, `spec-${b.figure.id}`]
      : b.kind === 'overlay' ? [b.id] : b.kind === 'match-browser' ? [b.id, `matches-${b.id}`] : []))];
    for (const id of ids) {
      if (seen.has(id)) throw new Error(`two report elements share the id ${id}`);
      seen.add(id);
    }
  }
}

/** An inline script must not contain what would end it or switch the parser's script state. */
function inlineScript(source: string): string {
  if (/<\/script|<!--|<script/i.test(source)) throw new Error('an inlined script contains <script, </script or <!--');
  return source;
}

/** The report as one HTML string; byte-identical for the same document and library versions. */
export function renderReportHtml(doc: ReportDoc, bundles: VegaBundles = readBundles()): string {
  // A report without a match browser carries neither its script nor its style (its bytes stay as they were).
  const browser = doc.sections.some((s) => s.blocks.some((b) => b.kind === 'match-browser'));
  const scripts = [bundles.vega, bundles.vegaLite, bundles.vegaEmbed, BOOT, ...(browser ? [MATCH_BROWSER_SCRIPT] : [])].map(inlineScript);
  // Vega compiles its expressions with Function(), hence 'unsafe-eval'; nothing else may load or run.
  const csp = `default-src 'none'; script-src ${scripts.map(sha256).join(' ')} 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:`;
  assertUniqueAnchors(doc);
  const sections = doc.sections.map((s) => [
    `<section id="${anchor(s.id)}">`,
    `<h2>${escapeHtml(s.heading)}</h2>`,
    ...s.blocks.map(block),
    '</section>',
  ].join('\n'));
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${STYLE}${browser ? MATCH_BROWSER_STYLE : ''}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${escapeHtml(doc.title)}</h1>`,
    doc.subtitle ? `<p class="subtitle">${escapeHtml(doc.subtitle)}</p>` : '',
    ...(doc.banner ? [`<p class="banner" role="note">${escapeHtml(doc.banner)}</p>`] : []),
    `<nav>${doc.sections.map((s) => `<a href="#${anchor(s.id)}">${escapeHtml(s.heading)}</a>`).join('')}</nav>`,
    '</header>',
    '<main>',
    ...sections,
    '</main>',
    ...scripts.map((s) => `<script>${s}</script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
