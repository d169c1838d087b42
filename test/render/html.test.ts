import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { escapeHtml, num, relativeHref, renderReportHtml, scriptJson, type ReportDoc } from '../../src/render/html.js';
import { defineFigure } from '../../src/render/figure.js';
import { readBundles } from '../../src/render/vega-runtime.js';

const EVIL = '<img src=x onerror="window.__pwned=1">';
const CLOSE = '</script><script>window.__pwned=2</script>';

describe('escapeHtml', () => {
  it('escapes the five characters HTML gives meaning to', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml(EVIL)).toBe('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
    expect(escapeHtml('GPT-4 / Stag Hunt')).toBe('GPT-4 / Stag Hunt');
  });
});

describe('num', () => {
  it('num: a right-aligned cell, a number written at its decimals (3 unless told)', () => {
    expect(num('1/3')).toEqual({ text: '1/3', numeric: true });
    expect(num(1 / 3)).toEqual({ text: '0.333', numeric: true });
    expect(num(12, 0)).toEqual({ text: '12', numeric: true });
    expect(num(NaN)).toEqual({ text: 'NA', numeric: true });
  });
});

describe('scriptJson', () => {
  it('cannot close its <script> block, and parses back to the same value', () => {
    const v = { model: CLOSE, note: '<!-- x -->', sep: '\u2028' };
    const s = scriptJson(v);
    expect(s).not.toMatch(/<\/script|<!--|<script/i);
    expect(s).not.toContain('\u2028');
    expect(JSON.parse(s)).toEqual(v);
  });
});

describe('renderReportHtml', () => {
  const fig = defineFigure('probe', EVIL, CLOSE, {
    title: EVIL, data: { values: [{ model: EVIL, v: 1 }] }, mark: 'point',
    encoding: { y: { field: 'model', type: 'nominal' }, x: { field: 'v', type: 'quantitative' } },
  });
  const doc: ReportDoc = {
    title: EVIL,
    subtitle: CLOSE,
    sections: [{
      id: 'all-blocks',
      heading: EVIL,
      blocks: [
        { kind: 'text', text: EVIL },
        { kind: 'facts', items: [[EVIL, CLOSE]] },
        { kind: 'table', id: 't', caption: EVIL, columns: [EVIL, { text: EVIL, numeric: true }], rows: [[EVIL, { text: CLOSE, status: 'fail' }]] },
        { kind: 'list', items: [EVIL] },
        { kind: 'code', text: CLOSE },
        { kind: 'figure', figure: fig },
      ],
    }],
  };
  const html = renderReportHtml(doc);
  const bundles = readBundles();
  /** The markup without the four inlined library/boot scripts (their code mentions tags itself). */
  const markup = html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');

  it('no input string reaches the markup unescaped, in any kind of block', () => {
    expect(markup.includes('<img')).toBe(false);
    expect(markup.includes('window.__pwned=2</script>')).toBe(false);
    expect(markup.includes('<p>&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;</p>')).toBe(true);
    expect(markup.includes('<td>&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;</td>')).toBe(true);
    expect(markup.includes('<title>&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;</title>')).toBe(true);
    // one <script> per inlined library, the boot script and the figure's JSON block; nothing else
    expect(markup.match(/<script\b/g)).toHaveLength(5);
  });

  it('inlines vega, vega-lite and vega-embed and loads nothing from outside the file', () => {
    for (const b of [bundles.vega, bundles.vegaLite, bundles.vegaEmbed]) expect(html.includes(`<script>${b}</script>`)).toBe(true);
    expect(/<script[^>]+src=|<link\b|<img\b|<iframe\b/i.test(markup)).toBe(false);
    expect(/\ssrc="/.test(markup)).toBe(false);
    // Links are anchors in the page or relative paths to the files beside it (figures/…): no scheme, no absolute path.
    const hrefs = [...markup.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.filter((h) => !h.startsWith('#') && !/^(?:\.\.\/)?[\w.%-]+(?:\/[\w.%-]+)*$/.test(h))).toEqual([]);
    expect(hrefs).toContain('../figures/probe.svg');
  });

  it('file links are relative, percent-encoded per segment, and refused when absolute', () => {
    const doc = renderReportHtml({ title: 't', sections: [{ id: 'files', heading: 'Files', blocks: [{ kind: 'links', items: [
      { href: 'table 2.csv', text: 'table 2.csv', note: 'a <note>' }, { href: '../figures/a#b.svg', text: 'a#b.svg' },
    ] }] }] }, bundles);
    expect(doc).toContain('<a href="table%202.csv">table 2.csv</a> — a &lt;note&gt;');
    expect(doc).toContain('<a href="../figures/a%23b.svg">a#b.svg</a>');
    for (const bad of ['/etc/passwd', 'file:///x', 'https://example.org/x', 'javascript:alert(1)', 'C:\\x']) {
      expect(() => relativeHref(bad), bad).toThrow(RangeError);
    }
  });

  it('the Content-Security-Policy allows exactly the inline scripts present, and no network', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1];
    expect(csp).toMatch(/^default-src 'none'; /);
    expect(csp).not.toMatch(/https?:|connect-src|'unsafe-inline'[^;]*script|script-src[^;]*'unsafe-inline'/);
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(4);
    const hashes = inline.map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`);
    expect(/script-src ([^;]+);/.exec(csp)![1].split(' ').filter((t) => t.startsWith("'sha256-"))).toEqual(hashes);
  });

  it('is deterministic', () => {
    expect(renderReportHtml(doc) === html).toBe(true);
  });

  it('refuses two elements with one id', () => {
    expect(() => renderReportHtml({ title: 't', sections: [{ id: 'a', heading: 'h', blocks: [{ kind: 'table', id: 'a', columns: [], rows: [] }] }] }))
      .toThrow(/share the id a/);
  });

  it('refuses a section anchor that could break out of its attribute', () => {
    expect(() => renderReportHtml({ title: 't', sections: [{ id: '" onclick="x', heading: 'h', blocks: [] }] })).toThrow(RangeError);
  });

  it('folds a table\'s further rows under <details> in a table of the same header; a verdict cell takes its colour class, an unknown one none', () => {
    const html = renderReportHtml({ title: 't', sections: [{ id: 's', heading: 'h', blocks: [{
      kind: 'table', id: 'v', columns: ['A', 'Verdict'], rows: [['x', { text: 'differs', verdict: 'differs' }]],
      folded: { summary: 'The 2 <exact> ones', rows: [['y', { text: 'exact', verdict: 'exact' }], ['z', { text: 'odd', verdict: '" onclick="x' }]] },
    }] }] });
    const main = html.split('<main>')[1];
    expect(main).toContain('<details><summary>The 2 &lt;exact&gt; ones</summary>');
    expect(main.match(/<thead><tr><th>A<\/th><th>Verdict<\/th><\/tr><\/thead>/g)).toHaveLength(2);
    expect(main).toContain('<td class="v-differs">differs</td>');
    expect(main).toContain('<td class="v-exact">exact</td>');
    expect(main).toContain('<td>odd</td>');
  });
});
