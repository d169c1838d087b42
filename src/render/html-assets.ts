/** The report page's style sheet and the script that renders its figures (html.ts inlines both). */
import { FONT_STACK } from './figure.js';
import { VERDICT_STYLE } from './verdict-colors.js';

export const STYLE = `
:root { color-scheme: light; }
body { font-family: ${FONT_STACK}; color: #1d1d1f; margin: 0; background: #fafafa; line-height: 1.45; }
header, main { max-width: 1100px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 1.7em; margin: 0 0 4px; }
.subtitle { color: #555; margin: 0 0 12px; }
nav a { margin-right: 14px; color: #2a5d9f; text-decoration: none; }
section { background: #fff; border: 1px solid #e3e3e3; border-radius: 6px; margin: 18px 0; padding: 8px 22px 16px; }
h2 { font-size: 1.25em; border-bottom: 1px solid #eee; padding-bottom: 6px; }
table { border-collapse: collapse; margin: 8px 0 14px; font-size: 0.92em; }
caption { text-align: left; font-weight: bold; padding-bottom: 6px; }
th, td { border-bottom: 1px solid #e6e6e6; padding: 4px 7px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; }
td:first-child { white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
td.hash { word-break: break-all; font-family: ui-monospace, monospace; font-size: 0.9em; min-width: 16ch; }
td.pass { color: #1b7f3b; font-weight: bold; }
td.fail { color: #b3261e; font-weight: bold; }
.table-wrap { overflow-x: auto; max-width: 100%; }
details summary { cursor: pointer; color: #2a5d9f; margin: 4px 0 8px; }
${VERDICT_STYLE}
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
pre { background: #f3f4f6; padding: 8px 12px; white-space: pre-wrap; overflow-wrap: break-word; }
.banner { background: #fff4e5; border: 1px solid #f0b35a; border-radius: 6px; padding: 8px 14px; margin: 0 0 12px; font-weight: bold; }
ul.file-links a, figcaption .files a { color: #2a5d9f; }
figure.figure { margin: 12px 0 24px; }
figure.figure .chart { overflow-x: auto; display: block; width: 100%; }
figure.figure .chart svg { display: block; max-width: 100%; height: auto; }
figcaption { color: #444; font-size: 0.92em; }
figcaption .files { color: #777; }
`;

/** Renders the figures once the libraries are loaded; marks each figure and the body when done. */
export const BOOT = `(function () {
  // vega 6.3.0's build still reports version 5.33.1, so vega-embed warns that a Vega v6 spec
  // meets Vega v5; that one message is dropped, every other warning and error goes to the console.
  var logger = vega.logger(vega.Warn);
  var warn = logger.warn;
  logger.warn = function () {
    if (/^The compiled spec uses Vega v6, but current version is v5\\./.test(String(arguments[0]))) return logger;
    return warn.apply(logger, arguments);
  };
  var figures = document.querySelectorAll('figure[data-figure]');
  var jobs = [];
  figures.forEach(function (el) {
    var id = el.getAttribute('data-figure');
    var spec = JSON.parse(document.getElementById('spec-' + id).textContent);
    jobs.push(vegaEmbed(el.querySelector('.chart'), spec, { renderer: 'svg', actions: false, logger: logger }).then(
      function () { el.setAttribute('data-rendered', 'svg'); },
      function (err) { el.setAttribute('data-rendered', 'error'); console.error('figure ' + id + ': ' + err); }));
  });
  Promise.all(jobs).then(function () { document.body.setAttribute('data-figures-done', String(figures.length)); });
})();`;
