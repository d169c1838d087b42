/**
 * The checks the issue asks of the shipped Akata log's report, on the HTML and the Vega-Lite spec
 * (so they run where no browser does): every table row has the header's cells, the round figure
 * has one view per panel each with its x axis, and display names reach figure and report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export const AKATA_LOG = join(ROOT, 'data', 'akata-2023', 'experiment_pd.csv');
/** The PNG's pixel size from its IHDR chunk. */
export function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

const decode = (s: string) => s.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** Every <table> of a report: its id (or ''), its header cells and the cells of each body row. */
export function htmlTables(html: string): { id: string; header: string[]; rows: string[][] }[] {
  return [...html.matchAll(/<table(?: id="([^"]*)")?>([\s\S]*?)<\/table>/g)].map((m) => {
    const cells = (tr: string, tag: string) => [...tr.matchAll(new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((c) => decode(c[1]));
    const head = /<thead>([\s\S]*?)<\/thead>/.exec(m[2])?.[1] ?? '';
    const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(m[2])?.[1] ?? '';
    return { id: m[1] ?? '', header: cells(head, 'th'), rows: [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => cells(r[1], 'td')) };
  });
}

interface View { title?: { text?: string }; layer?: { encoding?: { x?: { axis?: unknown } } }[]; data?: { values?: { panel: string; opponent: string }[] } }
/** The panels of a repeated figure's spec: title, whether each of its layers has an x axis, its series. */
export function specPanels(spec: unknown): { title: string; xAxis: boolean; series: string[] }[] {
  const views = (spec as { concat?: View[] }).concat ?? [];
  return views.map((v) => ({
    title: v.title?.text ?? '',
    xAxis: (v.layer ?? []).every((l) => l.encoding?.x !== undefined && l.encoding.x.axis !== null),
    series: [...new Set((v.data?.values ?? []).map((p) => p.opponent))],
  }));
}
